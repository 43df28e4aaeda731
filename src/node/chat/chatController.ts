/**
 * ChatController: one chat, composed of its connection (chatConnection: the agent link and the attached
 * session), its traffic (chatTraffic: numbering and the fan-out of every message to capture, conformance,
 * store and persistence), its thread (chatThread: turns, queue, context chips, notices, Changes hooks) and
 * its view (chatView: the panel's state and the panel's and tree's change events).
 * It adds no behaviour: it builds the three, wires them, and keeps the one surface the rest of the
 * extension uses (ChatModel for the webview, TreeSource for the tree, ChatControls for the dispatcher).
 * Called a controller, not a session: "session" means an ACP session, and a chat shows several over time.
 *
 * Owns: the chat's pending permission requests and questions (PermissionBroker, ElicitationBroker), the
 * resources tied to the chat's life (`own`: terminals, capture) and where it was branched from (`origin`).
 * Every other fact has its owner named in the unit that holds it; the store owns the transcript.
 * One ChatController per chat: ChatService (and chatFactory) make one for each open chat, never shared.
 */
import type { AgentConfig } from '../../common/config/settings';
import type { PanelState, TurnState, WebviewToHost } from '../../common/webview/contract';
import type { Diagnostic, Entry, SessionState } from '../../common/store/model';
import type { MessageStore } from '../../common/store';
import { PermissionBroker } from '../../common/permissionBroker';
import { ElicitationBroker } from '../../common/elicitationBroker';
import type { AgentBehaviour } from '../../common/debug/agentBehaviour';
import type { Finding } from '../../common/conformance';
import type { CaptureRecord } from '../../common/debug/protocolLog';
import { Disposable, type IDisposable } from '../../common/util/lifecycle';
import type { QueuedPrompt } from '../../common/promptQueue';
import type { Notice, NoticeActionId } from '../../common/notices';
import type { ContextItem } from '../../common/context';
import type { ChangeReview, ReviewAction } from '../../common/changes/review';
import type { BranchOrigin } from '../../common/debug/treeModel';
import type { ChatModel } from '../../common/webview/chatModel';
import type { TreeSource } from '../../common/debug/treeSource';
import type { ChatControls, ChatOptions, PromptImage } from './chatPorts';
import { dispatchWebviewMessage } from './webviewMessages';
import { ChatTraffic } from './chatTraffic';
import { ChatConnection } from './chatConnection';
import type { AgentDoor } from './agentDoor';
import { ChatThread } from './chatThread';
import { ChatView } from './chatView';
import { subagentModel, subagentUnder, type SubagentViewDeps } from './subagentControls';
import type { SubagentModel } from '../../common/webview/subagentModel';
import { subagentLabel } from '../../common/store/sessionTree';

export type { ChatOptions, ChatUi } from './chatPorts';

export class ChatController extends Disposable implements ChatModel, TreeSource, ChatControls {
  readonly broker = new PermissionBroker();
  readonly elicitations = new ElicitationBroker();
  /** Where this chat was branched from (set by the chat service, the chat index's owner), for the tree. */
  origin: (() => BranchOrigin | null) | undefined;
  /** The capture file of the current connection, if one is being written. */
  captureFile: () => string | undefined = () => undefined;
  private readonly traffic: ChatTraffic;
  private readonly connection: ChatConnection;
  private readonly view: ChatView;
  private readonly thread: ChatThread;
  readonly onDidChange: ChatView['onDidChange'];
  /** TreeSource: fires (unbatched) on every store change; the tree coalesces. */
  readonly onDidChangeTree: ChatView['onDidChangeTree'];

  constructor(private readonly o: ChatOptions) {
    super();
    // Built in dependency order: the traffic reaches no other part (the supervisor and the view subscribe to
    // its events); the connection and the view reach the thread, built last, through late-bound callbacks typed by
    // narrow interfaces (ConnectionEvents, ThreadFields), never called while constructing (docs/ARCHITECTURE.md: why they stay).
    this.traffic = new ChatTraffic({ store: o.store, sinks: o.sinks, log: o.log });
    this.connection = new ChatConnection({
      options: o,
      traffic: this.traffic,
      broker: this.broker,
      elicitations: this.elicitations,
      handlers: () => o.handlers(this),
      events: () => this.thread,
    });
    // The recovery supervisor watches the agent's traffic (stalls) and which entries the store kept.
    const supervisor = this.connection.supervisor;
    this.traffic.onAgentMessage((msg) => supervisor.traffic(msg));
    this.traffic.onAgentStored((keys) => supervisor.stored(keys));
    this.register({ dispose: () => supervisor.dispose() });
    this.view = this.register(
      new ChatView({ options: o, connection: this.connection, traffic: this.traffic, broker: this.broker, elicitations: this.elicitations, thread: () => this.thread.fields() }),
    );
    this.thread = new ChatThread({ options: o, connection: this.connection, traffic: this.traffic, broker: this.broker, view: this.view });
    this.onDidChange = this.view.onDidChange;
    this.onDidChangeTree = this.view.onDidChangeTree;
    this.connection.restore();
    if (o.review) this.register(o.review);
    this.register({ dispose: () => this.broker.dispose() });
    this.register({ dispose: () => this.elicitations.dispose() });
  }

  /** Ties a resource's lifetime to this chat's (terminals, capture). */
  own<T extends IDisposable>(resource: T): T {
    return this.register(resource);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.connection.close();
    this.thread.close();
    super.dispose();
  }

  // ---------------------------------------------------------------- TreeSource

  get label(): string {
    return this.agent.name;
  }
  sessions(): readonly SessionState[] {
    return this.o.store.sessions();
  }
  protocolRecords(seqs: ReadonlySet<number>): readonly CaptureRecord[] {
    return this.o.records(seqs);
  }
  /** Conformance findings of this chat's connections, for the tree and the capability view. */
  findings(sessionId?: string): readonly Finding[] {
    return this.traffic.findings(sessionId);
  }
  diagnostics(sessionId: string): readonly Diagnostic[] {
    return this.o.store.diagnostics().filter((d) => d.sessionId === undefined || d.sessionId === sessionId);
  }

  // ---------------------------------------------------------------- state (read from its owners)

  /** What the agent advertised and actually does, for the capability report. */
  get behaviour(): AgentBehaviour {
    return this.traffic.behaviour;
  }
  get agent(): AgentConfig {
    return this.connection.agent;
  }
  get sessionId(): string | null {
    return this.connection.sessionId;
  }
  get cwd(): string {
    return this.o.cwd;
  }
  get store(): MessageStore {
    return this.o.store;
  }
  /** The door to the agent: what it said at initialize, its session list, and its optional operations. */
  get door(): AgentDoor {
    return this.connection;
  }
  get turnState(): TurnState {
    return this.thread.turnState;
  }
  /** The chat's Changes review (undefined where the chat has none, a capture). */
  get review(): ChangeReview | undefined {
    return this.o.review;
  }
  stderrTail(): string {
    return this.connection.stderrTail();
  }
  current(): SessionState | undefined {
    return this.view.current();
  }
  entries(): readonly Entry[] {
    return this.view.entries();
  }
  snapshot(): { entries: readonly Entry[]; panel: PanelState } {
    return this.view.snapshot();
  }
  shownEntry(key: string): { readonly sessionId: string; readonly entry: Entry } | undefined {
    return this.view.shownEntry(key);
  }
  panelState(): PanelState {
    return this.view.panelState();
  }
  whenIdle(): Promise<void> {
    return this.thread.whenIdle();
  }

  /**
   * Output and exit of a terminal we run for the agent (v1), recorded for the session it runs in: the one that
   * created it (a subagent's terminal belongs to the subagent's tool call), else the attached one.
   */
  terminalEvent(terminalId: string, append: string, exit?: { exitCode: number | null; signal: string | null }, createdBy?: string): void {
    const sessionId = createdBy ?? this.sessionId;
    if (sessionId !== null) this.traffic.record({ event: 'terminal', sessionId, terminalId, append, ...(exit ? { exit } : {}) });
  }

  /** The turns' Changes summaries changed (their saved form): recorded in the store, saved with the chat. */
  /** Rename Chat: the user's title for the attached session (null clears it), in the chat's journal; it wins over the agent's. */
  setUserTitle(title: string | null): void {
    const sessionId = this.sessionId;
    if (sessionId !== null) this.traffic.record({ event: 'user_title', sessionId, title });
  }

  recordChanges(saved: unknown): void {
    this.traffic.record({ event: 'changes', saved });
  }

  /** Restore in place: the attached session goes on from message `key` of session `from`, whose turns from there it shows folded (foldRules.ts). */
  recordRewind(from: string, key: string): void {
    const sessionId = this.sessionId;
    if (sessionId !== null) this.traffic.record({ event: 'rewound', sessionId, from, key });
  }

  toolCallKey(sessionId: string, toolCallId: string): string | null {
    const s = this.o.store.session(sessionId);
    const e = s?.entries.find((x) => x.kind === 'tool_call' && x.toolCallId === toolCallId);
    return e?.key ?? null;
  }

  /** The transcript entry of a pending `elicitation/create` (by the agent's request id), to draw the question on. */
  elicitationKey(sessionId: string, rpcId: string | number): string | null {
    const entries = this.o.store.session(sessionId)?.entries ?? [];
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (e?.kind === 'elicitation' && e.requestId === rpcId && e.status === 'pending') return e.key;
    }
    return null;
  }

  // ---------------------------------------------------------------- the connection

  agentConfigured(agent: AgentConfig): void {
    this.connection.agentConfigured(agent);
  }
  start(): Promise<void> {
    return this.connection.start();
  }
  restart(): Promise<void> {
    return this.connection.restart();
  }
  setMode(modeId: string): void {
    this.connection.setMode(modeId);
  }
  setConfigOption(configId: string, value: string | boolean): void {
    this.connection.setConfigOption(configId, value);
  }

  // ---------------------------------------------------------------- the thread

  prompt(text: string, images: readonly PromptImage[] = [], steer = false): void {
    this.thread.prompt(text, images, steer);
  }
  takePrompt(text: string, images: readonly PromptImage[]): QueuedPrompt {
    return this.thread.takePrompt(text, images);
  }
  send(prompt: QueuedPrompt): void {
    this.thread.send(prompt);
  }
  beginEdit(items: readonly Omit<ContextItem, 'id'>[]): void {
    this.thread.beginEdit(items);
  }
  endEdit(): void {
    this.thread.endEdit();
  }
  retry(): void {
    this.thread.retry();
  }
  addContext(item: Omit<ContextItem, 'id'>): void {
    this.thread.addContext(item);
  }
  removeContext(id: string): void {
    this.thread.removeContext(id);
  }
  contextItems(): readonly ContextItem[] {
    return this.thread.contextItems();
  }
  removeQueued(id: string): void {
    this.thread.removeQueued(id);
  }
  editQueued(id: string, text: string): void {
    this.thread.editQueued(id, text);
  }
  moveQueued(id: string, offset: number): void {
    this.thread.moveQueued(id, offset);
  }
  cancel(): void {
    this.thread.cancel();
  }
  reviewChanges(setId: string, index: number | null, action: ReviewAction): void {
    this.thread.reviewChanges(setId, index, action);
  }
  /** The worktree's header chip is read again (it was found missing, or made). */
  showWorktree(): void {
    this.view.panel({ worktree: this.o.worktree?.() ?? null });
  }
  /** A notice of the host's own on the attached session (a workspace folder came or went). */
  notice(n: Notice): void {
    this.traffic.notice(n);
  }

  noticeAction(action: NoticeActionId): void {
    this.thread.noticeAction(action);
  }

  openSubagent(childSessionId: string): void {
    const card = subagentUnder(this.o.store, this.connection.sessionId, childSessionId);
    const open = this.o.ui.openSubagent;
    if (!card || !open) return this.o.log('warn', `open subagent ${childSessionId}: not a subagent of this chat's session; ignored`);
    open(this.register(subagentModel(this.subagentDeps(), childSessionId)), subagentLabel(card));
  }

  /** A subagent's transcript expanded in its card (subagentFeeds.ts): its requests are answered in this chat's own panel. */
  subagentView(childSessionId: string): SubagentModel | undefined {
    return subagentUnder(this.o.store, this.connection.sessionId, childSessionId) ? subagentModel(this.subagentDeps(), childSessionId, false) : undefined;
  }

  private subagentDeps(): SubagentViewDeps {
    return {
      store: this.o.store,
      agentName: this.agent.name,
      onStoreChanged: this.view.onDidChangeStore,
      broker: this.broker,
      elicitations: this.elicitations,
      act: (m: WebviewToHost) => this.handleWebviewMessage(m),
      ...(this.o.review ? { review: this.o.review } : {}),
    };
  }

  cancelSubagent(childSessionId: string): void {
    const card = subagentUnder(this.o.store, this.connection.sessionId, childSessionId);
    // Only a child that offered cancel (ACP: a mutation needs the child's own capability).
    if (!card?.canCancel) return this.o.log('warn', `stop subagent ${childSessionId}: it does not offer cancel; ignored`);
    this.connection.turnAgent()?.cancel(childSessionId);
  }

  handleWebviewMessage(m: WebviewToHost): void {
    dispatchWebviewMessage(this, this.o.ui, m, (message) => this.o.log('warn', message));
  }
}
