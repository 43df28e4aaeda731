/**
 * The shape of the message store's state. Everything here is plain JSON so a state can be saved,
 * restored, posted to the webview and printed by `cli reduce` without conversion.
 *
 * Entries are immutable values: an update replaces the entry object, so "did this entry change?"
 * is a reference comparison. A session's entry list is append-only and owned by the store.
 */
import type { ContentBlock, Meta, ToolCallContent, ToolCallLocation } from '../protocol/content';

/** Where an entry came from (`fork`: copied from the source session when `session/fork` answered). */
export type Provenance = 'local' | 'live' | 'replay' | 'fork';

/** Per-entry counters for the debug tree. Times are epoch milliseconds supplied by the caller. */
export interface EntryStats {
  /** `*_chunk` updates (and tool-call content chunks) applied to this entry. */
  readonly chunks: number;
  /** Whole-entry updates: v2 message upserts, `tool_call`, `tool_call_update`, permission `toolCall`s. */
  readonly upserts: number;
  /** UTF-8 bytes of text this entry received. */
  readonly bytes: number;
  readonly firstSeen: number;
  readonly lastSeen: number;
  /** Capture line numbers (1-based) that built this entry, run-length encoded as [first, last] pairs. */
  readonly lines: readonly (readonly [number, number])[];
}

export type MessageKind = 'user_message' | 'agent_message' | 'agent_thought';

export interface MessageEntry {
  readonly kind: MessageKind;
  /** The store's durable key: assigned once at the append point, never sent to the agent. */
  readonly key: string;
  /** The agent's id for this message, or null when the agent gave none (yet). */
  readonly messageId: string | null;
  readonly content: readonly ContentBlock[];
  readonly meta: Meta | null;
  readonly provenance: Provenance;
  readonly stats: EntryStats;
}

export interface ToolCallEntry {
  readonly kind: 'tool_call';
  readonly key: string;
  readonly toolCallId: string;
  readonly title: string;
  /** Programmatic tool name (`name` in the schema), when the agent sends one. */
  readonly name: string | null;
  /** The tool's ACP `kind` (`read`, `edit`, ...); `toolKind` so it does not clash with the entry `kind`. */
  readonly toolKind: string;
  readonly status: string;
  readonly content: readonly ToolCallContent[];
  readonly locations: readonly ToolCallLocation[];
  readonly rawInput: unknown;
  readonly rawOutput: unknown;
  readonly meta: Meta | null;
  /** Key of the message this tool call belongs to (its `messageId`, or the agent message it followed). */
  readonly parentKey: string | null;
  /** Every status the tool call went through, with the time it was first seen in that status. */
  readonly statusHistory: readonly { readonly status: string; readonly at: number }[];
  readonly provenance: Provenance;
  readonly stats: EntryStats;
}

/**
 * An agent's question (`elicitation/create` scoped to this session): what was asked and, once the client
 * answered, the answer. It is built from the wire like every entry, so the transcript keeps it.
 */
export interface ElicitationEntry {
  readonly kind: 'elicitation';
  readonly key: string;
  /** The agent's JSON-RPC request id (pairs the entry with the client's live prompt for it). */
  readonly requestId: string | number;
  /** `form`, `url`, or a future mode (shown as not supported). */
  readonly mode: string;
  readonly message: string;
  /** The tool call it belongs to, when the agent named one. */
  readonly toolCallId: string | null;
  /** Form mode: the schema as the agent sent it (read by `elicitation/form.ts`). */
  readonly requestedSchema: unknown;
  /** URL mode: the id `elicitation/complete` names, and the URL. */
  readonly elicitationId: string | null;
  readonly url: string | null;
  /** `pending` until answered, then the client's action (`accept`, `decline`, `cancel`), or `error`. */
  readonly status: string;
  /** Accepted form content as sent. */
  readonly answer: Readonly<Record<string, unknown>> | null;
  /** URL mode: the agent sent `elicitation/complete`. */
  readonly completed: boolean;
  readonly provenance: Provenance;
  readonly stats: EntryStats;
}

export type Entry = MessageEntry | ToolCallEntry | ElicitationEntry;
export type EntryKind = Entry['kind'];

export interface PlanEntry {
  readonly content: string;
  readonly priority: string;
  readonly status: string;
  readonly _meta?: Meta;
}

export interface AvailableCommand {
  readonly name: string;
  readonly description: string;
  readonly input?: { readonly hint: string } | null;
  readonly _meta?: Meta;
}

export interface SessionMode {
  readonly id: string;
  readonly name: string;
  readonly description?: string | null;
}

/** A session config option as the agent sent it (select or boolean; unknown types are kept and ignored by the UI). */
export type ConfigOption = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly name: string;
  readonly type: string;
};

export interface Usage {
  readonly used: number;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string } | null;
}

export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** 1-based capture line, when the input came from a capture. */
  readonly line?: number;
  readonly sessionId?: string;
}

export interface SessionState {
  readonly sessionId: string;
  /** The wire protocol version negotiated for the connection that fed this session. */
  readonly protocolVersion: number;
  readonly entries: readonly Entry[];
  readonly plan: readonly PlanEntry[] | null;
  readonly currentModeId: string | null;
  readonly availableModes: readonly SessionMode[];
  readonly availableCommands: readonly AvailableCommand[];
  readonly configOptions: readonly ConfigOption[];
  readonly usage: Usage | null;
  readonly title: string | null;
  readonly updatedAt: string | null;
  /** The terminal views its tool calls show, by terminal id (src/common/store/terminalRules.ts). */
  readonly terminals: Readonly<Record<string, TerminalState>>;
}

/** A terminal's bounded output tail and exit; `owner`: `client` (v1, we run it) or `agent` (v2). */
export interface TerminalState {
  readonly output: string;
  readonly exited: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly owner: 'client' | 'agent';
}
