/**
 * The saved form of a session's fields and of the reducer's bookkeeping (zod), and the types the store
 * uses for them, derived here (`z.infer`) so each exists once: the saved schema (what a restore reads,
 * tolerant of older saves) is the definition, and `model.ts`, `stepDeps.ts` and `session.ts` name these
 * types. A new session field is added here, then the compiler points at `SessionState` (model.ts) and
 * `Session` (session.ts). Named `zSaved…`: the wire schemas of the same concepts (protocol/updates.ts) read
 * what an agent sends and are another shape.
 */
import * as z from 'zod';
import { zMeta } from '../protocol/content';

/** The members a loose schema names, without its `[k: string]: unknown` for the members it keeps unread. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

export const zSavedPlanEntry = z.looseObject({ content: z.string(), priority: z.string(), status: z.string(), _meta: zMeta.optional() });
export type PlanEntry = Readonly<Named<z.infer<typeof zSavedPlanEntry>>>;

export const zSavedCommand = z.looseObject({
  name: z.string(),
  description: z.string(),
  input: z.object({ hint: z.string() }).nullable().optional(),
  _meta: zMeta.optional(),
});
export type AvailableCommand = Readonly<Named<z.infer<typeof zSavedCommand>>>;

export const zSavedMode = z.object({ id: z.string(), name: z.string(), description: z.string().nullable().optional() });
export type SessionMode = Readonly<z.infer<typeof zSavedMode>>;

/** A session config option as the agent sent it (select or boolean; unknown types are kept and ignored by the UI). */
export const zSavedConfigOption = z.looseObject({ id: z.string(), name: z.string(), type: z.string() });
export type ConfigOption = Readonly<z.infer<typeof zSavedConfigOption>>;

export const zSavedUsage = z.object({ used: z.number(), size: z.number(), cost: z.object({ amount: z.number(), currency: z.string() }).nullable().optional() });
export type Usage = Readonly<z.infer<typeof zSavedUsage>>;

/** A terminal's bounded output tail and exit; `owner`: `client` (v1, we run it) or `agent` (v2). Saves from before a field read its default. */
export const zSavedTerminal = z.object({
  output: z.string(),
  exited: z.boolean().catch(false),
  exitCode: z.number().int().nullable().catch(null),
  signal: z.string().nullable().catch(null),
  owner: z.enum(['client', 'agent']).catch('client'),
});
export type TerminalState = Readonly<z.infer<typeof zSavedTerminal>>;

export const zSavedDiagnostic = z.object({
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  /** 1-based capture line, when the input came from a capture. */
  line: z.number().optional(),
  sessionId: z.string().optional(),
});
export type Diagnostic = Readonly<z.infer<typeof zSavedDiagnostic>>;

/** The local prompt waiting for the agent's echo (v1 user chunks / v2 user_message) to merge into it; `matched`: how much of `text` the echo repeated so far. */
const zEchoState = z.object({ key: z.string(), text: z.string(), matched: z.number().int().nonnegative() });
export type EchoState = Readonly<Omit<z.infer<typeof zEchoState>, 'matched'>> & { matched: number };

/** A session/load replay in progress; its live form (`ReplayState`, replayWindow.ts) keeps maps and sets for lookups. */
const zReplay = z.object({
  priorLength: z.number().int(),
  cursor: z.number().int(),
  touched: z.array(z.number().int()),
  // Added with the replay alignment; a state saved before it reads as "nothing confirmed yet".
  progress: z.array(z.tuple([z.number().int(), z.number().int()])).catch([]),
  kept: z.array(z.tuple([z.number().int(), z.array(z.string())])).catch([]),
  current: z
    .object({ kind: z.enum(['user_message', 'agent_message', 'agent_thought']), id: z.string().nullable(), index: z.number().int() })
    .nullable()
    .catch(null),
});
export type PersistedReplay = z.infer<typeof zReplay>;

/** Reducer bookkeeping that is not part of the visible state but must survive save/restore. */
export const zInternals = z.object({
  /** Index of the message anonymous chunks of its kind merge into, or -1. */
  open: z.number().int(),
  echo: zEchoState.nullable(),
  /** Key of the agent message a tool call without `messageId` belongs to. */
  lastAgentKey: z.string().nullable(),
  replay: zReplay.nullable(),
});
export type PersistedInternals = z.infer<typeof zInternals>;
/** Where the next update of the stream lands, as far as the message rules are concerned (the internals but the replay). */
export type Bookkeeping = Pick<PersistedInternals, 'open' | 'lastAgentKey'> & { echo: EchoState | null };
