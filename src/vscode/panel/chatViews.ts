/**
 * What shows chats: their editor tabs (chatTabs), the side bar view, their titles (chatTitles) and
 * unseen marks (chatAttention), and opening a chat onto them (chatOpening). ChatService decides which
 * chats exist, are live and focused; this only shows them, and tells it when a chat is no longer shown.
 */
import * as vscode from 'vscode';
import { findAgent, type AgentConfig, type Settings } from '../../common/config/settings';
import type { ChatIndex } from '../../common/chats/chatIndex';
import { Disposable } from '../../common/util/lifecycle';
import type { ChatPanel } from './chatPanel';
import type { ChatController } from '../../node/chat/chatController';
import type { ChatWebview } from './chatWebview';
import { ChatAttention, attentionBadge } from '../chats/chatAttention';
import { ChatOpening } from './chatOpening';
import { ChatTabs } from './chatTabs';
import { ChatTitles } from '../../common/chats/chatTitles';
import type { LiveChats } from '../chats/liveChats';
import type { MessageTreeViews } from '../debug/messageTreeViews';
import type { ChatPersistence } from '../../node/chat/chatPersistence';
import { CHAT_SIDEBAR_VIEW, SideBarChat } from './sideBarView';
import { HistoryMarks } from '../../node/history/historyMarks';
import type { IDisposable } from '../../common/util/lifecycle';
import { ChatsElsewhere } from '../chats/chatsElsewhere';
import type { VirtualDocuments } from '../workspace/virtualDocuments';

const SIDEBAR_CHAT_KEY = 'acpChat.sideBarChat';

export interface ChatViewsHost {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly docs: VirtualDocuments;
  readonly live: LiveChats;
  readonly treeView: MessageTreeViews;
  ready(): Promise<void>;
  /** The chat index once `ready()` (undefined before). */
  index(): ChatIndex | undefined;
  persistence(): ChatPersistence;
  settings(): Settings;
  agents(): AgentConfig[];
  selectedAgentId(): string;
  focusedChatId(): string | undefined;
  focus(chatId: string): void;
  /** The focused chat (made live), else a chat of the selected agent. */
  activeChat(): Promise<ChatController>;
  /** No view shows the chat any more: it may stop. */
  unshown(chatId: string): void;
  /** See ChatOpeningHost.newChatMade (worktree chats). */
  newChatMade?(chatId: string, want: boolean | undefined, from: string | undefined): Promise<void>;
  closing(): boolean;
}

export class ChatViews extends Disposable {
  readonly sideBar: SideBarChat;
  readonly tabs: ChatTabs;
  readonly titles: ChatTitles;
  readonly attention: ChatAttention;
  readonly opening: ChatOpening;
  /** What history shows of the live chats (running, needs you) and keeps of them (how their turns ended). */
  readonly marks: HistoryMarks;
  readonly elsewhere: ChatsElsewhere;

  constructor(private readonly host: ChatViewsHost) {
    super();
    const index = () => {
      const i = host.index();
      if (!i) throw new Error('ChatService.ready() must complete before chats are used');
      return i;
    };
    this.sideBar = this.register(new SideBarChat({ extensionUri: host.context.extensionUri, log: host.log, initialChat: () => this.sideBarInitial() }));
    this.register(this.sideBar.onDidInteract((id) => host.focus(id)));
    this.register(this.sideBar.onDidChange(() => host.treeView.setChatInSideBar(this.sideBar.visible && this.sideBar.chatId !== undefined)));
    this.marks = new HistoryMarks(() => host.index());
    this.register(this.marks);
    this.titles = this.register(new ChatTitles({ index: () => host.index(), live: (id) => host.live.get(id), agentName: (id) => findAgent(host.agents(), id)?.name ?? id }));
    this.register(this.titles.onDidChange((id) => this.retitle(id)));
    this.attention = this.register(
      new ChatAttention({
        enabled: () => host.settings().notifyWhenUnseen,
        isVisible: (id) => this.viewsOf(id).some((v) => v.surface.visible),
        title: (id) => this.titles.titleOf(id),
        show: (id) => void this.opening.reveal(id),
        retitle: (id) => this.titles.refresh(id),
        unread: (id, unread) => void host.index()?.update(id, { unread }),
      }),
    );
    this.tabs = new ChatTabs({
      extensionUri: host.context.extensionUri,
      log: host.log,
      liveChat: (id) => host.live.make(id),
      live: (id) => host.live.get(id),
      title: (id) => this.decoratedTitle(id),
      plainTitle: (id) => this.titles.titleOf(id),
      focus: (id) => host.focus(id),
      seen: (id) => this.attention.seen(id),
      shown: (id, open) => {
        if (!open) this.releaseIfUnshown(id);
      },
      closing: () => host.closing(),
    });
    this.opening = new ChatOpening({
      log: host.log,
      tabs: this.tabs,
      ready: () => host.ready(),
      index,
      persistence: () => host.persistence(),
      agents: () => host.agents(),
      selectedAgentId: () => host.selectedAgentId(),
      liveSessionId: (id) => host.live.get(id)?.sessionId ?? null,
      chatIdOf: (s) => host.live.idOf(s),
      claim: (id) => host.live.claim(id),
      heldElsewhere: (id) => !host.persistence().holderOf(id).ok,
      tryClaim: (id) => host.live.tryTake(id),
      focus: (id) => host.focus(id),
      defaultColumn: () => this.focusedTab()?.panel.viewColumn ?? this.lastTab()?.panel.viewColumn,
      sideBarChat: () => this.sideBar.chatId,
      restoredElsewhere: (panel, id) => this.elsewhere.restoredTab(panel, id),
      newChatMade: (id, want, from) => host.newChatMade?.(id, want, from) ?? Promise.resolve(),
    });
    this.elsewhere = new ChatsElsewhere({
      extensionUri: host.context.extensionUri,
      log: host.log,
      docs: host.docs,
      tabs: this.tabs,
      ready: () => host.ready(),
      index,
      persistence: () => host.persistence(),
      titleOf: (id) => this.titles.titleOf(id),
      tryClaim: (id) => host.live.tryTake(id),
      open: (id) => this.opening.open({ chatId: id }),
      letGo: (id) => this.letGo(id),
    });
  }

  /** Another window took the chat over: no view here shows it any more, and this window lets go of it. */
  private letGo(chatId: string): void {
    const wasLive = this.host.live.has(chatId);
    if (this.sideBar.chatId === chatId) this.sideBar.clear();
    this.tabs.close(chatId);
    this.releaseIfUnshown(chatId);
    // Taken but never made live: no drop lets go of it, so it is released here.
    if (!wasLive) void this.host.persistence().release(chatId);
  }

  /** Follows a chat made live: its unseen mark and its history state. */
  watch(chatId: string, session: ChatController): IDisposable {
    const listen = (l: Parameters<ChatController['onDidChange']>[0]) => session.onDidChange(l);
    const a = this.attention.watch(chatId, listen);
    const m = this.marks.watch(chatId, session.cwd, listen);
    return { dispose: () => (a.dispose(), m.dispose()) };
  }

  /** The title as tabs and the tree show it: the chat's title, with the unseen mark. */
  decoratedTitle(chatId: string): string {
    return this.attention.decorate(chatId, this.titles.titleOf(chatId));
  }

  /** Every webview showing a chat (its tabs, the side bar). */
  viewsOf(chatId: string): ChatWebview[] {
    const side = this.sideBar.chatId === chatId ? this.sideBar.chatWebview : undefined;
    return [...this.tabs.tabsOf(chatId), ...(side ? [side] : [])];
  }

  /** The tab of the focused chat, if it has one. */
  focusedTab(): ChatPanel | undefined {
    const id = this.host.focusedChatId();
    return id !== undefined ? this.tabs.tabOf(id) : undefined;
  }

  /** The tab of the most recently focused chat that has one. */
  private lastTab(): ChatPanel | undefined {
    const record = this.host.index()?.lastFocused((c) => this.tabs.tabOf(c.id) !== undefined);
    return record ? this.tabs.tabOf(record.id) : undefined;
  }

  /** ACP: Show Chat in Side Bar — the given chat (default: the focused one, else a new chat) in the side bar view. */
  async showInSideBar(chatId?: string): Promise<void> {
    await this.host.ready();
    if (chatId === undefined) await this.host.activeChat(); // the focused chat, or a first one
    const id = chatId ?? this.host.focusedChatId();
    if (id === undefined || !this.host.index()?.has(id)) return;
    const previous = this.sideBar.chatId;
    this.sideBar.show(id, await this.host.live.take(id), this.titles.titleOf(id));
    void this.host.context.workspaceState.update(SIDEBAR_CHAT_KEY, id);
    if (previous !== undefined && previous !== id) this.releaseIfUnshown(previous);
    await vscode.commands.executeCommand(`${CHAT_SIDEBAR_VIEW}.focus`);
    this.host.focus(id);
  }

  /** A chat no view shows any more stops (agent, terminals); it stays in history and restarts when reopened. */
  releaseIfUnshown(chatId: string): void {
    if (this.tabs.tabOf(chatId) || this.sideBar.chatId === chatId) return;
    this.host.unshown(chatId);
  }

  /** A chat's title reached every view that shows it: its tabs, the side bar view, the tree's description. */
  private retitle(chatId: string): void {
    const title = this.decoratedTitle(chatId);
    this.tabs.retitle(chatId);
    if (this.sideBar.chatId === chatId) this.sideBar.retitle(title);
    if (this.host.focusedChatId() === chatId) this.host.treeView.description = title;
    this.sideBar.badge = attentionBadge(this.attention.count(this.sideBar.chatId), 'updates');
    this.host.treeView.badge = attentionBadge(this.attention.waitingChats, this.attention.waitingChats === 1 ? 'chat' : 'chats');
  }

  private async sideBarInitial(): Promise<{ chatId: string; model: ChatController; title: string } | undefined> {
    await this.host.ready();
    const index = this.host.index();
    const saved = this.host.context.workspaceState.get<string>(SIDEBAR_CHAT_KEY);
    const id = (saved !== undefined && index?.has(saved) ? saved : undefined) ?? this.host.focusedChatId() ?? index?.history()[0]?.id;
    if (id === undefined) return undefined;
    // Another window has it: the side bar stays empty here rather than showing a chat it cannot write.
    if (!(await this.host.live.tryTake(id))) return undefined;
    return { chatId: id, model: this.host.live.make(id), title: this.titles.titleOf(id) };
  }
}
