/**
 * History's filters over the chat list (agent, workspace folder, date, state, unread) and each chat's state
 * as history shows it. Pure: the chat index gives the records, the live chats what runs or waits now.
 */
import { historyOrder, type ChatRecord } from '../chats/chatIndex';

export const CHAT_STATES = ['running', 'needsYou', 'finished', 'failed', 'archived'] as const;
/** `idle`: no turn ended since its state was recorded (a new chat, or one from an earlier version). */
export type ChatStateName = (typeof CHAT_STATES)[number] | 'idle';

export const DATE_RANGES = ['any', 'today', 'week', 'month', 'older'] as const;
export type DateRange = (typeof DATE_RANGES)[number];

export interface HistoryFilter {
  readonly agent?: string;
  readonly folder?: string;
  readonly date?: DateRange;
  /** A state; absent: every chat not archived. */
  readonly state?: (typeof CHAT_STATES)[number];
  readonly unreadOnly?: boolean;
}

/** What a live chat is doing now (undefined for a chat not live in this window). */
export interface LiveState {
  readonly running: boolean;
  readonly needsYou: boolean;
}

export function chatState(r: ChatRecord, live: LiveState | undefined): ChatStateName {
  if (r.archived === true) return 'archived';
  if (live?.needsYou) return 'needsYou';
  if (live?.running) return 'running';
  return r.ended ?? 'idle';
}

const DAY = 86_400_000;

/** Whether `at` (epoch ms) falls in the range, seen from `now` (local midnight for "today"). */
export function inRange(at: number, range: DateRange, now: number, startOfToday: number): boolean {
  switch (range) {
    case 'any':
      return true;
    case 'today':
      return at >= startOfToday;
    case 'week':
      return at >= now - 7 * DAY;
    case 'month':
      return at >= now - 30 * DAY;
    case 'older':
      return at < now - 30 * DAY;
  }
}

/** The chats the filter keeps, in history order. */
export function filterChats(records: readonly ChatRecord[], f: HistoryFilter, live: (chatId: string) => LiveState | undefined, now: number, startOfToday: number): ChatRecord[] {
  return historyOrder(
    records.filter((r) => {
      const state = chatState(r, live(r.id));
      if (f.state === undefined ? state === 'archived' : state !== f.state) return false;
      if (f.agent !== undefined && r.agentId !== f.agent) return false;
      if (f.folder !== undefined && r.folder !== f.folder) return false;
      if (f.unreadOnly === true && r.unread !== true) return false;
      return inRange(r.updatedAt, f.date ?? 'any', now, startOfToday);
    }),
  );
}
