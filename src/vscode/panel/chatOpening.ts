/**
 * Opening a chat: which chat "open" means (chatToOpen in the chat index), where it is shown (its tab,
 * a restored tab not handed over yet, the side bar view, else a new tab), a fork's new chat, and a tab
 * VS Code restored after a reload. ChatService decides which chats are live and focused; this only
 * puts a chat on screen through the tabs (chatTabs.ts), which own which tab shows which chat.
 */
import * as vscode from 'vscode';
import { findAgent, type AgentConfig } from '../../common/config/settings';
import { chatToOpen, type ChatIndex, type ChatRecord } from '../../common/chats/chatIndex';
import { forkChatState, openedSessionState, type ChatState } from '../../common/chats/chatState';
import type { ChatPanel } from './chatPanel';
import type { ChatController } from '../../node/chat/chatController';
import type { ChatTabs } from './chatTabs';
import type { ChatPersistence } from '../../node/chat/chatPersistence';
import { CHAT_SIDEBAR_VIEW } from './sideBarView';
import { restoredTabFate } from '../../common/chats/chatOwnership';

export interface OpenChatOptions {
  /** A chat from the chat index (reopened into a tab if closed). */
  readonly chatId?: string;
  /** With `newChat` (or when no chat exists yet): the agent of the new chat; default: the selected agent. */
  readonly agentId?: string;
  /** Always start another chat instead of revealing one. */
  readonly newChat?: boolean;
  /**
   * An agent session to show (with `agentId`, default: the selected agent): the chat already showing it,
   * else a new chat that attaches it (session/load replays its history; resume when it cannot load).
   * For sessions from the agent's `session/list` or a `session/fork` result.
   */
  readonly sessionId?: string;
  readonly viewColumn?: vscode.ViewColumn;
  /** Reveal without moving keyboard focus into the chat. */
  readonly preserveFocus?: boolean;
  /** A new chat in a git worktree of its own (true), in the workspace (false), or as `acpChat.newChatWorktree` says. */
  readonly worktree?: boolean;
  /** A new chat that continues this chat (an Edit & Rerun branch): a worktree it gets is made from that chat's. */
  readonly from?: string;
}

/** What opening a chat needs from the chat service (which owns the chats, their sessions and the focus). */
export interface ChatOpeningHost {
  readonly log: vscode.LogOutputChannel;
  readonly tabs: ChatTabs;
  ready(): Promise<void>;
  index(): ChatIndex;
  persistence(): ChatPersistence;
  agents(): AgentConfig[];
  selectedAgentId(): string;
  /** The session a live chat shows now (null: not live, or no session yet). */
  liveSessionId(chatId: string): string | null;
  chatIdOf(session: ChatController): string | undefined;
  /** Takes a chat for this window (refused, with a message, when another window has it). */
  claim(chatId: string): Promise<void>;
  /** Whether another live window has a chat now (nothing is taken). */
  heldElsewhere(chatId: string): boolean;
  /** Takes a chat for this window if no other window has it; false, silently, when one has. */
  tryClaim(chatId: string): Promise<boolean>;
  focus(chatId: string): void;
  /** The group a new chat tab opens in by default: the focused chat's tab's, else the last used tab's. */
  defaultColumn(): vscode.ViewColumn | undefined;
  /** The chat the side bar view shows. */
  sideBarChat(): string | undefined;
  /** A restored tab of a chat another window has (chatsElsewhere.ts). */
  restoredElsewhere(webviewPanel: vscode.WebviewPanel, chatId: string): void;
  /** A new chat's record exists and nothing runs yet: it may get a worktree (`want`, else the setting; `from`: a fork's source chat). */
  newChatMade?(chatId: string, want: boolean | undefined, from: string | undefined): Promise<void>;
}

export class ChatOpening {
  constructor(private readonly host: ChatOpeningHost) {}

  /**
   * Opens a chat in an editor tab, or reveals it. Without options: the focused chat (the tab or side bar
   * view used last, reopened into a tab if it was closed), else the selected agent's latest chat, else a
   * new chat.
   */
  async open(options: OpenChatOptions = {}): Promise<ChatPanel> {
    const h = this.host;
    await h.ready();
    const r = h.index();
    const agentId = options.agentId ?? h.selectedAgentId();
    const target = chatToOpen(r, options, agentId, (id) => h.liveSessionId(id));
    if (target.kind === 'missing') throw new Error(`no chat ${options.chatId ?? ''}`);
    if (target.kind === 'new' && !findAgent(h.agents(), agentId)) throw new Error(`no agent with id '${agentId}'`);
    // A chat on a chosen session starts attached to it in its own store (its connection then loads it).
    const record = target.kind === 'existing' ? target.record : this.create(agentId, target.sessionId !== undefined ? openedSessionState(target.sessionId) : undefined);
    if (target.kind === 'new') await h.newChatMade?.(record.id, options.worktree, options.from);
    const preserveFocus = options.preserveFocus ?? false;
    const existing = await h.tabs.reveal(record.id, options.viewColumn, preserveFocus);
    if (existing) return existing;
    // A chat another window has is refused before any tab opens; otherwise the tab goes to the workbench
    // while the chat's saved state is read (tens of ms for a short chat), so its page paints meanwhile.
    if (h.heldElsewhere(record.id)) await h.claim(record.id);
    // Another call may have opened its tab while this one waited: a chat has one tab.
    const opened = h.tabs.tabOf(record.id);
    if (opened) {
      opened.panel.reveal(options.viewColumn, preserveFocus);
      return opened;
    }
    return h.tabs.create(record.id, options.viewColumn ?? h.defaultColumn() ?? vscode.ViewColumn.Beside, preserveFocus, h.claim(record.id));
  }

  /**
   * Fork Chat Here: a new chat (same agent) showing the fork `source` just made. Its store starts as the
   * fork's session in the source's store (the shared history the store copied when session/fork
   * answered, same keys, its title included), saved at once; its own agent then reattaches the fork
   * (resume or load).
   */
  async openFork(source: ChatController, forkSessionId: string): Promise<ChatPanel> {
    await this.host.ready();
    const persistence = this.host.persistence();
    const sourceId = this.host.chatIdOf(source);
    const state = (sourceId !== undefined ? persistence.state(sourceId) : undefined) ?? { store: source.store };
    const fork = forkChatState(state, source.sessionId ?? forkSessionId, forkSessionId);
    const record = this.create(source.agent.id, fork);
    await this.host.newChatMade?.(record.id, undefined, sourceId);
    return this.open({ chatId: record.id });
  }

  /**
   * The one place a chat's record is made (every new chat of every command comes here): a chat of
   * `agentId`, nothing running yet. Given `state` (a chat on a chosen session, a fork), its saved state
   * starts as that, attached to its session, which the chat list then caches from it.
   */
  create(agentId: string, state?: ChatState): ChatRecord {
    const index = this.host.index();
    const record = index.create(agentId, Date.now());
    if (!state) return record;
    this.host.persistence().seed(record.id, state);
    return index.cacheSession(record.id, state.store.attachedSessionId()) ?? record;
  }

  /** Shows a chat where it is: its tab, else the side bar view showing it, else a new tab. */
  async reveal(chatId: string): Promise<void> {
    if (!this.host.tabs.tabOf(chatId) && this.host.sideBarChat() === chatId) {
      await vscode.commands.executeCommand(`${CHAT_SIDEBAR_VIEW}.focus`);
      this.host.focus(chatId);
      return;
    }
    await this.open({ chatId });
  }

  /**
   * Shows a chat without covering the editor in group `keep` (Add Selection to Chat): a tab of the chat
   * in another group is revealed there; when its only tabs share the editor's group, it gets another
   * tab beside (a split, so no webview is moved), else it is shown where it is.
   */
  async revealBeside(chatId: string, keep: vscode.ViewColumn | undefined): Promise<void> {
    const tabs = this.host.tabs.tabsOf(chatId);
    if (keep === undefined || tabs.length === 0) return this.reveal(chatId);
    const elsewhere = tabs.find((t) => t.panel.viewColumn !== keep);
    if (elsewhere) {
      elsewhere.panel.reveal(elsewhere.panel.viewColumn, false);
      this.host.focus(chatId);
      elsewhere.post({ type: 'focusPrompt' });
      return;
    }
    this.host.tabs.openSplit(chatId, vscode.ViewColumn.Beside);
  }

  /**
   * A tab VS Code restored after a reload (the serializer; `chatId` from the webview's saved state, the
   * one owner of which tab shows which chat): it shows that chat, where it was (another tab of it when
   * it has one already: the restored tab was a split). When the chat is deleted the restored tab closes;
   * when another window has it the tab stays, empty, saying so (never some other chat). A tab saved without a chat id
   * (older versions) gets the last focused chat without a tab, else a new chat.
   */
  async restore(webviewPanel: vscode.WebviewPanel, chatId: string | undefined): Promise<ChatPanel | undefined> {
    const h = this.host;
    await h.ready();
    const r = h.index();
    const id = chatId ?? r.lastFocused((c) => !h.tabs.tabOf(c.id) && c.agentId === h.selectedAgentId())?.id ?? this.create(h.selectedAgentId()).id;
    switch (restoredTabFate(r.has(id), r.has(id) && (await h.tryClaim(id)))) {
      case 'show':
        return h.tabs.restored(webviewPanel, id);
      case 'close':
        h.log.info(`a restored tab of chat ${id} was closed: it was deleted`);
        webviewPanel.dispose();
        return undefined;
      case 'elsewhere':
        // A second window restored this one's layout: the tab stays, so this window's layout (saved for the
        // workspace) keeps it, and the first window gets all its tabs back after a reload.
        h.restoredElsewhere(webviewPanel, id);
        return undefined;
    }
  }
}
