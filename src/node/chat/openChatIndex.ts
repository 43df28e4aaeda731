/** The chat list of a workspace's saved chats, as a window opens it (ChatService.ready). */
import { ChatIndex, isChatId } from '../../common/chats/chatIndex';
import type { ChatPersistence } from './chatPersistence';

/** The saved list, with the chats of older saves added; written back on every change. `focused`: the focus moved. */
export function openChatIndex(p: ChatPersistence, focused: () => void): ChatIndex {
  const index = new ChatIndex(p.chatList());
  // Stores saved before several chats existed are keyed by agent id: each becomes a chat of that agent (a chat id missing from the list names no agent: left alone).
  for (const id of p.savedIds()) if (!index.has(id) && !isChatId(id)) index.create(id, 0, Math.random, id);
  index.onDidChange(() => p.writeIndex(index.toJSON()));
  index.onDidChangeFocus(focused);
  return index;
}
