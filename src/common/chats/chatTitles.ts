/**
 * A chat's title has one owner: the chat's store, where the agent's `session_info_update` (also the one
 * that answers Rename Chat's `session/set_title`) sets the attached session's title. Everything that
 * names a chat derives it here, through `titleOf`: its tabs, the side bar view, the tree's description,
 * the chat list (Open Session…, Delete Chat…, Choose Chat for Side Bar…) and notifications. When the
 * store's title changes, `onDidChange` is the one path to every view that shows it.
 *
 * The chat index keeps a copy (`ChatRecord.title`) only as a cache of the store for chats whose store is
 * not loaded; this unit is its one writer.
 */
import { chatTitle, type ChatIndex } from './chatIndex';
import type { PanelDelta } from '../webview/panelDeltas';
import { Emitter, type Event, type IDisposable } from '../util/lifecycle';

/** What a title is read from: a live chat's store (its attached session's state). */
export interface TitledChat {
  current(): { readonly title: string | null } | undefined;
  readonly onDidChange: Event<readonly PanelDelta[]>;
}

export interface ChatTitlesHost {
  index(): ChatIndex | undefined;
  live(chatId: string): TitledChat | undefined;
  agentName(agentId: string): string;
}

export class ChatTitles implements IDisposable {
  private readonly changed = new Emitter<string>();
  /** A chat's title changed (its store's, or the chat's number in the list): every view showing it follows. */
  readonly onDidChange: Event<string> = this.changed.event;

  constructor(private readonly host: ChatTitlesHost) {}

  /** A chat's display title: its store's session title, else "Chat N · agent", made safe for labels. */
  titleOf(chatId: string): string {
    const index = this.host.index();
    const record = index?.get(chatId);
    if (!record) return 'ACP Chat';
    const session = this.host.live(chatId)?.current();
    const title = session ? session.title : record.title;
    return chatTitle({ title }, this.host.agentName(record.agentId), index?.ordinal(chatId) ?? 1);
  }

  /** Follows a live chat's store: its title is cached in the index and shown wherever the chat is named. */
  watch(chatId: string, chat: TitledChat): IDisposable {
    this.sync(chatId, chat);
    return chat.onDidChange((changes) => {
      if (changes.some((c) => c.type === 'reset' || (c.type === 'panel' && 'title' in c.fields))) this.sync(chatId, chat);
    });
  }

  /** Every view showing a chat's title takes it again (e.g. its unseen mark changed, or it was deleted). */
  refresh(chatId: string): void {
    this.changed.fire(chatId);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private sync(chatId: string, chat: TitledChat): void {
    const session = chat.current();
    // Before the chat's session is known its store says nothing about the title: the cache stands.
    if (session) this.host.index()?.cacheTitle(chatId, session.title);
    this.changed.fire(chatId);
  }
}
