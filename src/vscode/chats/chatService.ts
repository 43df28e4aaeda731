/**
 * ChatService: owns every chat (the chat index, src/common/chats/chatIndex.ts, lists them; each live one
 * is a ChatController with its own agent process, store, journal, capture and terminals), which chats are
 * live (liveChats), which one is focused (the tree, the protocol log and the capability view follow it),
 * and what they share (settings, log, storage). Commands call into it. What only shows chats lives in
 * chatViews (tabs, side bar, titles, unseen marks, opening a chat) and focusedTree; what has no say over
 * them: the chat list and its rules (common/chats/chatIndex), building a chat (chatFactory), history and
 * delete UI (chatHistory, forgetSessions), captures (captureViews), the status bar and agent picker (chatChrome).
 *
 * Its public members are the internal API of other features: openChat / revealChat / newChat, tabsOf,
 * focusedChat, chat(id), chatRecords(), createChat, titleOf(id), closeChat, deleteChat.
 */
import * as vscode from 'vscode';
import path from 'node:path';
import { allAgents, demoAgent, findAgent, newChatAgentId, type AgentConfig, type Settings } from '../../common/config/settings';
import { chooseAgent, createChatStatus, readSettings } from './chatChrome';
import { isUnusedChat } from '../../common/agents/agentChoice';
import type { ChatIndex, ChatOrigin, ChatRecord } from '../../common/chats/chatIndex';
import { openChatIndex } from '../../node/chat/openChatIndex';
import { Disposable } from '../../common/util/lifecycle';
import { RecentLines } from '../../common/util/recentLines';
import { spawnAgent, type ConnectAgent } from '../../node/acp/agentLink';
import type { ChatPanel } from '../panel/chatPanel';
import type { ChatWebview } from '../panel/chatWebview';
import type { ChatController } from '../../node/chat/chatController';
import { forgetOlderState, type ChatFactoryDeps } from './chatFactory';
import { McpChoice } from '../agents/mcpChoice';
import { VirtualDocuments } from '../workspace/virtualDocuments';
import { FileAccess } from '../workspace/fsHandlers';
import type { SideBarChat } from '../panel/sideBarView';
import { CaptureViews } from '../debug/captureViews';
import { forgetChatSessions } from '../../node/chat/forgetSessions';
import { watchChatSplits } from '../panel/splitWatcher';
import type { ChatPersistence } from '../../node/chat/chatPersistence';
import type { OpenChatOptions } from '../panel/chatOpening';
import { ChatViews } from '../panel/chatViews';
import { FocusedTree } from '../debug/focusedTree';
import { LiveChats } from './liveChats';
import type { HistoryMarks } from '../../node/history/historyMarks';
import { keepChatListInStep } from './recoverChats';
import { WorktreeChats } from '../worktrees/worktreeChats'; // worktree chats: their worktrees, where new chats work, their actions

export class ChatService extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly docs: VirtualDocuments;
  private readonly focusedTree: FocusedTree;
  private readonly files: FileAccess;
  private settingsValue: Settings;
  /** The agent the user last picked or focused; new chats start with it while the settings name it. */
  private pickedAgentId: string;
  private indexValue: ChatIndex | undefined;
  private readonly live: LiveChats;
  private readonly views: ChatViews;
  /** The newest log lines of the chat sessions, for the debug bundle (an output channel cannot be read back). */
  private readonly recentLog = new RecentLines(2000);
  private readonly captures: CaptureViews;
  private readonly status = createChatStatus();
  /** Set while the window closes: tabs disposed then stay "open" in the chat index, to be restored. */
  private closing = false;
  /** Opened on first use (`ready()`), so activating the extension reads no saved chats. */
  private persistence: ChatPersistence | undefined;
  private opened: Promise<void> | undefined;
  readonly worktrees: WorktreeChats = new WorktreeChats(this, () => this.context.globalStorageUri.fsPath);
  readonly mcp = new McpChoice({
    globalStorage: () => this.context.globalStorageUri.fsPath,
    settings: () => this.settingsValue,
    log: (l, m) => this.log[l](m),
    offOf: (id) => this.indexValue?.get(id)?.mcpOff ?? [],
    setOff: (id, off) => void this.indexValue?.update(id, { mcpOff: [...off] }),
  });

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly openPersistence: () => Promise<ChatPersistence>,
    /** How chats reach an agent; also how an agent is started to list its own sessions (agentSessionsList.ts). */
    readonly connect: ConnectAgent = spawnAgent,
  ) {
    super();
    this.log = this.register(vscode.window.createOutputChannel('ACP Chat', { log: true }));
    this.settingsValue = readSettings(this.log);
    this.pickedAgentId = this.settingsValue.defaultAgent;
    this.docs = this.register(new VirtualDocuments());
    const follow = { enabled: () => this.settingsValue.openEditedFiles, chatColumn: () => this.views.focusedTab()?.panel.viewColumn };
    this.files = new FileAccess(this.log, follow, () => this.settingsValue.outsideWorkspace);
    this.focusedTree = this.register(new FocusedTree());
    this.captures = new CaptureViews(
      context.extensionUri,
      this.log,
      this.docs,
      this.tree,
      () => this.capturesDir(),
      (sid, key) => this.revealInTree(sid, key),
      () => this.showFocusedInTree(),
    );
    this.live = new LiveChats({
      log: this.log,
      index: () => this.chatIndex,
      persistence: () => this.persistence,
      agents: () => this.agents(),
      factory: (persistence) => this.factoryDeps(persistence),
      follow: (id, session) => this.followChat(id, session),
      dropped: (id) => this.focusedChatId === id && this.showFocusedInTree(),
      closing: () => this.closing,
      elsewhere: () => this.views.elsewhere,
    });
    this.views = this.register(
      new ChatViews({
        context,
        log: this.log,
        docs: this.docs,
        live: this.live,
        treeView: this.treeView,
        ready: () => this.ready(),
        index: () => this.indexValue,
        persistence: () => this.requirePersistence(),
        settings: () => this.settingsValue,
        agents: () => this.agents(),
        selectedAgentId: () => this.selectedAgentId,
        focusedChatId: () => this.focusedChatId,
        focus: (id) => this.focus(id),
        activeChat: () => this.activeChat(),
        unshown: (id) => void (this.live.drop(id), this.updateStatus()),
        closing: () => this.closing,
        newChatMade: (id, want, from) => this.worktrees.offer(id, want, from),
      }),
    );
    this.register(this.status.item);
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('acpChat')) return;
        this.settingsValue = readSettings(this.log);
        this.live.agentsChanged();
      }),
    );
    // Disposed newest first: views let go (their tabs stay for the restore), sessions stop, then what
    // they wrote is flushed and the chats' locks are freed.
    this.register({ dispose: () => void this.persistence?.close() });
    this.register(this.live);
    this.register(this.views.tabs);
    this.register(watchChatSplits((from, to) => this.views.tabs.splitFrom(from, to)));
    this.register(this.captures);
    this.register({ dispose: () => void (this.closing = true) });
  }

  get settings(): Settings {
    return this.settingsValue;
  }

  agents(): AgentConfig[] {
    return allAgents(this.settingsValue, demoAgent(process.execPath, this.context.asAbsolutePath(path.join('dist', 'demo-agent.js'))));
  }

  /** The message tree; it follows the focused chat. */
  get tree(): FocusedTree['tree'] {
    return this.focusedTree.tree;
  }

  /** The tree's view: in the side bar, or in the panel while the side bar shows a chat. */
  get treeView(): FocusedTree['treeView'] {
    return this.focusedTree.treeView;
  }

  /** The side bar's chat view. */
  get sideBar(): SideBarChat {
    return this.views.sideBar;
  }
  /** The newest lines the chat sessions logged (at most 2000). */
  logTail = (): readonly string[] => this.recentLog.all();

  /** Opens the saved chats once; every path that creates a session awaits this first. */
  ready(): Promise<void> {
    this.opened ??= this.openPersistence().then((p) => {
      this.persistence = p;
      this.indexValue = openChatIndex(p, () => this.focusChanged());
      this.register(keepChatListInStep(p, this.chatIndex, this.log, this.live, this.views.titles));
    });
    return this.opened;
  }

  /** The chat list. Requires `ready()`. */
  get chatIndex(): ChatIndex {
    if (!this.indexValue) throw new Error('ChatService.ready() must complete before chats are used');
    return this.indexValue;
  }

  private requirePersistence(): ChatPersistence {
    if (!this.persistence) throw new Error('ChatService.ready() must complete before a chat is used');
    return this.persistence;
  }

  /** Every chat, most recently used first (history). Requires `ready()`. */
  chatRecords = (): readonly ChatRecord[] => this.chatIndex.history();
  /** A live chat by id. */
  chat = (chatId: string): ChatController | undefined => this.live.get(chatId);
  /** The id of the chat the user focused last (a tab or the side bar), if any. */
  get focusedChatId(): string | undefined {
    return this.indexValue?.focused();
  }

  /** The focused chat, if it is live (it always is while shown). */
  get focusedChat(): ChatController | undefined {
    const id = this.focusedChatId;
    return id === undefined ? undefined : this.live.get(id);
  }

  /** The chat id of a live session. */
  chatIdOf = (session: ChatController): string | undefined => this.live.idOf(session);

  /**
   * The focused chat if it is live, else made live like `activeChat()` when it has nothing saved (a new
   * chat). Requires `ready()`; a saved chat that is not live needs `activeChat()`.
   */
  activeSession(): ChatController {
    const focused = this.focusedChatId;
    if (focused !== undefined) return this.live.make(focused);
    const record = this.chatIndex.lastFocused((c) => c.agentId === this.selectedAgentId) ?? this.createChat(this.selectedAgentId);
    const session = this.live.make(record.id);
    this.focus(record.id);
    return session;
  }

  /** The focused chat (made live), else a chat of the selected agent. Commands that act on "the chat" use this. */
  async activeChat(): Promise<ChatController> {
    await this.ready();
    const focused = this.focusedChatId;
    if (focused !== undefined) return this.live.take(focused);
    const record = this.chatIndex.lastFocused((c) => c.agentId === this.selectedAgentId) ?? this.createChat(this.selectedAgentId);
    const session = await this.live.take(record.id);
    this.focus(record.id);
    return session;
  }

  /** The focused chat if it is live: for commands that must not start an agent (cancel, export). */
  existingSession = (): ChatController | undefined => this.focusedChat;
  /** The editor tab of the focused chat, if it has one. */
  activePanel = (): ChatPanel | undefined => this.views.focusedTab();
  /** The (first) tab of a chat, if open. */
  tabOf = (chatId: string): ChatPanel | undefined => this.views.tabs.tabOf(chatId);
  /** Every tab showing a chat: its first tab, then its splits. */
  tabsOf = (chatId: string): ChatPanel[] => this.views.tabs.tabsOf(chatId);
  /** Every webview showing a chat (its tabs, the side bar). */
  viewsOf = (chatId: string): ChatWebview[] => this.views.viewsOf(chatId);
  /** A new chat's record (ChatOpening.create, where every chat is made); nothing runs yet. */
  createChat = (agentId: string): ChatRecord => this.views.opening.create(agentId);
  /** Opens a chat in an editor tab, or reveals it (ChatOpening.open). */
  openChat = (options: OpenChatOptions = {}): Promise<ChatPanel> => this.views.opening.open(options);
  /** Fork Chat Here: a new chat showing the fork `source` just made (ChatOpening.openFork). */
  openFork = (source: ChatController, forkSessionId: string): Promise<ChatPanel> => this.views.opening.openFork(source, forkSessionId);
  /** Shows a chat where it is: its tab, else the side bar view showing it, else a new tab. */
  revealChat = (chatId: string): Promise<void> => this.views.opening.reveal(chatId);
  /** Shows a chat without covering the editor in group `keep` (Add Selection to Chat). */
  revealChatBeside = (chatId: string, keep: vscode.ViewColumn | undefined): Promise<void> => this.views.opening.revealBeside(chatId, keep);
  /** A tab VS Code restored after a reload, with the chat id its webview saved (ChatOpening.restore). */
  restorePanel = (webviewPanel: vscode.WebviewPanel, chatId: string | undefined): Promise<ChatPanel | undefined> => this.views.opening.restore(webviewPanel, chatId);
  /** Another tab of a live chat, in group `viewColumn`. */
  openSplit = (chatId: string, viewColumn: vscode.ViewColumn): ChatPanel | undefined => this.views.tabs.openSplit(chatId, viewColumn);
  /** Closes a chat's tabs; the chat stays in history (and its agent stops unless the side bar shows it). */
  closeChat = (chatId: string): void => this.views.tabs.close(chatId);
  /** ACP: Show Chat in Side Bar — the given chat (default: the focused one, else a new chat) in the side bar view. */
  showInSideBar = (chatId?: string): Promise<void> => this.views.showInSideBar(chatId);
  /** A chat's display title (tab, side bar, tree, chat list): its store's session title, else "Chat N · agent". */
  titleOf = (chatId: string): string => this.views.titles.titleOf(chatId);
  /** What history shows of the live chats (running, needs you). */
  marks = (): HistoryMarks => this.views.marks;

  /** ACP: New Chat — another chat, with the given agent or the selected one. */
  newChat(agentId?: string, viewColumn?: vscode.ViewColumn): Promise<ChatPanel> {
    return this.openChat({ newChat: true, ...(agentId !== undefined ? { agentId } : {}), ...(viewColumn !== undefined ? { viewColumn } : {}) });
  }

  /** Deletes a chat: the agent is asked to close/delete its sessions where it advertises that (`tellAgent`, or the chat is live), then its saved state goes. */
  async deleteChat(chatId: string, tellAgent = true): Promise<void> {
    await this.ready();
    if (!this.chatIndex.get(chatId)) return;
    const session = tellAgent || this.live.get(chatId) ? await this.live.take(chatId) : undefined;
    if (session) await forgetChatSessions(session, (level, m) => void (this.log[level](m), this.recentLog.push(`${new Date().toISOString()} ${level} [${session.agent.id}] ${m}`)));
    this.views.tabs.close(chatId);
    if (this.sideBar.chatId === chatId) this.sideBar.clear();
    this.live.drop(chatId);
    this.chatIndex.remove(chatId);
    this.views.attention.forget(chatId);
    this.views.titles.refresh(chatId);
    forgetOlderState(this.context.workspaceState, chatId);
    await this.persistence?.remove(chatId);
    this.updateStatus();
  }

  /** The agent new chats start with (ACP: Select Agent, the status bar). */
  private get selectedAgentId(): string {
    return newChatAgentId(this.agents(), this.pickedAgentId, this.settingsValue.defaultAgent);
  }
  /** The agent the next new chat starts with; "ACP: Check Agent" checks this one. */
  selectedAgent = (): AgentConfig | undefined => findAgent(this.agents(), this.selectedAgentId);

  /**
   * ACP: Select Agent. The agent becomes the one new chats start with, and the focused chat becomes that
   * agent's most recent chat (a new one if it has none), shown in a tab when a chat tab was showing. A
   * chat tab nobody wrote in yet is replaced by a new chat of that agent, in its place, not left behind.
   */
  async selectAgent(id?: string): Promise<void> {
    const agentId = await chooseAgent(this.agents(), this.focusedChat?.agent.id ?? this.selectedAgentId, id);
    if (agentId === undefined) return;
    await this.ready();
    this.pickedAgentId = agentId;
    const from = this.focusedChat;
    if (from?.agent.id === agentId) return this.updateStatus();
    const tab = this.views.focusedTab();
    const unused = from && tab && isUnusedChat(from.store.sessions()) ? this.focusedChatId : undefined;
    const target = (unused === undefined ? this.chatIndex.lastFocused((c) => c.agentId === agentId) : undefined) ?? this.createChat(agentId);
    if (tab) await this.openChat({ chatId: target.id, ...(unused !== undefined ? { viewColumn: tab.panel.viewColumn } : {}) });
    else {
      await this.live.take(target.id);
      this.focus(target.id);
    }
    if (unused !== undefined) await this.deleteChat(unused);
    this.updateStatus();
  }
  /** Starts a fresh session in the focused chat (the old transcript stays in the tree). */
  async newSession(): Promise<void> {
    await (await this.activeChat()).door.newSession(); // activeChat() awaits ready()
  }

  /** ACP: Open Capture — a recorded `.jsonl` in a read-only panel and the tree. */
  openCapture = (file?: string, mode?: 'full' | 'realtime'): ReturnType<CaptureViews['open']> => this.captures.open(file, mode);
  /** Reveals an entry of the focused chat (or a shown capture) in the tree. */
  revealInTree = (sessionId: string, key: string): void => this.focusedTree.revealEntry(sessionId, key);
  /** Chats another window of the workspace has (ACP: Chats Open in Another Window…). */
  chatsElsewhere = (): ChatViews['elsewhere'] => this.views.elsewhere;
  /** Makes a chat the focused one (the tree, log and capability view follow). */
  focus(chatId: string): void {
    this.views.attention.seen(chatId);
    if (!this.indexValue?.has(chatId)) return;
    if (this.indexValue.focused() === chatId) return this.showFocusedInTree();
    this.indexValue.focus(chatId); // fires focusChanged
  }

  private focusChanged(): void {
    const session = this.focusedChat;
    if (session) this.pickedAgentId = session.agent.id;
    this.showFocusedInTree();
    this.updateStatus();
  }
  private showFocusedInTree(): void {
    const id = this.focusedChatId;
    this.focusedTree.show(this.focusedChat, id !== undefined ? this.views.decoratedTitle(id) : undefined);
  }
  /** What every chat session shares (see LiveChats.make). */
  private factoryDeps(persistence: ChatPersistence): ChatFactoryDeps {
    return {
      context: this.context,
      log: this.log,
      docs: this.docs,
      files: this.files,
      persistence,
      connect: this.connect,
      settings: () => this.settingsValue,
      mcp: (id) => this.mcp.forChat(id),
      capturesDir: () => this.capturesDir(),
      remember: (line) => this.recentLog.push(line),
      revealInTree: (id, sid, key) => {
        this.focus(id);
        this.revealInTree(sid, key);
      },
      isChatVisible: (id) => this.viewsOf(id).some((v) => v.surface.visible),
      showChat: (id) => void this.revealChat(id),
      chatColumn: (id) => this.tabOf(id)?.panel.viewColumn,
    };
  }

  /** What follows a chat made live: its unseen mark, its title, its origin, the index's cache of its session, the status and tree. */
  private followChat(chatId: string, session: ChatController): void {
    session.own(this.views.watch(chatId, session));
    session.own(this.views.titles.watch(chatId, session));
    session.origin = () => {
      const o = this.originOf(chatId);
      return o ? { sessionId: o.sessionId, messageKey: o.messageKey, chat: this.chatIndex.has(o.chatId) ? this.titleOf(o.chatId) : 'a deleted chat' } : null;
    };
    session.onDidChange((changes) => {
      if (!changes.some((c) => c.type === 'panel' || c.type === 'reset')) return;
      const used = changes.some((c) => c.type === 'panel' && c.fields.turn === 'busy');
      this.indexValue?.cacheSession(chatId, session.sessionId);
      if (used) this.indexValue?.update(chatId, { updatedAt: Date.now() });
      if (this.focusedChatId === chatId) this.updateStatus();
    });
    // The tree (and why it is empty) follows the focused chat, which may be focused before its session exists.
    if (this.focusedChatId === chatId) this.showFocusedInTree();
  }

  /** Where the chats are kept (every window of the workspace shares it); undefined before `ready()` or without storage. */
  chatsDir = (): string | undefined => this.persistence?.folder;
  /** Records where a branch chat came from (its tree and Open Session… show it). */
  setOrigin = (chatId: string, origin: ChatOrigin): void => void this.chatIndex.update(chatId, { origin });
  originOf = (chatId: string): ChatOrigin | null => this.indexValue?.get(chatId)?.origin ?? null;
  /** Where branches' carried transcripts are written (beside the captures). */
  branchesDir = (): string => path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'branches');
  /** Where captures are written: the workspace's extension storage (or the global one without a workspace). */
  capturesDir = (): string => path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'captures');

  private updateStatus = (): void => this.status.show(this.focusedChat);
}
