/**
 * The files one chat's saved state lives in (src/common/chats/chatState.ts says what each holds), all
 * named `<id><ext>` in the chats' folder. Delete removes these, a move between folders copies these, and
 * the chats found in a folder are the ids of these: one list, so no path forgets a part.
 */
import { LOCK_EXT } from './chatLock';
import { HANDOFF_EXT } from './chatHandoff';

/**
 * Side files of older versions (terminal views, Changes summaries), whose facts the store holds now:
 * migrated into the journal when the chat is opened, then deleted (chatRestore.ts). Still listed, so a
 * chat not opened since is moved and deleted whole.
 */
export const LEGACY_TERMINALS_EXT = '.terminals.json';
export const LEGACY_CHANGES_EXT = '.changes.json';

/** The journal's snapshot, its backup and the journal itself (src/node/persistence/journal.ts names them). */
const JOURNAL_EXTS = ['.snapshot.json', '.snapshot.json.bak', '.journal.ndjson'] as const;

/** The chat's search file (src/node/history/searchFiles.ts): derived from the store, rewritten when it is missing. */
export const SEARCH_EXT = '.search.txt';

/** Every file of a chat's state (not its lock, which is the window's). */
export const CHAT_STATE_EXTS: readonly string[] = [...JOURNAL_EXTS, LEGACY_TERMINALS_EXT, LEGACY_CHANGES_EXT, SEARCH_EXT];

/** What delete removes: the state, temp files left by an interrupted write, the lock and a request to hand it over. */
export const CHAT_DELETE_EXTS: readonly string[] = [
  ...CHAT_STATE_EXTS,
  `${LEGACY_TERMINALS_EXT}.tmp`,
  `${LEGACY_CHANGES_EXT}.tmp`,
  `${SEARCH_EXT}.tmp`,
  '.snapshot.json.tmp',
  LOCK_EXT,
  HANDOFF_EXT,
];

/** The chat ids that have a transcript among these file names (a snapshot or a journal). */
export function chatIdsIn(names: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const n of names) {
    const m = /^(.+)\.(?:journal\.ndjson|snapshot\.json)$/.exec(n);
    if (m) ids.add(m[1]!);
  }
  return [...ids];
}

/** Chat ids (and the agent ids of older saves) are free text; file ids must be plain file names. */
export function fileId(chatId: string): string {
  return chatId.replace(/[^A-Za-z0-9._-]/g, '_');
}
