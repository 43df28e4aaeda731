/**
 * ChatService: owns every chat (src/common/chats/registry.ts lists them; each live one is a ChatController
 * with its own agent process, store, journal, capture and terminals), the editor tabs and the side bar
 * view that show them, which chat is focused (the tree, the protocol log and the capability view follow
 * it), and what they share (settings, log, storage). Commands call into it.
 *
 * It is longer than our ~400-line guideline on purpose: it is the one owner of which chats are live,
 * shown (tabs, side bar) and focused, and those three change together; what has no say over them lives
 * elsewhere: the chat list and its rules (common/chats/registry), building a chat (chatFactory), the side
 * bar view (sideBarView), history and delete UI (chatHistory, forgetSessions), captures (captureViews),
 * the status bar and agent picker (chatChrome).
 *
 * Internal API for other features: `openChat({ chatId?, agentId?, newChat?, viewColumn? })`,
 * `openChat({ agentId, sessionId })` (a listed or forked session in its own chat), `revealChat(id)`,
 * `revealChatBeside(id, editorColumn)`, `openSplit(id, column)` (another tab of a chat), `tabsOf(id)`,
 * `focusedChat` / `focusedChatId` / `onDidChangeFocusedChat`, `chat(id)`, `chatIdOf(session)`, `chatRecords()`,
 * `titleOf(id)`, `setChatTitle(id, title)`, `closeChat(id)`, `deleteChat(id)`, `showInSideBar(id?)`.
 */
import * as vscode from 'vscode';
import path from 'node:path';
import { allAgents, demoAgent, findAgent, type AgentConfig, type Settings } from '../common/config/settings';
import { createChatStatus, pickAgent, readSettings } from './chatChrome';
import { ChatRegistry, chatTitle, chatToOpen, isChatId, parseChatIndex, type ChatOrigin, type ChatRecord } from '../common/chats/registry';
import { Disposable, Emitter, type Event } from '../common/util/lifecycle';
import { noticeText } from '../common/untrusted';
import { spawnAgent, type ConnectAgent } from '../node/acp/agentLink';
import { ChatPanel, CHAT_VIEW_TYPE } from './chatPanel';
import type { ChatWebview } from './chatWebview';
import { ChatController } from '../node/chat/chatController';
import { changesKey, createChatController, earlierKey } from './chatFactory';
import { VirtualDocuments } from './virtualDocuments';
import { FileAccess } from './fsHandlers';
import { MessageTreeProvider } from './messageTree';
import { MessageTreeViews } from './messageTreeViews';
import { findWorkspaceFiles } from './promptBuilder';
import { CHAT_SIDEBAR_VIEW, SideBarChat } from './sideBarView';
import { CaptureViews } from './captureViews';
import { forgetChatSessions } from '../node/chat/forgetSessions';
import { forkChatState } from '../common/chats/chatState';
import { watchChatSplits } from './splitWatcher';
import { ChatElsewhereError, type ChatPersistence } from '../node/chat/chatPersistence';
import { ChatAttention, attentionBadge } from './chatAttention';

const RECENT_LOG_LINES = 2000;
/** A chat tab's webview is rebuilt from a snapshot when shown again: nothing kept while hidden. */
const CHAT_PANEL_OPTIONS: vscode.WebviewPanelOptions & vscode.WebviewOptions = { enableScripts: true, enableFindWidget: false, retainContextWhenHidden: false };
const SIDEBAR_CHAT_KEY = 'acpChat.sideBarChat';

export interface OpenChatOptions {
  /** A chat from the registry (reopened into a tab if closed). */
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
}

export class ChatService extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly tree: MessageTreeProvider;
  /** The tree's view: in the side bar, or in the panel while the side bar shows a chat. */
  readonly treeView: MessageTreeViews;
  /** Keeps the tree's message on the focused chat's start failure (replaced on every focus change). */
  private treeReason: vscode.Disposable | undefined;
  readonly docs: VirtualDocuments;
  readonly sideBar: SideBarChat;
  private readonly files: FileAccess;
  private settingsValue: Settings;
  /** The agent new chats start with (ACP: Select Agent, the status bar). */
  private selectedAgentId: string;
  private registryValue: ChatRegistry | undefined;
  private readonly live = new Map<string, ChatController>();
  private readonly tabs = new Map<string, ChatPanel>();
  /** More tabs of a chat, in other groups (Split Editor on its tab); the first tab stays in `tabs`. */
  private readonly splits = new Map<string, Set<ChatPanel>>();
  /** The newest log lines of the chat sessions, for the debug bundle (an output channel cannot be read back). */
  private readonly recentLog: string[] = [];
  private readonly captures: CaptureViews;
  private readonly status = createChatStatus();
  /** The dot on chats with something unseen, and the notifications that call the user back. */
  private readonly attention: ChatAttention;
  private readonly focusEmitter = this.register(new Emitter<ChatController | undefined>());
  /** The focused chat changed (a tab or the side bar view became active, or a chat was opened or deleted). */
  readonly onDidChangeFocusedChat: Event<ChatController | undefined> = this.focusEmitter.event;
  /** Set while the window closes: tabs disposed then stay "open" in the registry, to be restored. */
  private closing = false;

  /** Opened on first use (`ready()`), so activating the extension reads no saved chats. */
  private persistence: ChatPersistence | undefined;
  private opening: Promise<void> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly openPersistence: () => Promise<ChatPersistence>,
    private readonly connect: ConnectAgent = spawnAgent,
  ) {
    super();
    this.log = this.register(vscode.window.createOutputChannel('ACP Chat', { log: true }));
    this.settingsValue = readSettings(this.log);
    this.selectedAgentId = this.settingsValue.defaultAgent;
    this.docs = this.register(new VirtualDocuments());
    const follow = { enabled: () => this.settingsValue.openEditedFiles, chatColumn: () => this.focusedTab()?.panel.viewColumn };
    this.files = new FileAccess(this.log, follow, () => this.settingsValue.outsideWorkspace);
    this.tree = this.register(new MessageTreeProvider());
    this.treeView = this.register(new MessageTreeViews(this.tree));
    this.captures = new CaptureViews(context.extensionUri, this.log, this.docs, this.tree, () => this.capturesDir(), (sid, key) => this.revealEntry(sid, key), () => this.showFocusedInTree());
    this.sideBar = this.register(new SideBarChat({ extensionUri: context.extensionUri, log: this.log, initialChat: () => this.sideBarInitial() }));
    this.register(this.sideBar.onDidInteract((id) => this.focus(id)));
    this.register(this.sideBar.onDidChange(() => this.treeView.setChatInSideBar(this.sideBar.visible && this.sideBar.chatId !== undefined)));
    this.attention = this.register(new ChatAttention({
      enabled: () => this.settingsValue.notifyWhenUnseen,
      isVisible: (id) => this.viewsOf(id).some((v) => v.surface.visible),
      title: (id) => this.titleOf(id),
      show: (id) => void this.revealChat(id),
      retitle: (id) => this.retitle(id),
    }));
    this.register(this.status.item);
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('acpChat')) return;
        this.settingsValue = readSettings(this.log);
        // Chats waiting for their agent start once the settings name it.
        for (const s of this.live.values()) {
          const agent = findAgent(this.agents(), s.agent.id);
          if (agent) s.agentConfigured(agent); // a no-op for a chat that has its agent
        }
      }),
    );
    // Disposed newest first: views let go (their tabs stay for the restore), sessions stop, then what
    // they wrote is flushed and the chats' locks are freed.
    this.register({ dispose: () => void this.persistence?.close() });
    this.register({ dispose: () => this.live.forEach((s) => s.dispose()) });
    // The tabs stay open in the window's layout (VS Code restores them through the serializer): only our side goes.
    this.register({ dispose: () => [...this.tabs.values(), ...[...this.splits.values()].flatMap((set) => [...set])].forEach((p) => p.dispose({ keepTab: true })) });
    this.register(watchChatSplits((from, to) => this.splitFrom(from, to)));
    this.register({ dispose: () => this.treeReason?.dispose() });
    this.register(this.captures);
    this.register({ dispose: () => void (this.closing = true) });
  }

  get settings(): Settings {
    return this.settingsValue;
  }

  currentSettings(): Settings {
    return this.settingsValue;
  }

  agents(): AgentConfig[] {
    return allAgents(this.settingsValue, demoAgent(process.execPath, this.context.asAbsolutePath(path.join('dist', 'demo-agent.js'))));
  }

  /** The newest lines the chat sessions logged (at most RECENT_LOG_LINES). */
  logTail(): readonly string[] {
    return this.recentLog;
  }

  private remember(line: string): void {
    this.recentLog.push(line);
    if (this.recentLog.length > RECENT_LOG_LINES) this.recentLog.splice(0, this.recentLog.length - RECENT_LOG_LINES);
  }

  /** Opens the saved chats once; every path that creates a session awaits this first. */
  ready(): Promise<void> {
    this.opening ??= this.openPersistence().then((p) => {
      this.persistence = p;
      const registry = new ChatRegistry(parseChatIndex(p.readIndex(), (m) => this.log.warn(m)));
      // Stores saved before several chats existed are keyed by agent id: each becomes a chat of that agent.
      // (A chat id missing from the list names no agent: such a store is left alone.)
      for (const id of p.savedIds()) if (!registry.has(id) && !isChatId(id)) registry.create(id, 0, Math.random, id);
      registry.onDidChange(() => p.writeIndex(registry.toJSON()));
      registry.onDidChangeFocus(() => this.focusChanged());
      this.registryValue = registry;
    });
    return this.opening;
  }

  /** The chat list. Requires `ready()`. */
  get registry(): ChatRegistry {
    if (!this.registryValue) throw new Error('ChatService.ready() must complete before chats are used');
    return this.registryValue;
  }

  /** Every chat, most recently used first (history). Requires `ready()`. */
  chatRecords(): readonly ChatRecord[] {
    return this.registry.history();
  }

  /** A live chat by id. */
  chat(chatId: string): ChatController | undefined {
    return this.live.get(chatId);
  }

  /** The id of the chat the user focused last (a tab or the side bar), if any. */
  get focusedChatId(): string | undefined {
    return this.registryValue?.focused();
  }

  /** The focused chat, if it is live (it always is while shown). */
  get focusedChat(): ChatController | undefined {
    const id = this.focusedChatId;
    return id === undefined ? undefined : this.live.get(id);
  }

  /** The chat id of a live session. */
  chatIdOf(session: ChatController): string | undefined {
    for (const [id, s] of this.live) if (s === session) return id;
    return undefined;
  }

  /**
   * The focused chat if it is live, else made live like `activeChat()` when it has nothing saved (a new
   * chat). Requires `ready()`; a saved chat that is not live needs `activeChat()`.
   */
  activeSession(): ChatController {
    const focused = this.focusedChatId;
    if (focused !== undefined) return this.liveChat(focused);
    const record = this.registry.lastFocused((c) => c.agentId === this.selectedAgentId) ?? this.registry.create(this.selectedAgentId, Date.now());
    const session = this.liveChat(record.id);
    this.focus(record.id);
    return session;
  }

  /** The focused chat (made live), else a chat of the selected agent. Commands that act on "the chat" use this. */
  async activeChat(): Promise<ChatController> {
    await this.ready();
    const focused = this.focusedChatId;
    if (focused !== undefined) return this.takeChat(focused);
    const record = this.registry.lastFocused((c) => c.agentId === this.selectedAgentId) ?? this.registry.create(this.selectedAgentId, Date.now());
    const session = await this.takeChat(record.id);
    this.focus(record.id);
    return session;
  }

  /**
   * The live session of a chat, taken for this window first (read from its folder, locked): refused with
   * a message when another window of the workspace has the chat open.
   */
  private async takeChat(chatId: string): Promise<ChatController> {
    const live = this.live.get(chatId);
    if (live) return live;
    await this.claim(chatId);
    return this.liveChat(chatId);
  }

  private async claim(chatId: string): Promise<void> {
    const persistence = this.persistence;
    if (!persistence) throw new Error('ChatService.ready() must complete before a chat is used');
    const claim = await persistence.prepare(chatId);
    if (claim.ok) return;
    const error = new ChatElsewhereError(chatId, claim.holder);
    void vscode.window.showWarningMessage(noticeText(`${this.titleOf(chatId)}: ${error.message}`));
    throw error;
  }

  /** The focused chat if it is live: for commands that must not start an agent (cancel, export). */
  existingSession(): ChatController | undefined {
    return this.focusedChat;
  }

  /** The editor tab of the focused chat, if it has one. */
  activePanel(): ChatPanel | undefined {
    return this.focusedTab();
  }

  /** The tab of a chat, if open. */
  tabOf(chatId: string): ChatPanel | undefined {
    return this.tabs.get(chatId);
  }

  /** Every tab showing a chat: its first tab, then its splits. */
  tabsOf(chatId: string): ChatPanel[] {
    const tab = this.tabs.get(chatId);
    return [...(tab ? [tab] : []), ...(this.splits.get(chatId) ?? [])];
  }

  /** Every webview showing a chat (its tabs, the side bar). */
  viewsOf(chatId: string): ChatWebview[] {
    const side = this.sideBar.chatId === chatId ? this.sideBar.chatWebview : undefined;
    return [...this.tabsOf(chatId), ...(side ? [side] : [])];
  }

  /**
   * Opens a chat in an editor tab, or reveals it. Without options: the focused chat (the tab or side bar
   * view used last, reopened into a tab if it was closed), else the selected agent's latest chat, else a
   * new chat.
   */
  async openChat(options: OpenChatOptions = {}): Promise<ChatPanel> {
    await this.ready();
    const r = this.registry;
    const agentId = options.agentId ?? this.selectedAgentId;
    const target = chatToOpen(r, options, agentId, (id) => this.live.get(id)?.sessionId ?? null);
    if (target.kind === 'missing') throw new Error(`no chat ${options.chatId ?? ''}`);
    if (target.kind === 'new' && !findAgent(this.agents(), agentId)) throw new Error(`no agent with id '${agentId}'`);
    const record = target.kind === 'existing' ? target.record : r.create(agentId, Date.now());
    if (target.kind === 'new' && target.sessionId !== undefined) r.update(record.id, { sessionId: target.sessionId });
    const existing = this.tabs.get(record.id);
    if (existing) {
      existing.panel.reveal(options.viewColumn, options.preserveFocus ?? false);
      this.focus(record.id);
      if (!options.preserveFocus) existing.post({ type: 'focusPrompt' });
      return existing;
    }
    await this.claim(record.id);
    // Another call may have opened its tab while this one waited: a chat has one tab.
    const opened = this.tabs.get(record.id);
    if (opened) {
      opened.panel.reveal(options.viewColumn, options.preserveFocus ?? false);
      return opened;
    }
    const column = options.viewColumn ?? this.focusedTab()?.panel.viewColumn ?? this.lastTab()?.panel.viewColumn ?? vscode.ViewColumn.Beside;
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'ACP Chat', { viewColumn: column, preserveFocus: options.preserveFocus ?? false }, CHAT_PANEL_OPTIONS);
    return this.adoptPanel(webviewPanel, record.id);
  }

  /**
   * Fork Chat Here: a new chat (same agent) showing the fork `source` just made. Its store starts as the
   * fork's session in the source's store (the shared history the store copied when session/fork
   * answered, same keys), saved at once; its own agent then reattaches the fork (resume or load).
   */
  async openFork(source: ChatController, forkSessionId: string): Promise<ChatPanel> {
    await this.ready();
    const persistence = this.persistence;
    if (!persistence) throw new Error('ChatService.ready() must complete before a chat is forked');
    const sourceId = this.chatIdOf(source);
    const state = (sourceId !== undefined ? persistence.state(sourceId) : undefined) ?? { store: source.store };
    const fork = forkChatState(state, source.sessionId ?? forkSessionId, forkSessionId);
    const record = this.registry.create(source.agent.id, Date.now());
    persistence.seed(record.id, fork);
    this.registry.update(record.id, { sessionId: forkSessionId, title: fork.store.session(forkSessionId)?.title ?? null });
    return this.openChat({ chatId: record.id });
  }

  /** Shows a chat where it is: its tab, else the side bar view showing it, else a new tab. */
  async revealChat(chatId: string): Promise<void> {
    if (!this.tabs.has(chatId) && this.sideBar.chatId === chatId) {
      await vscode.commands.executeCommand(`${CHAT_SIDEBAR_VIEW}.focus`);
      this.focus(chatId);
      return;
    }
    await this.openChat({ chatId });
  }

  /**
   * Shows a chat without covering the editor in group `keep` (Add Selection to Chat): a tab of the chat
   * in another group is revealed there; when its only tabs share the editor's group, it gets another
   * tab beside (a split, so no webview is moved), else it is shown where it is.
   */
  async revealChatBeside(chatId: string, keep: vscode.ViewColumn | undefined): Promise<void> {
    const tabs = this.tabsOf(chatId);
    if (keep === undefined || tabs.length === 0) return this.revealChat(chatId);
    const elsewhere = tabs.find((t) => t.panel.viewColumn !== keep);
    if (elsewhere) {
      elsewhere.panel.reveal(elsewhere.panel.viewColumn, false);
      this.focus(chatId);
      elsewhere.post({ type: 'focusPrompt' });
      return;
    }
    this.openSplit(chatId, vscode.ViewColumn.Beside);
  }

  /** ACP: New Chat — another chat, with the given agent or the selected one. */
  newChat(agentId?: string, viewColumn?: vscode.ViewColumn): Promise<ChatPanel> {
    return this.openChat({ newChat: true, ...(agentId !== undefined ? { agentId } : {}), ...(viewColumn !== undefined ? { viewColumn } : {}) });
  }

  /**
   * A tab VS Code restored after a reload (the serializer; `chatId` from the webview's saved state, the
   * one owner of which tab shows which chat): it shows that chat, where it was. A chat has one tab: when
   * the chat already has one (opened before VS Code restored this tab, which it does when the tab is
   * first shown), is deleted, or is open in another window, the restored tab closes instead of showing
   * some other chat. A tab saved without a chat id (older versions) gets the last focused chat without
   * a tab, else a new chat.
   */
  async restorePanel(webviewPanel: vscode.WebviewPanel, chatId: string | undefined): Promise<ChatPanel | undefined> {
    await this.ready();
    const r = this.registry;
    const id = chatId ?? r.lastFocused((c) => !this.tabs.has(c.id) && c.agentId === this.selectedAgentId)?.id ?? r.create(this.selectedAgentId, Date.now()).id;
    const why = !r.has(id) ? 'it was deleted' : this.tabs.has(id) ? 'it is open in another tab' : undefined;
    if (why === undefined) {
      const taken = await this.claim(id).then(
        () => true,
        () => false,
      );
      // Checked again: another tab may have taken the chat while this one waited.
      if (taken && !this.tabs.has(id)) return this.adoptPanel(webviewPanel, id);
    }
    this.log.info(`a restored tab of chat ${id} was closed: ${why ?? 'it is open elsewhere'}`);
    webviewPanel.dispose();
    return undefined;
  }

  /** Shows chat `id` (taken for this window) in a tab just created or restored. Requires `ready()`. */
  adoptPanel(webviewPanel: vscode.WebviewPanel, id: string): ChatPanel {
    const r = this.registry;
    const session = this.liveChat(id);
    const panel = new ChatPanel(webviewPanel, this.context.extensionUri, session, this.log, (q) => findWorkspaceFiles(q), id);
    this.tabs.set(id, panel);
    r.update(id, { open: true });
    this.follow(panel, id);
    this.focus(id);
    return panel;
  }

  /**
   * Split Editor on a chat tab left group `to` empty: the chat shown in group `from` gets a second tab
   * there, showing the same live chat (both get its snapshot and patches).
   */
  private splitFrom(from: vscode.ViewColumn, to: vscode.ViewColumn): void {
    for (const [id] of this.live) {
      if (this.tabsOf(id).some((t) => t.panel.viewColumn === from && t.panel.visible)) {
        this.openSplit(id, to);
        return;
      }
    }
  }

  /** Another tab of a live chat, in group `viewColumn`. */
  openSplit(chatId: string, viewColumn: vscode.ViewColumn): ChatPanel | undefined {
    const session = this.live.get(chatId);
    if (!session) return undefined;
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'ACP Chat', viewColumn, CHAT_PANEL_OPTIONS);
    const panel = new ChatPanel(webviewPanel, this.context.extensionUri, session, this.log, (q) => findWorkspaceFiles(q), chatId);
    const set = this.splits.get(chatId) ?? new Set<ChatPanel>();
    this.splits.set(chatId, set.add(panel));
    this.follow(panel, chatId);
    this.focus(chatId);
    return panel;
  }

  /**
   * Keeps a chat tab's title, focus and lifetime in step with its chat. When the first tab closes, a
   * split takes its place; when the last one closes, the chat is closed (kept in history).
   */
  private follow(panel: ChatPanel, id: string): void {
    panel.panel.title = this.attention.decorate(id, this.titleOf(id));
    panel.onDidInteract(() => this.focus(id));
    panel.own(panel.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.focus(id);
      if (e.webviewPanel.visible) this.attention.seen(id);
    }));
    panel.onDidDispose(() => {
      const split = this.splits.get(id);
      if (split?.delete(panel)) {
        if (split.size === 0) this.splits.delete(id);
        if (!this.closing) this.releaseIfUnshown(id);
        return;
      }
      if (this.tabs.get(id) !== panel) return;
      const heir = split?.values().next().value;
      if (heir && split) {
        split.delete(heir);
        if (split.size === 0) this.splits.delete(id);
        this.tabs.set(id, heir);
        return;
      }
      this.tabs.delete(id);
      if (this.closing) return; // the window is closing: the tab comes back after the reload
      this.registryValue?.update(id, { open: false });
      this.releaseIfUnshown(id);
    });
  }

  /** Closes a chat's tabs; the chat stays in history (and its agent stops unless the side bar shows it). */
  closeChat(chatId: string): void {
    for (const tab of this.tabsOf(chatId).reverse()) tab.dispose();
  }

  /** Deletes a chat: the agent is asked to close/delete its sessions where it advertises that, then its saved state goes. */
  async deleteChat(chatId: string): Promise<void> {
    await this.ready();
    const record = this.registry.get(chatId);
    if (!record) return;
    const session = await this.takeChat(chatId);
    await forgetChatSessions(session, (level, m) => {
      this.log[level](m);
      this.remember(`${new Date().toISOString()} ${level} [${session.agent.id}] ${m}`);
    });
    for (const tab of this.tabsOf(chatId).reverse()) tab.dispose();
    if (this.sideBar.chatId === chatId) this.sideBar.clear();
    this.dropLive(chatId);
    this.registry.remove(chatId);
    this.attention.forget(chatId);
    this.retitle(chatId);
    void this.context.workspaceState.update(earlierKey(chatId), undefined);
    void this.context.workspaceState.update(changesKey(chatId), undefined);
    await this.persistence?.remove(chatId);
    this.updateStatus();
  }

  /** ACP: Show Chat in Side Bar — the given chat (default: the focused one, else a new chat) in the side bar view. */
  async showInSideBar(chatId?: string): Promise<void> {
    await this.ready();
    if (chatId === undefined) await this.activeChat(); // the focused chat, or a first one
    const id = chatId ?? this.focusedChatId;
    if (id === undefined || !this.registry.has(id)) return;
    const previous = this.sideBar.chatId;
    this.sideBar.show(id, await this.takeChat(id), this.titleOf(id));
    void this.context.workspaceState.update(SIDEBAR_CHAT_KEY, id);
    if (previous !== undefined && previous !== id) this.releaseIfUnshown(previous);
    await vscode.commands.executeCommand(`${CHAT_SIDEBAR_VIEW}.focus`);
    this.focus(id);
  }

  private async sideBarInitial(): Promise<{ chatId: string; model: ChatController; title: string } | undefined> {
    await this.ready();
    const saved = this.context.workspaceState.get<string>(SIDEBAR_CHAT_KEY);
    const id = (saved !== undefined && this.registry.has(saved) ? saved : undefined) ?? this.focusedChatId ?? this.registry.history()[0]?.id;
    if (id === undefined) return undefined;
    // Another window has it: the side bar stays empty here rather than showing a chat it cannot write.
    if (!this.live.has(id) && !(await this.persistence?.prepare(id))?.ok) return undefined;
    return { chatId: id, model: this.liveChat(id), title: this.titleOf(id) };
  }

  /** The agent the next new chat starts with; "ACP: Check Agent" checks this one. */
  selectedAgent(): AgentConfig | undefined {
    return findAgent(this.agents(), this.selectedAgentId);
  }

  /**
   * ACP: Select Agent. The agent becomes the one new chats start with, and the focused chat becomes that
   * agent's most recent chat (a new one if it has none), shown in a tab when a chat tab was showing.
   */
  async selectAgent(id?: string): Promise<void> {
    let agentId = id;
    const current = this.focusedChat?.agent.id ?? this.selectedAgentId;
    if (agentId === undefined) agentId = await pickAgent(this.agents(), current);
    if (agentId === undefined) return;
    await this.ready();
    if (!findAgent(this.agents(), agentId)) {
      void vscode.window.showErrorMessage(`No agent with id '${noticeText(agentId)}' (see the acpChat.agents setting).`);
      return;
    }
    this.selectedAgentId = agentId;
    if (this.focusedChat?.agent.id === agentId) return this.updateStatus();
    const hadTab = this.focusedTab() !== undefined;
    const target = this.registry.lastFocused((c) => c.agentId === agentId) ?? this.registry.create(agentId, Date.now());
    if (hadTab) await this.openChat({ chatId: target.id });
    else {
      await this.takeChat(target.id);
      this.focus(target.id);
    }
    this.updateStatus();
  }

  /** Starts a fresh session in the focused chat (the old transcript stays in the tree). */
  async newSession(): Promise<void> {
    await this.ready();
    await (await this.activeChat()).newSession();
  }

  /** ACP: Open Capture — a recorded `.jsonl` in a read-only panel and the tree. */
  openCapture(file?: string, mode?: 'full' | 'realtime'): ReturnType<CaptureViews['open']> {
    return this.captures.open(file, mode);
  }

  /** Reveals an entry of the focused chat (or a shown capture) in the tree. */
  revealInTree(sessionId: string, key: string): void {
    this.revealEntry(sessionId, key);
  }

  private revealEntry(sessionId: string, key: string): void {
    const node = this.tree.entryNodeFor(sessionId, key);
    if (node) void this.treeView.reveal(node, { select: true, focus: true, expand: true });
  }

  /** Makes a chat the focused one (the tree, log and capability view follow). */
  focus(chatId: string): void {
    this.attention.seen(chatId);
    if (!this.registryValue?.has(chatId)) return;
    if (this.registryValue.focused() === chatId) return this.showFocusedInTree();
    this.registryValue.focus(chatId); // fires focusChanged
  }

  private focusChanged(): void {
    const session = this.focusedChat;
    if (session) this.selectedAgentId = session.agent.id;
    this.showFocusedInTree();
    this.updateStatus();
    this.focusEmitter.fire(session);
  }

  private showFocusedInTree(): void {
    const session = this.focusedChat;
    this.tree.show(session);
    const id = this.focusedChatId;
    this.treeView.description = session && id !== undefined ? this.titleOf(id) : undefined;
    // An agent that could not start leaves the tree empty: say why there, not "No chat session yet".
    this.treeReason?.dispose();
    const reason = () => {
      const p = session && session.sessionId === null ? session.panelState() : undefined;
      this.treeView.message = p && (p.turn === 'error' || p.turn === 'exited') ? noticeText(`${session?.agent.name ?? 'The agent'}: ${p.message ?? 'the agent could not start.'}`) : undefined;
    };
    reason();
    this.treeReason = session?.onDidChange((changes) => changes.some((c) => c.type === 'panel' && ('turn' in c.fields || 'message' in c.fields)) && reason());
  }

  /** The live session of a chat (created, and its agent started, on first use). Requires `ready()`. */
  private liveChat(chatId: string): ChatController {
    const existing = this.live.get(chatId);
    if (existing) return existing;
    const record = this.registry.get(chatId);
    if (!record) throw new Error(`no chat ${chatId}`);
    // A chat never runs another agent than its own: without it, it says so and waits for the settings to
    // name it (see onDidChangeConfiguration).
    const agent = findAgent(this.agents(), record.agentId) ?? null;
    if (!agent) this.log.warn(`chat ${chatId}: its agent '${record.agentId}' is not in acpChat.agents; it waits for the settings to name it`);
    const persistence = this.persistence;
    if (!persistence) throw new Error('ChatService.ready() must complete before a chat session is created');
    const session = createChatController(
      {
        context: this.context,
        log: this.log,
        docs: this.docs,
        files: this.files,
        persistence,
        connect: this.connect,
        settings: () => this.settingsValue,
        capturesDir: () => this.capturesDir(),
        remember: (line) => this.remember(line),
        revealInTree: (id, sid, key) => {
          this.focus(id);
          this.revealEntry(sid, key);
        },
        isChatVisible: (id) => this.viewsOf(id).some((v) => v.surface.visible),
        showChat: (id) => void this.revealChat(id),
        chatColumn: (id) => this.tabs.get(id)?.panel.viewColumn,
      },
      record,
      agent,
    );
    this.live.set(chatId, session);
    session.own(this.attention.watch(chatId, (l) => session.onDidChange(l)));
    session.origin = () => {
      const o = this.originOf(chatId);
      return o ? { sessionId: o.sessionId, messageKey: o.messageKey, chat: this.registry.has(o.chatId) ? this.titleOf(o.chatId) : 'a deleted chat' } : null;
    };
    // The tree (and its "why is it empty" message) follows the focused chat, which may be focused before
    // its session exists.
    if (this.focusedChatId === chatId) this.showFocusedInTree();
    session.onDidChange((changes) => {
      if (!changes.some((c) => c.type === 'panel' || c.type === 'reset')) return;
      this.syncRecord(chatId, session, changes.some((c) => c.type === 'panel' && c.fields.turn === 'busy'));
      if (this.focusedChatId === chatId) this.updateStatus();
    });
    void session.start();
    if (this.focusedChatId === chatId) this.showFocusedInTree();
    return session;
  }

  /** Keeps the registry's session id and title in step with the chat, and the tab titles with both. */
  private syncRecord(chatId: string, session: ChatController, used: boolean): void {
    const title = session.current()?.title ?? null;
    const record = this.registryValue?.update(chatId, { sessionId: session.sessionId, title, ...(used ? { updatedAt: Date.now() } : {}) });
    if (!record) return;
    this.retitle(chatId);
  }

  /** Sets a chat's title (e.g. after a rename); the agent's next `session_info_update` title replaces it. */
  setChatTitle(chatId: string, title: string | null): void {
    this.registryValue?.update(chatId, { title });
    this.retitle(chatId);
  }

  private retitle(chatId: string): void {
    const title = this.attention.decorate(chatId, this.titleOf(chatId));
    for (const tab of this.tabsOf(chatId)) if (tab.panel.title !== title) tab.panel.title = title;
    if (this.sideBar.chatId === chatId) this.sideBar.retitle(title);
    if (this.focusedChatId === chatId) this.treeView.description = title;
    this.sideBar.badge = attentionBadge(this.attention.count(this.sideBar.chatId), 'updates');
    this.treeView.badge = attentionBadge(this.attention.waitingChats, this.attention.waitingChats === 1 ? 'chat' : 'chats');
  }

  /** A chat's display title (tab, side bar, tree): the session title, else "Chat N · agent". */
  titleOf(chatId: string): string {
    const record = this.registryValue?.get(chatId);
    if (!record) return 'ACP Chat';
    return chatTitle(record, findAgent(this.agents(), record.agentId)?.name ?? record.agentId, this.registryValue?.ordinal(chatId) ?? 1);
  }

  /** A chat no webview shows any more stops (agent, terminals); it stays in history and restarts when reopened. */
  private releaseIfUnshown(chatId: string): void {
    if (this.tabs.has(chatId) || this.sideBar.chatId === chatId) return;
    this.dropLive(chatId);
    this.updateStatus();
  }

  private dropLive(chatId: string): void {
    const session = this.live.get(chatId);
    if (!session) return;
    this.live.delete(chatId);
    session.dispose();
    // Written and let go, so another window of the workspace may take it (not while this window closes).
    if (!this.closing) void this.persistence?.release(chatId);
    if (this.focusedChatId === chatId) this.showFocusedInTree();
  }

  private focusedTab(): ChatPanel | undefined {
    const id = this.focusedChatId;
    return (id !== undefined ? this.tabs.get(id) : undefined) ?? undefined;
  }

  private lastTab(): ChatPanel | undefined {
    const record = this.registryValue?.lastFocused((c) => this.tabs.has(c.id));
    return record ? this.tabs.get(record.id) : undefined;
  }

  /** Where the chats are kept (every window of the workspace shares it); undefined before `ready()` or without storage. */
  chatsDir(): string | undefined {
    return this.persistence?.folder;
  }

  /** Records where a branch chat came from (its tree and Open Session… show it). */
  setOrigin(chatId: string, origin: ChatOrigin): void {
    this.registry.update(chatId, { origin });
  }

  originOf(chatId: string): ChatOrigin | null {
    return this.registryValue?.get(chatId)?.origin ?? null;
  }

  /** Where branches' carried transcripts are written (beside the captures). */
  branchesDir(): string {
    return path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'branches');
  }

  /** Where captures are written: the workspace's extension storage (or the global one without a workspace). */
  capturesDir(): string {
    return path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'captures');
  }

  private updateStatus(): void {
    this.status.show(this.focusedChat);
  }
}
