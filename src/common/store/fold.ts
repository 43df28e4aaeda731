/** A folded range of a session's entries (foldRules.ts), in its saved form: types come from the schema. */
import * as z from 'zod';

/** Where a fold came from: the session and the message the chat was restored to. */
const zFoldOrigin = z.object({ sessionId: z.string(), key: z.string() }).readonly();

/** A range of a session's entries folded away, by the keys of its first and last entry. */
export const zFold = z.object({ first: z.string(), last: z.string(), from: zFoldOrigin }).readonly();

export type FoldOrigin = z.infer<typeof zFoldOrigin>;
export type Fold = z.infer<typeof zFold>;
