/**
 * Following the chat list other windows of the workspace write (`chats.json`): a window reads the list
 * when it opens, and each later write by another window is read again (the chats folder's watcher,
 * src/node/persistence/indexWatch.ts) and taken in here. Without it a second window kept the list it
 * started with: a chat made in the first window just before was named by its number ("Chat 9 · …") for
 * good, and chats made, renamed, archived or deleted there later were not seen.
 *
 * The rules, per chat:
 * - a chat only the file has is another window's new chat: taken;
 * - a chat this window holds (live here, its lock) is this window's to write: its record here stands;
 * - a chat both have: the file's record, unless this window used the chat later (its own write carries it);
 * - a chat only this window has, and does not hold: another window deleted it, so it goes here too.
 * A list that is missing or not wholly readable changes nothing (a damaged file must not empty the list).
 */
import { parseChatIndex, type ChatIndex, type ChatRecord } from './chatIndex';

export interface FollowedChats {
  /** Records to take (new here, or changed elsewhere). */
  readonly set: readonly ChatRecord[];
  /** Chats another window deleted. */
  readonly removed: readonly string[];
}

const NOTHING: FollowedChats = { set: [], removed: [] };

/** Takes into `index` what another window wrote (`theirs`, the file as read); returns the ids of the chats that changed. */
export function followInto(index: ChatIndex, theirs: unknown, holds: (chatId: string) => boolean): readonly string[] {
  return index.takeFollowed(followChatList(new Map(index.toJSON().chats.map((c) => [c.id, c])), theirs, holds));
}

/** What this window takes from the list another window wrote (`theirs`, the file as read). */
export function followChatList(mine: ReadonlyMap<string, ChatRecord>, theirs: unknown, holds: (chatId: string) => boolean): FollowedChats {
  if (theirs === undefined || theirs === null) return NOTHING;
  let unreadable = false;
  const other = parseChatIndex(theirs, () => (unreadable = true));
  if (unreadable) return NOTHING;
  const set: ChatRecord[] = [];
  const listed = new Set<string>();
  for (const r of other.chats) {
    listed.add(r.id);
    const m = mine.get(r.id);
    if (!m) set.push(r);
    else if (!holds(r.id) && m.updatedAt <= r.updatedAt && !sameRecord(m, r)) set.push(r);
  }
  const removed = [...mine.keys()].filter((id) => !listed.has(id) && !holds(id));
  return set.length === 0 && removed.length === 0 ? NOTHING : { set, removed };
}

/** Field by field (the file's records and this window's may spell their keys in another order). */
function sameRecord(a: ChatRecord, b: ChatRecord): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof ChatRecord)[]);
  for (const k of keys) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  return true;
}
