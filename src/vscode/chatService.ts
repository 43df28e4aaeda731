/**
 * ChatService: owns the chat sessions (one per agent), the chat panel that shows the active one, the
 * message tree, and everything they share (settings, log, storage). Commands call into it.
 */
import * as vscode from 'vscode';
import path from 'node:path';
import { allAgents, demoAgent, findAgent, parseSettings, type AgentConfig, type Settings } from '../common/config/settings';
import { Disposable } from '../common/util/lifecycle';
import { labelText, noticeText } from '../common/untrusted';
import { spawnAgent, type ConnectAgent } from '../node/acp/agentLink';
import { CaptureFile, readCaptureRecords } from '../node/capture/captureFile';
import { NodeTerminalHost } from '../node/terminals';
import { ChatPanel, CHAT_VIEW_TYPE } from './chatPanel';
import { ChatSession } from './chatSession';
import { CaptureSession } from './captureSession';
import { createClientHandlers } from './clientHandlers';
import { VirtualDocuments } from './virtualDocuments';
import { FileAccess } from './fsHandlers';
import { MessageTreeProvider, MESSAGE_TREE_VIEW } from './messageTree';
import { createSessionUi } from './sessionUi';
import { buildPrompt, findWorkspaceFiles } from './promptBuilder';
import type { SessionPersistence } from './sessionPersistence';
import type { TreeNode } from '../common/debug/treeModel';
import { errorText } from '../common/util/errors';
import type { EarlierLink } from './sessionPorts';

/** Workspace-state key of an agent's link to the earlier transcript shown above its session. */
const earlierKey = (agentId: string) => `acpChat.earlierTranscript.${agentId}`;

const RECENT_LOG_LINES = 2000;

export class ChatService extends Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly tree: MessageTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly docs: VirtualDocuments;
  private readonly files: FileAccess;
  private settingsValue: Settings;
  private readonly sessions = new Map<string, ChatSession>();
  private activeAgentId: string;
  private panel: ChatPanel | undefined;
  /** The newest log lines of the chat sessions, for the debug bundle (an output channel cannot be read back). */
  private readonly recentLog: string[] = [];
  /** Read-only panels of opened captures; each disposes its capture when closed. */
  private readonly capturePanels = new Set<ChatPanel>();
  private readonly sessionStatus: vscode.StatusBarItem;

  /** Opened on first use (`ready()`), so activating the extension reads no saved chats. */
  private persistence: SessionPersistence | undefined;
  private opening: Promise<void> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly openPersistence: () => Promise<SessionPersistence>,
    private readonly connect: ConnectAgent = spawnAgent,
  ) {
    super();
    this.log = this.register(vscode.window.createOutputChannel('ACP Chat', { log: true }));
    this.settingsValue = this.readSettings();
    this.activeAgentId = this.settingsValue.defaultAgent;
    this.docs = this.register(new VirtualDocuments());
    this.files = new FileAccess(this.log, () => this.panel?.panel.viewColumn, () => this.settingsValue.outsideWorkspace);
    this.tree = this.register(new MessageTreeProvider());
    this.treeView = this.register(vscode.window.createTreeView(MESSAGE_TREE_VIEW, { treeDataProvider: this.tree, showCollapseAll: true }));
    this.sessionStatus = this.register(vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100));
    this.sessionStatus.command = 'acpChat.selectAgent';
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('acpChat')) this.settingsValue = this.readSettings();
      }),
    );
    // Disposed newest first: sessions stop, then what they wrote is flushed.
    this.register({ dispose: () => void this.persistence?.flush() });
    this.register({ dispose: () => this.sessions.forEach((s) => s.dispose()) });
    this.register({ dispose: () => this.panel?.dispose() });
    this.register({ dispose: () => [...this.capturePanels].forEach((p) => p.dispose()) });
  }

  get settings(): Settings {
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
    });
    return this.opening;
  }

  /** The session the panel shows (created, and its agent started, on first use). Requires `ready()`. */
  activeSession(): ChatSession {
    return this.sessionFor(this.activeAgentId);
  }

  /** The active agent's session if it exists: for commands that must not start an agent (cancel, export). */
  existingSession(): ChatSession | undefined {
    return this.sessions.get(this.activeAgentId);
  }

  activePanel(): ChatPanel | undefined {
    return this.panel;
  }

  /** Opens (or reveals) the chat panel. */
  async openChat(): Promise<ChatPanel> {
    await this.ready();
    const session = this.activeSession();
    if (this.panel) {
      this.panel.panel.reveal(undefined, false);
      this.panel.post({ type: 'focusPrompt' });
      return this.panel;
    }
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, this.panelTitle(session), vscode.ViewColumn.Beside, {
      enableScripts: true,
      enableFindWidget: false,
      retainContextWhenHidden: false,
    });
    return this.adoptPanel(webviewPanel);
  }

  /** Takes over a panel VS Code restored after a reload (the serializer) or one just created. Requires `ready()`. */
  adoptPanel(webviewPanel: vscode.WebviewPanel): ChatPanel {
    this.panel?.dispose();
    const session = this.activeSession();
    const panel = new ChatPanel(webviewPanel, this.context.extensionUri, session, this.log, (q) => findWorkspaceFiles(q));
    webviewPanel.title = this.panelTitle(session);
    this.panel = panel;
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    return panel;
  }

  currentSettings(): Settings {
    return this.settingsValue;
  }

  /** The agent chats start with (the status bar's): "ACP: Check Agent" checks this one. */
  selectedAgent(): AgentConfig | undefined {
    return findAgent(this.agents(), this.activeAgentId);
  }

  async selectAgent(id?: string): Promise<void> {
    let agentId = id;
    if (agentId === undefined) {
      const pick = await vscode.window.showQuickPick(
        this.agents().map((a) => ({
          label: labelText(a.name),
          description: a.id === this.activeAgentId ? '(active)' : labelText(a.id),
          detail: labelText([a.command, ...a.args].join(' ')),
          id: a.id,
        })),
        { title: 'ACP: Select Agent', placeHolder: 'Agents come from the acpChat.agents setting; the demo agent is built in.' },
      );
      agentId = pick?.id;
    }
    if (agentId === undefined) return;
    await this.ready();
    if (!findAgent(this.agents(), agentId)) {
      void vscode.window.showErrorMessage(`No agent with id '${noticeText(agentId)}' (see the acpChat.agents setting).`);
      return;
    }
    this.activeAgentId = agentId;
    const session = this.activeSession();
    if (this.panel) {
      this.panel.attach(session);
      this.panel.panel.title = this.panelTitle(session);
    }
    this.updateStatus();
  }

  /** Starts a fresh session with the active agent (the old transcript stays in the tree). */
  async newSession(): Promise<void> {
    await this.ready();
    await this.activeSession().newSession();
  }

  /** ACP: Open Session… — the agent's saved sessions (session/list), plus the ones in our store. */
  async pickSession(): Promise<void> {
    await this.ready();
    const session = this.activeSession();
    const listed = await session.listSessions().catch((e: unknown) => {
      void vscode.window.showWarningMessage(`${noticeText(session.agent.name)}: session/list failed: ${noticeText(errorText(e))}`);
      return [];
    });
    const local = session.sessions().map((s) => ({ sessionId: s.sessionId, title: s.title, updatedAt: s.updatedAt }));
    const seen = new Set<string>();
    const items = [...listed, ...local]
      .filter((s) => !seen.has(s.sessionId) && seen.add(s.sessionId))
      .map((s) => ({
        label: labelText(s.title ?? s.sessionId),
        description: s.sessionId === session.sessionId ? '(current)' : labelText(s.updatedAt ?? ''),
        detail: labelText(s.sessionId),
        sessionId: s.sessionId,
      }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(`${noticeText(session.agent.name)} has no saved sessions to open.`);
      return;
    }
    const pick = await vscode.window.showQuickPick(items, { title: `${labelText(session.agent.name)}: open a session`, matchOnDetail: true });
    if (pick) await session.openSession(pick.sessionId);
  }

  /** ACP: Open Capture — a recorded `.jsonl` in a read-only panel and the tree. */
  async openCapture(file?: string, mode?: 'full' | 'realtime'): Promise<{ capture: CaptureSession; panel: ChatPanel } | undefined> {
    const uri = file
      ? vscode.Uri.file(file)
      : (await vscode.window.showOpenDialog({ title: 'ACP: Open Capture', canSelectMany: false, filters: { 'ACP capture': ['jsonl', 'ndjson'] }, defaultUri: vscode.Uri.file(this.capturesDir()) }))?.[0];
    if (!uri) return undefined;
    const pace =
      mode ??
      (
        await vscode.window.showQuickPick(
          [
            { label: 'Full speed', description: 'apply every message at once', mode: 'full' as const },
            { label: 'Real time', description: 'replay at the pace it was recorded', mode: 'realtime' as const },
          ],
          { title: 'Replay the capture' },
        )
      )?.mode;
    if (!pace) return undefined;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const name = uri.path.split('/').pop() ?? 'capture';
    let capturePanel: vscode.WebviewPanel | undefined;
    const ui = createSessionUi({ docs: this.docs, log: this.log, revealInTree: (sid, key) => this.revealInTree(sid, key), isPanelVisible: () => true, showPanel: () => undefined, chatColumn: () => capturePanel?.viewColumn });
    const capture = new CaptureSession(name, text, ui);
    const webviewPanel = capturePanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE + '.capture', `Capture · ${name}`, vscode.ViewColumn.Active, { enableScripts: true });
    const panel = new ChatPanel(webviewPanel, this.context.extensionUri, capture, this.log);
    const fromTree = this.tree.addSource(capture);
    this.capturePanels.add(panel);
    panel.onDidDispose(() => {
      this.capturePanels.delete(panel);
      fromTree.dispose();
      capture.dispose();
    });
    if (pace === 'full') capture.playAll();
    else capture.playRealTime();
    return { capture, panel };
  }

  revealInTree(sessionId: string, key: string): void {
    const node = this.tree.entryNodeFor(sessionId, key);
    if (node) void this.treeView.reveal(node, { select: true, focus: true, expand: true });
  }

  private sessionFor(agentId: string): ChatSession {
    const existing = this.sessions.get(agentId);
    if (existing) return existing;
    const agent = findAgent(this.agents(), agentId) ?? findAgent(this.agents(), 'demo');
    if (!agent) throw new Error('the demo agent is missing');
    const persistence = this.persistence;
    if (!persistence) throw new Error('ChatService.ready() must complete before a chat session is created');
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? this.context.globalStorageUri.fsPath;
    const restored = persistence.restore(agent.id, (m) => this.log.warn(m));
    let capture: CaptureFile | undefined;
    // The session is created below; terminal events reach it through this late-bound reference.
    let owner: ChatSession | undefined;
    const terminals = new NodeTerminalHost({
      defaultCwd: cwd,
      admitCwd: (dir, sid) => this.files.checkTerminalCwd(dir, { agentName: agent.name, sessionId: sid }),
      onOutput: (id, text) => owner?.terminalEvent(id, text),
      onExit: (id, status) => owner?.terminalEvent(id, '', { exitCode: status.exitCode ?? null, signal: status.signal ?? null }),
    });
    const ui = createSessionUi({
      docs: this.docs,
      log: this.log,
      revealInTree: (sid, key) => this.revealInTree(sid, key),
      isPanelVisible: (s) => this.panel !== undefined && this.panel.panel.visible && this.activeSession() === s,
      showPanel: () => void this.openChat(),
      chatColumn: () => this.panel?.panel.viewColumn,
    });
    const session: ChatSession = new ChatSession({
      agent,
      cwd,
      store: restored.store,
      restoredSessionId: restored.sessionId,
      restoredEarlier: this.context.workspaceState.get<EarlierLink>(earlierKey(agent.id)) ?? null,
      connect: this.connect,
      settings: () => this.settingsValue,
      handlers: (broker, s) =>
        createClientHandlers({
          agentName: agent.name,
          files: this.files,
          broker,
          terminals,
          rules: () => this.settingsValue.permissionRules,
          toolCallKey: (sid, id) => s.toolCallKey(sid, id),
          onAsk: (_sid, title) => ui.permissionAsked(s, title),
          log: (m) => this.log.info(m),
        }),
      sinks: {
        capture: (dir, msg, seq, raw) => {
          if (!this.settingsValue.captureEnabled) return;
          capture ??= CaptureFile.create(this.capturesDir(), agent.id, this.settingsValue.captureMaxFiles, (m) => this.log.error(m));
          capture.write(dir, msg, seq, raw);
        },
        persist: (dir, msg, changes, seq) => persistence.append(agent.id, dir, msg, changes, seq),
        earlier: (link) => void this.context.workspaceState.update(earlierKey(agent.id), link ?? undefined),
      },
      ui,
      log: (level, message) => {
        this.log[level](message);
        this.remember(`${new Date().toISOString()} ${level} [${agent.id}] ${message}`);
      },
      records: (seqs) => readCaptureRecords(this.capturesDir(), agent.id, seqs),
      buildPrompt: (text, caps) => buildPrompt(text, caps, this.files, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath),
    });
    owner = session;
    session.captureFile = () => capture?.path;
    session.own(terminals);
    this.sessions.set(agentId, session);
    this.tree.addSource(session);
    session.onDidChange((changes) => {
      if (changes.some((c) => c.type === 'panel' || c.type === 'reset')) this.updateStatus();
    });
    void session.start();
    this.updateStatus();
    return session;
  }

  /** Where captures are written: the workspace's extension storage (or the global one without a workspace). */
  capturesDir(): string {
    return path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'captures');
  }

  private panelTitle(session: ChatSession): string {
    return `ACP Chat · ${session.agent.name}`;
  }

  private updateStatus(): void {
    const s = this.sessions.get(this.activeAgentId);
    if (!s) return;
    const icon = { starting: '$(loading~spin)', idle: '$(comment-discussion)', busy: '$(loading~spin)', cancelling: '$(loading~spin)', exited: '$(error)', error: '$(error)' }[s.turnState];
    this.sessionStatus.text = `${icon} ${labelText(s.agent.name, 60)}`;
    this.sessionStatus.tooltip = `ACP Chat: ${labelText(s.agent.name)} (${s.turnState}) · click to select an agent`;
    this.sessionStatus.show();
  }

  private readSettings(): Settings {
    const config = vscode.workspace.getConfiguration('acpChat');
    const { settings, problems } = parseSettings((key) => config.get(key));
    for (const p of problems) this.log.warn(`settings: ${p}`);
    // Settings can come from a workspace's .vscode/settings.json, so their text is not trusted either.
    const more = problems.length > 1 ? ` (+${problems.length - 1} more, see the ACP Chat log)` : '';
    if (problems.length) void vscode.window.showWarningMessage(`ACP Chat: ${noticeText(problems[0] ?? '')}${more}`);
    return settings;
  }
}
