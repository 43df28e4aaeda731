/**
 * The history view's host↔webview contract (the side bar's "History": search across every chat, filters,
 * bulk actions), used by both sides. Messages from the webview are checked with `zHistoryToHost`
 * (historyMessages.ts, host side only, so zod stays out of the webview bundle); messages to it are ours.
 * Every string that came from an agent (titles, snippets) is shown as text, never as HTML.
 */
import type { ChatStateName, HistoryFilter } from './historyFilter';
import type { SearchKind } from './searchLines';
import type { AgentSessionsRow } from './agentSessions';

/** One chat in the list. */
export interface HistoryRow {
  readonly chatId: string;
  readonly title: string;
  readonly agent: string;
  readonly folder: string | null;
  readonly updatedAt: number;
  readonly state: ChatStateName;
  readonly unread: boolean;
}

/** One match inside a chat: where it is (`key`: the entry to open at) and its text around the match. */
interface HistoryHit {
  readonly key: string;
  readonly kind: SearchKind;
  readonly snippet: string;
  /** Where the match starts in `snippet`, and how long it is (for the highlight). */
  readonly start: number;
  readonly length: number;
}

export interface HistoryGroup {
  readonly row: HistoryRow;
  /** The title holds the query. */
  readonly inTitle: boolean;
  readonly hits: readonly HistoryHit[];
}

export interface HistoryChoices {
  readonly agents: readonly { readonly id: string; readonly name: string }[];
  readonly folders: readonly string[];
}

export type HostToHistory =
  /** The chats the filter keeps (no query): `rows` are rows `from`… of `total` (from 0: the list starts afresh). */
  | { readonly type: 'list'; readonly seq: number; readonly from: number; readonly rows: readonly HistoryRow[]; readonly total: number; readonly choices: HistoryChoices }
  /** Search results of query `seq`: groups to add (a group for a chat already shown replaces it); `done` when the search ended. */
  | { readonly type: 'results'; readonly seq: number; readonly groups: readonly HistoryGroup[]; readonly done: boolean; readonly choices: HistoryChoices; readonly note?: string }
  /** A line for the status area (what a bulk action did, or why it did not). */
  | { readonly type: 'notice'; readonly text: string }
  /** The agents' own sessions: every agent's row as its listing goes (`done`: every agent answered); `note` instead of rows when none can be listed. */
  | { readonly type: 'agentSessions'; readonly rows: readonly AgentSessionsRow[]; readonly done: boolean; readonly note?: string };

export type BulkAction = 'archive' | 'unarchive' | 'delete' | 'export' | 'markRead';

export type HistoryToHost =
  | { readonly type: 'ready' }
  /** The query (empty: the list) and filter changed; `seq` numbers it, answers carry it. */
  | { readonly type: 'query'; readonly seq: number; readonly text: string; readonly filter: HistoryFilter }
  /** Open a chat, at an entry when `key` is given. */
  | { readonly type: 'open'; readonly chatId: string; readonly key?: string }
  /** A bulk action on these chats, or (`all`) on every chat the current query and filter match. */
  | { readonly type: 'bulk'; readonly action: BulkAction; readonly chatIds: readonly string[]; readonly all: boolean }
  /** Load more of the list (it grows as the user scrolls). */
  | { readonly type: 'more'; readonly seq: number; readonly shown: number }
  /** List every agent's own sessions (the user opened the "Agent sessions" section or asked again). */
  | { readonly type: 'listAgentSessions' }
  /** Open an agent's session as a chat. */
  | { readonly type: 'openAgentSession'; readonly agentId: string; readonly sessionId: string };
