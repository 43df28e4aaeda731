/**
 * The tolerant half of the schema policy (see requests.ts): a malformed optional field falls back to
 * "absent", and a malformed item of a list is dropped while the rest is kept.
 */
import * as z from 'zod';

export const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export function tolerantItem<T extends z.ZodType>(schema: T, item: unknown): z.infer<T>[] {
  const r = schema.safeParse(item);
  return r.success ? [r.data] : [];
}
