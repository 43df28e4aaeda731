/**
 * Functions over content types, kept apart from the schemas in content.ts: a value import of content.ts runs
 * its zod schema construction (not tree-shakeable), which would put zod into the webview bundle.
 */
import type { DiffV2, ToolCallContent, Unsupported } from './content';

export function isDiffV2(c: ToolCallContent): c is DiffV2 {
  return c.type === 'diff' && 'changes' in c && Array.isArray(c.changes);
}

/** The wire `type` of a kept unknown member, for "unsupported content (…)" labels. */
export function unsupportedType(u: Unsupported): string {
  return typeof u.raw.type === 'string' ? u.raw.type : 'unknown';
}

/** One line per v2 diff change, e.g. `modify src/a.ts` or `move old.ts → new.ts`. */
export function diffChangeLines(d: DiffV2): string[] {
  return d.changes.map((c) => (c.oldPath !== undefined ? `${c.operation} ${c.oldPath} → ${c.path}` : `${c.operation} ${c.path}`));
}
