/**
 * What the traffic means for one session, after parsing: the reducer's input. `MessageStore` turns
 * JSON-RPC messages into these; `Session.apply` switches over them exhaustively.
 */
import type { ContentBlock } from '../protocol/content';
import type { ChunkKind, SessionUpdate, ToolCallPatch } from '../protocol/updates';
import type { TerminalOutput } from './terminalRules';
import type { SessionSetup } from './sessionSetup';
import type { RewoundAction } from './foldRules';
import type { ConfigOption, ElicitationEntry, Entry, SessionMode } from './model';

/** Consecutive text chunks of the open message, joined (chunkRun.ts); `lines` has each chunk's line. */
export type ChunkRunAction = { readonly kind: 'chunk_run'; readonly chunkKind: ChunkKind; readonly text: string; readonly lines: readonly (number | undefined)[] };

export type Action =
  | SessionUpdate
  | ChunkRunAction
  /** Client->agent `session/prompt`: the user's prompt, shown at once. */
  | { readonly kind: 'local_prompt'; readonly content: readonly ContentBlock[] }
  /** The `session/prompt` response (`messageId` is v2's id of the accepted user message). */
  | { readonly kind: 'prompt_answered'; readonly localKey: string | null; readonly messageId: string | null }
  /** Agent->client `session/request_permission`'s `toolCall`: a patch. */
  | { readonly kind: 'permission_tool_call'; readonly patch: ToolCallPatch }
  /** The client answered a permission request about this tool call with a reject option. */
  | { readonly kind: 'permission_rejected'; readonly toolCallId: string }
  /** Agent->client `elicitation/create` for this session: a new entry, last in the session. */
  | { readonly kind: 'elicitation_asked'; readonly ask: Omit<ElicitationEntry, 'kind' | 'key' | 'status' | 'answer' | 'completed' | 'provenance' | 'stats'> }
  /** The client's answer to it (`action`, or `error` for an error response). */
  | { readonly kind: 'elicitation_answered'; readonly key: string; readonly status: string; readonly answer: Readonly<Record<string, unknown>> | null }
  /** Agent->client `elicitation/complete`. */
  | { readonly kind: 'elicitation_completed'; readonly elicitationId: string }
  /** Client->agent `session/cancel`. */
  | { readonly kind: 'cancel' }
  /** The title the user gave the chat (Rename Chat; null: cleared): it wins over the agent's. */
  | { readonly kind: 'user_title'; readonly title: string | null }
  /** Client->agent `session/load`: the replay window opens. */
  | { readonly kind: 'load_started' }
  /** The `session/load` response (success or error): the replay window closes. */
  | { readonly kind: 'load_ended' }
  /** `modes` / `configOptions` of a session/new, load or resume result, or a set_config_option result. */
  | {
      readonly kind: 'session_result';
      readonly modes: { readonly currentModeId: string; readonly availableModes: readonly SessionMode[] } | null;
      readonly configOptions: readonly ConfigOption[] | null;
    }
  /** A successful `session/set_mode`. */
  | { readonly kind: 'mode_set'; readonly modeId: string }
  /** The `session/fork` response for this (new) session: the source's entries, the history both share. */
  | { readonly kind: 'forked'; readonly entries: readonly Entry[] }
  /** Terminal output and exit: a client event (v1, a terminal we run) or a v2 terminal update (the agent's). */
  | ({ readonly kind: 'terminal_output' } & TerminalOutput)
  /** The agent accepted our session/new, load, resume or fork: what we opened it with (sessionSetup.ts). */
  | { readonly kind: 'session_setup'; readonly setup: SessionSetup }
  /** Restore in place: the turns from a message on, folded into the session that goes on (foldRules.ts). */
  | RewoundAction;
