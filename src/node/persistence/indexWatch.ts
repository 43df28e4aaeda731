/**
 * The chats folder's watcher for the chat list (`chats.json`): other windows of the workspace write it
 * (temp file + rename), and each window follows it (src/common/chats/chatIndexFollow.ts). A folder watch,
 * not a file watch: the rename replaces the file, which a file watch loses. Writes come in bursts (a
 * streaming chat's title and times), so one read follows the last event of a burst.
 */
import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorText } from '../../common/util/errors';
import type { IDisposable } from '../../common/util/lifecycle';
import { INDEX_FILE } from './chatHome';

/** How long after the last change of a burst the list is read again. */
const INDEX_FOLLOW_DELAY_MS = 150;

/** Calls `onChange` once the chat list in `dir` has settled after a change; until disposed. */
function watchIndexFile(dir: string, onChange: () => void, log: (message: string) => void, delayMs = INDEX_FOLLOW_DELAY_MS): IDisposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined;
  try {
    // A workspace with no chat yet has no chats folder, and a folder that is not there cannot be watched:
    // without it, a window opened first followed no other window for good (found by the host test).
    mkdirSync(dir, { recursive: true });
    // The folder's other files (journals, locks, search files) change too; a platform that names no file
    // (filename null) may mean the list.
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      if (name !== null && name !== INDEX_FILE) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, delayMs);
    });
    watcher.on('error', (e) => {
      log(`the chat list is no longer followed: ${errorText(e)}`);
      watcher?.close();
    });
  } catch (e) {
    log(`the chat list is not followed (other windows' chats show after a reload): ${errorText(e)}`);
  }
  return {
    dispose: () => {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

/** This window's own writes of the list, as FilePersistence keeps them. */
export interface IndexMine {
  /** How many writes it queued: a read that a later write overtook is stale. */
  queued: number;
  /**
   * The list's text as it last followed it: the same text is not taken twice. Its own writes are read back
   * too: a write merges in what other windows wrote meanwhile, which this window has yet to take.
   */
  text: string | undefined;
}

/**
 * Follows the chat list in `dir`: `onIndex` gets each new content another window wrote (parsed JSON; a
 * damaged file is skipped, and this window's next write mends it).
 */
export function followIndexFile(dir: string, own: { settled: () => Promise<void>; mine: IndexMine }, onIndex: (raw: unknown) => void, log: (message: string) => void): IDisposable {
  const read = async (): Promise<void> => {
    // This window's writes land first, those queued while waiting too: a list read while one of them is still
    // on its way lacks the chat it adds, and following it deleted that chat here (a new chat waiting for its
    // worktree, not yet live: found by the host suite). A write queued during the read itself makes it stale
    // (that write's own event follows).
    let queued: number;
    do {
      queued = own.mine.queued;
      await own.settled();
    } while (queued !== own.mine.queued);
    const text = await readFile(path.join(dir, INDEX_FILE), 'utf8').catch(() => undefined);
    if (queued !== own.mine.queued || text === undefined || text === own.mine.text) return;
    own.mine.text = text;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    onIndex(raw);
  };
  return watchIndexFile(dir, () => void read().catch((e: unknown) => log(`following the chat list failed: ${errorText(e)}`)), log);
}
