/**
 * The shape of the message store's state. Everything here is plain JSON so a state can be saved,
 * restored, posted to the webview and printed by `cli reduce` without conversion.
 *
 * The entry types are derived from their saved form's zod schemas (entrySchema.ts), so they exist once.
 * Entries are immutable values: an update replaces the entry object, so "did this entry change?"
 * is a reference comparison. A session's entry list is append-only and owned by the store.
 */
import type { AgentPlan } from '../protocol/planUpdates';
import type { SessionSetup } from './sessionSetup';
import type * as z from 'zod';
import type { AvailableCommand, ConfigOption, PlanEntry, SessionMode, TerminalState, Usage } from './sessionSchema';
import type { Fold } from './fold';
import type { zCompactionEntry, zElicitationEntry, zMessageEntry, zProvenance, zStats, zSubagentEntry, zToolCallEntry } from './entrySchema';

// The entry types are the saved form's schemas (entrySchema.ts, where each field says what it holds),
// with the key every stored entry has.
type Keyed<T> = Omit<T, 'key'> & { readonly key: string };

/** Where an entry came from (`fork`: copied from the source session when `session/fork` answered). */
export type Provenance = z.infer<typeof zProvenance>;
/** Per-entry counters for the debug tree. Times are epoch milliseconds supplied by the caller. */
export type EntryStats = z.infer<typeof zStats>;
export type MessageEntry = Keyed<z.infer<typeof zMessageEntry>>;
export type MessageKind = MessageEntry['kind'];
export type ToolCallEntry = Keyed<z.infer<typeof zToolCallEntry>>;
/** An agent's question and, once answered, the answer (see entrySchema.ts). */
export type ElicitationEntry = Keyed<z.infer<typeof zElicitationEntry>>;

/** A child session the agent started from this one (see entrySchema.ts): the delegation card. */
export type SubagentEntry = Keyed<z.infer<typeof zSubagentEntry>>;

/** A context compaction the agent ran (see entrySchema.ts): a row in the transcript, not a message. */
export type CompactionEntry = Keyed<z.infer<typeof zCompactionEntry>>;

export type Entry = MessageEntry | ToolCallEntry | ElicitationEntry | SubagentEntry | CompactionEntry;

// The session's field types are its saved form's schemas (sessionSchema.ts), like the entries'.
export type { AvailableCommand, ConfigOption, Diagnostic, PlanEntry, SessionMode, TerminalState, Usage } from './sessionSchema';

export interface SessionState {
  readonly sessionId: string;
  /** The session that announced this one as its subagent (`subagent_update`); null for a root session. */
  readonly parentSessionId: string | null;
  /** The wire protocol version negotiated for the connection that fed this session. */
  readonly protocolVersion: number;
  readonly entries: readonly Entry[];
  readonly plan: readonly PlanEntry[] | null;
  /** The unstable plans by id (`plan_update`), in the order they first came; [] when none. */
  readonly plans: readonly AgentPlan[];
  /** What the client opened the session with (folders, system prompt, MCP servers); null before it is known. */
  readonly setup: SessionSetup | null;
  readonly currentModeId: string | null;
  readonly availableModes: readonly SessionMode[];
  readonly availableCommands: readonly AvailableCommand[];
  readonly configOptions: readonly ConfigOption[];
  readonly usage: Usage | null;
  /** The title shown: the user's (Rename Chat) while set, else the agent's; always one line. */
  readonly title: string | null;
  /** The title the user gave, when they gave one (saved; the agent's title is `title` in the saved form). */
  readonly userTitle?: string;
  readonly updatedAt: string | null;
  /** The terminal views its tool calls show, by terminal id (src/common/store/terminalRules.ts). */
  readonly terminals: Readonly<Record<string, TerminalState>>;
  /** Turns folded away by Restore in place (foldRules.ts), oldest first; absent when none. */
  readonly folds?: readonly Fold[];
}
