/**
 * The tolerant half of the session/update schemas (updates.ts, compaction.ts): a malformed optional field
 * falls back to absent and an invalid array item is skipped, each with a warning naming it. The warnings
 * are collected while one `parseSessionUpdate` call runs: zod's `.catch` has no side channel, and parsing
 * is synchronous, so a module-level sink is safe.
 */
import * as z from 'zod';
import { issueText as firstIssue } from '../util/errors';

let warningSink: string[] | null = null;

export function warn(message: string): void {
  warningSink?.push(message);
}

/** Runs `parse` with its warnings collected into `into`. */
export function collectWarnings<T>(into: string[], parse: () => T): T {
  warningSink = into;
  try {
    return parse();
  } finally {
    warningSink = null;
  }
}

/** An optional field whose malformed value falls back to absent, with a warning naming the field. */
export function tolerant<T extends z.ZodType>(field: string, schema: T) {
  return schema.optional().catch((ctx) => {
    warn(`malformed optional field '${field}' ignored (${firstIssue(ctx.error)})`);
    return undefined;
  });
}

/** An array whose invalid items are skipped with a warning instead of rejecting the whole update. */
export function skipInvalid<T extends z.ZodType>(field: string, item: T) {
  return z.array(z.unknown()).transform((items): z.infer<T>[] => {
    const out: z.infer<T>[] = [];
    items.forEach((raw, i) => {
      const r = item.safeParse(raw);
      if (r.success) out.push(r.data);
      else warn(`invalid item ${field}[${i}] skipped (${firstIssue(r.error)})`);
    });
    return out;
  });
}
