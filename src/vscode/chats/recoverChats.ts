/**
 * The window's chat list kept in step with its folder: what other windows write is followed
 * (chatIndexFollow.ts), and saved chats the chat list lacks (it was lost, damaged, or written by a window that crashed) are rebuilt
 * from their search files after the window's first chat is shown, not before: reading a thousand files'
 * headers must not delay the chat the user is waiting for. A window that shows no chat rebuilds them
 * RECOVER_WAIT_MS after its chats opened. The rebuilt chats join the list as a followed change (the
 * history view and Open Session… show them; FilePersistence.recoverMissing saved them).
 */
import type * as vscode from 'vscode';
import type { ChatIndex } from '../../common/chats/chatIndex';
import { followInto } from '../../common/chats/chatIndexFollow';
import type { IDisposable } from '../../common/util/lifecycle';
import { errorText } from '../../common/util/errors';
import type { ChatPersistence } from '../../node/chat/chatPersistence';
import { firstChatShown } from '../panel/chatWebview';

/** How long a window that shows no chat waits before rebuilding the missing ones. */
const RECOVER_WAIT_MS = 3000;

/**
 * Follows the list other windows write, and rebuilds missing chats after the first paint. A chat live here
 * keeps this window's record; `titles` hears of every chat whose record changed.
 */
export function keepChatListInStep(
  p: ChatPersistence,
  index: ChatIndex,
  log: vscode.LogOutputChannel,
  live: { get(chatId: string): unknown },
  titles: { refresh(chatId: string): void },
): IDisposable {
  const changed = (id: string) => titles.refresh(id);
  const following = p.watchIndex((raw) => followInto(index, raw, (id) => live.get(id) !== undefined).forEach(changed));
  const recovering = recoverAfterFirstPaint(p, index, log, changed);
  return { dispose: () => (following.dispose(), recovering.dispose()) };
}

function recoverAfterFirstPaint(p: ChatPersistence, index: ChatIndex, log: vscode.LogOutputChannel, changed: (chatId: string) => void): IDisposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, RECOVER_WAIT_MS)));
  void Promise.race([firstChatShown(), waited])
    .then(() => (disposed ? [] : p.recoverMissing()))
    .then(
      (chats) => {
        clearTimeout(timer);
        if (!disposed && chats.length > 0) index.takeFollowed({ set: chats, removed: [] }).forEach(changed);
      },
      (e: unknown) => log.warn(`could not rebuild the chats missing from the chat list: ${errorText(e)}`),
    );
  return {
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
