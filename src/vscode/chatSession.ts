/**
 * ChatSession: the one owner of a chat session's state. It owns the message store, the agent link, the
 * turn state, the prompt queue and the pending permission requests, and is the only code that feeds the
 * store: every JSON-RPC message of the connection passes through `onWire` (capture, persistence, store),
 * and the store's changes are turned into panel patches and tree refreshes here.
 * It is longer than our ~400-line guideline on purpose: it is the one owner of a chat's mutable state
 * (link, session id, turn, notices), and splitting that state across files would make two owners. What
 * has state of its own and no say over the rest lives elsewhere: the prompt queue (common/promptQueue),
 * the context chips (promptContext), the panel mapping
 * (common/webview/panelChanges), webview dispatch (webviewMessages), session operations (node/acp/sessions).
 * One ChatSession per chat: ChatService (and chatFactory) make one for each open chat, never shared.
 */
import type { AgentConfig } from '../common/config/settings';
import { sessionPanelFields, type EarlierTranscript, type PanelState, type TurnEnd, type TurnState, type WebviewToHost } from '../common/webview/contract';
import type { Diagnostic, Entry, SessionState } from '../common/store/model';
import { MessageStore, type CheckedMessage, type StoreChange } from '../common/store';
import { PermissionBroker } from '../common/permissionBroker';
import { ElicitationBroker } from '../common/elicitationBroker';
import { AgentBehaviour } from '../common/debug/agentBehaviour';
import { ConformanceChecker, SKIPPED_LINE_NOTE, type Finding } from '../common/conformance';
import type { CaptureRecord } from '../common/debug/protocolLog';
import { Disposable, Emitter, type IDisposable } from '../common/util/lifecycle';
import type { Direction } from '../node/acp/client';
import { type AgentCapabilities, type SessionInfo, zMcpServer } from '../common/protocol/requests';
import type { ContentBlock } from '../common/protocol/content';
import type { AgentLink } from '../node/acp/agentLink';
import type { AcpClient } from '../node/acp/client';
import type { ChatControls, ChatSessionOptions, PromptImage } from './sessionPorts';
import { listAllSessions, openSession, reattachSession, type CallWrapper, type SessionParams } from '../node/acp/sessions';
import type { ChatModel } from './chatPanel';
import type { TreeSource } from './messageTree';
import { panelChangesFor, type PanelChange } from '../common/webview/panelChanges';
import { dispatchWebviewMessage } from './webviewMessages';
import { errorText } from '../common/util/errors';
import { AcpClosedError } from '../node/acp/errors';
import { StartupTimeoutError, startupTimeoutText, withStartupTimeout } from './startupTimeout';
import { PromptQueue, type QueuedPrompt } from '../common/promptQueue';
import type { Notice, NoticeActionId } from '../common/notices';
import { CLIENT_EVENT_NOTE, type ClientEvent } from '../common/store/clientEvents';
import { ConnectionSupervisor } from '../common/recovery/supervisor';
import { systemClock } from '../common/recovery/timers';
import { lastUserMessage, promptOfMessage } from '../common/rewind/rerunPrompt';
import { exitMessage, runNoticeAction } from './sessionRecovery';
import { steered } from '../common/protocol/steering';
import { contextBlocks, type ContextItem } from '../common/context';
import { PromptContext } from './promptContext';
import type { ChangeReview, ReviewAction } from '../common/changes/review';
import type { BranchOrigin } from '../common/debug/treeModel';
import { supportsOperation } from '../common/protocol/sessionOps';

export type { ChatSessionOptions, SessionSinks, SessionUi } from './sessionPorts';


export class ChatSession extends Disposable implements ChatModel, TreeSource, ChatControls {
  readonly broker = new PermissionBroker();
  readonly elicitations = new ElicitationBroker();
  /** What the agent advertised and actually does, for the capability report. */
  readonly behaviour = new AgentBehaviour();
  /** The conformance check of the current connection (a new one per connection: ids and capabilities restart). */
  private conformance = new ConformanceChecker();
  /** Findings of earlier connections of this session (their lines stay valid: seqs keep counting). */
  private earlierFindings: Finding[] = [];
  private link: AgentLink | undefined;
  private turn: TurnState = 'starting';
  private lastTurnEnd: TurnEnd = null;
  private message: string | null = null;
  private readonly queue = new PromptQueue();
  /** Where this chat was branched from (set by the chat service, the registry's owner), for the tree. */
  origin: (() => BranchOrigin | null) | undefined;
  /** Editor context waiting for the next prompt (chips in the prompt box). */
  private readonly context = new PromptContext();
  private wireSeq = 0;
  private connecting: Promise<void> | undefined;
  private agentValue: AgentConfig;
  /** The settings do not name this chat's agent: nothing starts until they do (see agentConfigured). */
  private agentMissing: boolean;
  /** Restarts after a crash, the uncertain prompt, stalls: decided there, done here. */
  private readonly supervisor: ConnectionSupervisor<QueuedPrompt>;
  /** Counts turns; a turn given up (its cancel unanswered) must not end the next one when it finally ends. */
  private turnGen = 0;
  /** The session whose reattach failed, shown read-only above the new one (until another session is chosen). */
  private earlier: { readonly sessionId: string; readonly reason: string } | null = null;
  /** The capture file of the current connection, if one is being written. */
  captureFile: () => string | undefined = () => undefined;

  private readonly changes = this.register(new Emitter<readonly PanelChange[]>());
  readonly onDidChange = this.changes.event;
  private readonly treeChanges = this.register(new Emitter<void>());
  /** TreeSource: fires (unbatched) on every store change; the tree coalesces. */
  readonly onDidChangeTree = this.treeChanges.event;

  constructor(private readonly o: ChatSessionOptions) {
    super();
    this.agentValue = o.agent;
    this.agentMissing = o.agentMissing === true;
    // The store is the one owner of the attached session; this chat's choice is recorded there (and saved) once.
    if (o.store.attachedSessionId() !== o.restoredSessionId) this.attach(o.restoredSessionId);
    const link = o.restoredEarlier;
    if (link && link.sessionId === o.restoredSessionId) this.earlier = { sessionId: link.earlierSessionId, reason: link.reason };
    // Continue numbering after the restored entries' messages, so seqs stay unique across restarts.
    this.wireSeq = Math.max(0, ...o.store.sessions().flatMap((s) => s.entries.flatMap((e) => e.stats.lines.map(([, last]) => last))));
    this.supervisor = new ConnectionSupervisor<QueuedPrompt>({
      clock: o.clock ?? systemClock,
      agentName: o.agent.name,
      settings: () => o.settings(),
      reconnect: () => void this.start(),
      notice: (key, n) => this.record(n ? { event: 'notice', sessionId: this.sessionId, notice: { ...n, key } } : { event: 'notice_removed', sessionId: this.sessionId, key }),
      abandonTurn: () => {
        this.turnGen++;
        this.endTurnAs('cancelled');
        this.setTurn('idle', null);
        this.drainQueue();
      },
      promptEntry: () => this.entries().findLast((e) => e.kind === 'user_message' && e.provenance === 'local')?.key,
    });
    this.register({ dispose: () => this.supervisor.dispose() });
    // A turn waiting on the user's answer is not stalled.
    const waiting = () => this.supervisor.waiting(this.permissionsForPanel().length > 0 || this.elicitations.pending(this.sessionId).length > 0);
    this.register(this.broker.onDidChange(() => {
      waiting();
      this.emitPanel({ permissions: this.permissionsForPanel() });
    }));
    this.register(this.elicitations.onDidChange(() => {
      waiting();
      this.emitPanel({ elicitations: this.elicitations.pending(this.sessionId) });
    }));
    const review = o.review;
    if (review) {
      this.register(review);
      this.register(review.onDidChange((c) => c.sessionId === this.sessionId && this.changes.fire([{ type: 'changeSet', id: c.id, set: c.view }])));
    }
    this.register({ dispose: () => this.broker.dispose() });
    this.register({ dispose: () => this.elicitations.dispose() });
    this.register({ dispose: () => this.link?.dispose() });
  }

  /** Ties a resource's lifetime to this session's (terminals, capture). */
  own<T extends IDisposable>(resource: T): T {
    return this.register(resource);
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
    const all = [...this.earlierFindings, ...this.conformance.findings()];
    return sessionId === undefined ? all : all.filter((f) => f.sessionId === undefined || f.sessionId === sessionId);
  }
  diagnostics(sessionId: string): readonly Diagnostic[] {
    return this.o.store.diagnostics().filter((d) => d.sessionId === undefined || d.sessionId === sessionId);
  }

  // ---------------------------------------------------------------- state

  get agent(): AgentConfig {
    return this.agentValue;
  }

  /**
   * The settings name an agent (again): a chat that waits for its agent takes it and starts. Never a
   * different agent than the chat's own, and never a change for a chat whose agent was configured.
   */
  agentConfigured(agent: AgentConfig): void {
    if (!this.agentMissing || agent.id !== this.agentValue.id || this.isDisposed) return;
    this.agentValue = agent;
    this.agentMissing = false;
    this.o.log('info', `agent '${agent.id}' is configured now: starting ${agent.name}`);
    this.emitPanel({ agentName: agent.name, missingAgent: null });
    void this.start();
  }
  get sessionId(): string | null {
    return this.o.store.attachedSessionId();
  }

  /** The only writer of the attached session: the store records it, the chat's journal saves it. */
  private attach(sessionId: string | null): void {
    // Notices from before the first session (a failed start, a skipped line) stay on screen with it.
    const carried = this.sessionId === null && sessionId !== null ? this.o.store.notices(null) : [];
    this.o.store.attach(sessionId);
    try {
      this.o.sinks.attached?.(sessionId);
    } catch (e) {
      this.o.log('error', `could not save the attached session ${sessionId ?? '(none)'}: ${errorText(e)}`);
    }
    if (carried.length === 0) return;
    for (const notice of carried) this.record({ event: 'notice', sessionId, notice });
    this.record({ event: 'notices_cleared', sessionId: null });
  }
  get cwd(): string {
    return this.o.cwd;
  }
  get store(): MessageStore {
    return this.o.store;
  }
  get client() {
    return this.link?.client;
  }
  get turnState(): TurnState {
    return this.turn;
  }
  stderrTail(): string {
    return this.link?.stderrTail() ?? '';
  }
  current(): SessionState | undefined {
    return this.sessionId === null ? undefined : this.o.store.session(this.sessionId);
  }
  entries(): readonly Entry[] {
    return this.current()?.entries ?? [];
  }

  /** What the panel shows: the earlier transcript (if any) read-only, then this session's entries. */
  snapshot(): { entries: readonly Entry[]; panel: PanelState } {
    const earlier = this.earlierEntries();
    return { entries: earlier.length ? [...earlier, ...this.entries()] : this.entries(), panel: this.panelState() };
  }

  /** An entry the panel shows, by key: this session's, or the earlier transcript's. */
  shownEntry(key: string): { readonly sessionId: string; readonly entry: Entry } | undefined {
    for (const sid of [this.sessionId, this.earlier?.sessionId]) {
      const entry = sid === null || sid === undefined ? undefined : this.o.store.session(sid)?.entries.find((e) => e.key === key);
      if (sid && entry) return { sessionId: sid, entry };
    }
    return undefined;
  }

  private earlierEntries(): readonly Entry[] {
    return this.earlier ? (this.o.store.session(this.earlier.sessionId)?.entries ?? []) : [];
  }

  private earlierForPanel(): EarlierTranscript | null {
    const count = this.earlierEntries().length;
    return this.earlier && count ? { sessionId: this.earlier.sessionId, entryCount: count, reason: this.earlier.reason } : null;
  }

  panelState(): PanelState {
    const s = this.current();
    return {
      agentName: this.agent.name,
      sessionId: this.sessionId,
      turn: this.turn,
      lastTurnEnd: this.lastTurnEnd,
      message: this.message,
      readOnly: false,
      canFork: supportsOperation(this.link?.client.agentCapabilities, 'fork'),
      canSteer: this.link?.client.canSteer ?? false,
      missingAgent: this.agentMissing ? this.agentValue.id : null,
      ...sessionPanelFields(s),
      queuedPrompts: this.queue.forPanel(),
      context: this.context.chips(),
      permissions: this.permissionsForPanel(),
      elicitations: this.elicitations.pending(this.sessionId),
      notices: this.o.store.notices(this.sessionId),
      // Terminal cards of the earlier transcript keep their output too.
      ...(this.earlier ? { terminals: { ...this.o.store.session(this.earlier.sessionId)?.terminals, ...s?.terminals } } : {}),
      earlier: this.earlierForPanel(),
      changeSets: this.o.review?.views(this.sessionId) ?? [],
    };
  }

  /** Output and exit of a terminal we run for the agent (v1), recorded for the session it runs in. */
  terminalEvent(terminalId: string, append: string, exit?: { exitCode: number | null; signal: string | null }): void {
    const sessionId = this.sessionId;
    if (sessionId !== null) this.record({ event: 'terminal', sessionId, terminalId, append, ...(exit ? { exit } : {}) });
  }

  /** The turns' Changes summaries changed (their saved form): recorded in the store, saved with the chat. */
  recordChanges(saved: unknown): void {
    this.record({ event: 'changes', saved });
  }

  /** Resolves when no turn is running and nothing is queued (or the agent is gone). */
  whenIdle(): Promise<void> {
    return this.queue.whenSettled(this.isSettled());
  }

  // ---------------------------------------------------------------- lifecycle

  /** Starts the agent and attaches a session (resume or load the restored one, else a new one); a no-op while connected. */
  start(): Promise<void> {
    if (this.agentMissing) {
      this.fail(missingAgentText(this.agentValue.id));
      return Promise.resolve();
    }
    // A start in flight is awaited, not skipped: the link exists before its session is attached.
    if (this.connecting) return this.connecting;
    if (this.link && !this.link.client.isClosed && this.turn !== 'error') return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Stops the agent and starts it again, reattaching the same session without duplicating entries. */
  async restart(): Promise<void> {
    this.o.log('info', `restarting ${this.agent.name}`);
    this.dropLink('restart requested');
    this.supervisor.manualRestart();
    this.clearNotices();
    await this.start();
  }

  private async connect(): Promise<void> {
    this.dropLink('reconnecting'); // never two agents for one session
    this.conformance.finish();
    this.earlierFindings = [...this.findings()];
    this.conformance = new ConformanceChecker({ protocolVersion: this.o.settings().protocolVersion });
    this.setTurn('starting', `Starting ${this.agent.name}…`);
    let link: AgentLink;
    try {
      link = await this.o.connect({
        agent: this.agent,
        cwd: this.o.cwd,
        handlers: this.o.handlers(this),
        permissions: this.broker,
        protocolVersion: this.o.settings().protocolVersion,
        terminalAuth: this.o.ui.runTerminalAuth !== undefined,
        tap: (dir, msg, raw, checked) => this.onWire(dir, msg, raw, checked),
        log: this.o.log,
        onInvalidLine: (text, reason, lost) => this.onInvalidLine(text, reason, lost),
        // Info, not debug: the agent's own complaints are the first thing to read when it misbehaves.
        onStderr: (text) => this.o.log('info', `[${this.agent.id} stderr] ${text.trimEnd()}`),
      });
    } catch (e) {
      this.fail(`Could not start ${this.agent.name} (${this.agent.command}): ${errorText(e)}`);
      return;
    }
    if (this.isDisposed) {
      link.dispose();
      return;
    }
    this.link = link;
    link.onExit((reason) => this.onExit(link, reason));
    try {
      const init = await this.timed('initialize', link.client.initialize());
      this.o.log('info', `${this.agent.name}: initialized, protocol ${init.protocolVersion}, capabilities ${JSON.stringify(init.agentCapabilities ?? {})}`);
      const sid = this.sessionId;
      if (sid !== null) this.supervisor.reattaching(sid);
      const how = await this.attachSession(link);
      this.supervisor.reattached(how === 'loaded');
      this.setTurn('idle', null);
      this.changes.fire([{ type: 'reset' }]);
      this.drainQueue();
    } catch (e) {
      if (this.link !== link) return; // exited meanwhile: onExit already said why
      if (e instanceof StartupTimeoutError) {
        // A silent agent stays silent: stop it, so Restart starts clean.
        this.fail(startupTimeoutText(this.agent, e));
        this.dropLink(e.message);
        return;
      }
      this.fail(`${this.agent.name} failed to start a session: ${errorText(e)}`);
    }
  }

  /** Bounds a startup request by `acpChat.startupTimeoutSeconds`. */
  private timed<T>(step: string, p: Promise<T>): Promise<T> {
    return withStartupTimeout(step, this.o.settings().startupTimeoutSeconds, p);
  }

  private sessionParams(): SessionParams {
    const mcpServers = this.o.settings().mcpServers.flatMap((raw, i) => {
      const r = zMcpServer.safeParse(raw);
      if (!r.success) this.o.log('warn', `acpChat.mcpServers[${i}] is not a valid ACP McpServer and was not sent: ${r.error.message}`);
      return r.success ? [r.data] : [];
    });
    return { cwd: this.o.cwd, mcpServers };
  }

  /**
   * Runs a session-creating call, signing in first when the agent answers auth_required. The call is
   * bounded by the startup timeout; choosing a sign-in method and signing in are not (they wait on the user).
   */
  private withAuth<T>(link: AgentLink, call: () => Promise<T>): Promise<T> {
    const terminal = this.o.ui.runTerminalAuth?.bind(this.o.ui);
    return link.client.withAuthRetry(
      () => this.timed('the session request', call()),
      (methods) => this.o.ui.chooseAuthMethod(this.agent.name, methods),
      terminal && ((m) => terminal(this.agent, m, this.o.cwd)),
    );
  }

  /**
   * A session operation (fork, rename, archive…) on the running agent, started first if need be, signing
   * in when it answers auth_required. Session commands (sessionCommands.ts) go through here.
   */
  async operate<T>(run: (client: AcpClient, params: SessionParams) => Promise<T>): Promise<T> {
    await this.start();
    const link = this.link;
    if (!link) throw new Error(`${this.agent.name} is not running`);
    return this.withAuth(link, () => run(link.client, this.sessionParams()));
  }


  private async attachSession(link: AgentLink): Promise<'resumed' | 'loaded' | 'new'> {
    const params = this.sessionParams();
    const auth: CallWrapper = (call) => this.withAuth(link, call);
    const known = this.sessionId;
    let failed: string | null = null;
    if (known !== null) {
      const failures: string[] = [];
      const how = await reattachSession(link.client, known, params, (m) => {
        failures.push(m);
        this.o.log('warn', m);
      }, auth, this.o.store.session(known) !== undefined && !this.supervisor.wantsReplay());
      if (how) {
        this.o.log('info', `${how} session ${known}`);
        return how;
      }
      failed = failures.at(-1) ?? `${this.agent.name} can neither resume nor load a session`;
    }
    const r = await auth(() => link.client.newSession(params));
    this.attach(r.sessionId);
    this.o.log('info', `new session ${r.sessionId}`);
    // Keep what the user saw: the old transcript stays on screen, read-only, above a marker saying why the
    // agent no longer remembers it; prompts go to the new session.
    if (known !== null && failed !== null) {
      // Remembered across reloads: the next reload reattaches the new session and still shows the old one.
      this.earlier = { sessionId: known, reason: failed };
      this.o.sinks.earlier?.({ sessionId: r.sessionId, earlierSessionId: known, reason: failed });
    }
    return 'new';
  }

  private onExit(link: AgentLink, reason: string): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.broker.cancelAll();
    this.elicitations.cancelAll();
    this.connectionEnded(false);
    this.fail(exitMessage(this.agent.name, reason, link.stderrTail(), this.supervisor.agentExited(reason)), 'exited');
  }

  /** `closing`: the chat itself goes (its window closes): a turn still running is marked interrupted too. */
  private dropLink(reason: string, closing = false): void {
    const link = this.link;
    this.link = undefined;
    this.broker.cancelAll();
    this.elicitations.cancelAll();
    if (link) this.connectionEnded(closing);
    link?.client.dispose(reason);
    link?.dispose();
  }

  private fail(message: string, turn: TurnState = 'error'): void {
    this.o.log('error', message);
    this.setTurn(turn, message);
    this.settleIdle();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.dropLink('the chat session was closed', true);
    this.settleIdle(true);
    super.dispose();
  }

  /** The agent's saved sessions (session/list), in the agent's order. */
  async listSessions(): Promise<readonly SessionInfo[]> {
    await this.start();
    return this.link ? listAllSessions(this.link.client, this.o.cwd) : [];
  }

  /**
   * Starts a fresh session on the same agent; the old one is closed (when the agent supports it, unless
   * `closeOld` is false: archiving closed it already) and stays in the tree.
   */
  async newSession(closeOld = true): Promise<void> {
    await this.start();
    const link = this.link;
    if (!link || this.turn === 'busy' || this.turn === 'cancelling') return;
    const old = this.sessionId;
    if (closeOld && old !== null && link.client.agentCapabilities?.sessionCapabilities?.close) {
      await link.client.closeSession(old).catch((e: unknown) => this.o.log('warn', `session/close of ${old} failed: ${errorText(e)}`));
    }
    try {
      const r = await this.withAuth(link, () => link.client.newSession(this.sessionParams()));
      this.switched(r.sessionId);
    } catch (e) {
      this.addNotice({ severity: 'error', title: `Could not start a new session: ${errorText(e)}` });
    }
  }

  /** Shows another session of this agent: resumed when we have its transcript, else loaded (replayed). */
  async openSession(sessionId: string): Promise<void> {
    await this.start();
    const link = this.link;
    if (!link || sessionId === this.sessionId) return;
    try {
      await openSession(link.client, sessionId, this.sessionParams(), this.o.store.session(sessionId) !== undefined, (call) => this.withAuth(link, call));
      this.switched(sessionId);
    } catch (e) {
      this.addNotice({ severity: 'error', title: `Could not open session ${sessionId}: ${errorText(e)}` });
    }
  }

  private switched(sessionId: string): void {
    this.clearNotices();
    this.attach(sessionId);
    if (this.earlier) this.o.sinks.earlier?.(null);
    this.earlier = null;
    this.changes.fire([{ type: 'reset' }]);
    this.treeChanges.fire();
  }

  // ---------------------------------------------------------------- turns

  /**
   * Sends a prompt, or queues it while a turn is running (one turn per session in flight). `steer`: while
   * a turn runs and the agent supports it, the prompt goes into that turn instead (see steerOrQueue).
   */
  prompt(text: string, images: readonly PromptImage[] = [], steer = false): void {
    const trimmed = text.trim();
    if (!trimmed && images.length === 0 && this.context.items().length === 0) return;
    // The chips go with this prompt (also when it is queued), and the prompt box starts empty again.
    const context = this.context.take();
    const prompt: QueuedPrompt = context.length ? { text: trimmed, images, context } : { text: trimmed, images };
    if (steer && this.turn === 'busy' && this.link?.client.canSteer) {
      this.emitPanel({ context: [] });
      void this.steerOrQueue(prompt);
      return;
    }
    this.enqueue(prompt);
  }

  /** The prompt the user just sent with the chips it takes, not sent here (an edit goes to a branch). */
  takePrompt(text: string, images: readonly PromptImage[]): QueuedPrompt {
    const context = this.context.take();
    this.emitPanel({ context: [] });
    return context.length ? { text: text.trim(), images, context } : { text: text.trim(), images };
  }

  /** Sends a prompt made elsewhere (a branch's first prompt), queued like any other. */
  send(prompt: QueuedPrompt): void {
    this.enqueue(prompt);
  }

  /** An edit of an earlier message begins: the chips become its context (the user's own come back at `endEdit`). */
  beginEdit(items: readonly Omit<ContextItem, 'id'>[]): void {
    this.context.beginEdit(items);
    this.emitPanel({ context: this.context.chips() });
  }

  /** The edit was sent or cancelled: the chips the user had before it are back. */
  endEdit(): void {
    if (this.context.endEdit()) this.emitPanel({ context: this.context.chips() });
  }

  /** Retry: the session's last user message (the store's record of it), sent again in this session. */
  retry(): void {
    const last = this.sessionId === null ? undefined : lastUserMessage(this.o.store.session(this.sessionId)?.entries ?? []);
    if (last) this.enqueue(promptOfMessage(last.content));
  }

  private enqueue(prompt: QueuedPrompt): void {
    this.queue.push(prompt);
    this.emitPanel({ queuedPrompts: this.queue.forPanel(), context: [] });
    if (this.turn === 'exited' || this.turn === 'error') void this.restart();
    else this.drainQueue();
  }

  /**
   * `_session/steering` into the running turn. The store shows the prompt once the turn took it. When no
   * turn was running any more it is queued (and so sent as the next turn); when the agent could not take
   * it, it is queued too, and a notice says so.
   */
  private async steerOrQueue(prompt: QueuedPrompt): Promise<void> {
    const link = this.link;
    const sid = this.sessionId;
    if (!link || sid === null) return this.enqueue(prompt);
    let failure: string | null;
    try {
      const r = await link.client.steer(sid, await this.promptBlocks(prompt, link.client.agentCapabilities));
      failure = steered(r) || r.outcome === 'promptRequired' ? null : `the agent answered "${r.outcome}"${r.reason ? ` (${r.reason})` : ''}`;
      if (steered(r)) return;
    } catch (e) {
      failure = errorText(e);
    }
    if (this.link !== link) return;
    if (failure !== null) this.addNotice({ severity: 'warning', title: 'The message could not be steered into the running turn; it was queued instead.', description: failure });
    this.enqueue(prompt);
  }

  /** Attaches editor context to the next prompt; the same file and range added twice is kept once. */
  addContext(item: Omit<ContextItem, 'id'>): void {
    if (this.context.add(item)) this.emitPanel({ context: this.context.chips() });
  }

  removeContext(id: string): void {
    if (this.context.remove(id)) this.emitPanel({ context: this.context.chips() });
  }

  /** The context attached to the next prompt (for tests and the API). */
  contextItems(): readonly ContextItem[] {
    return this.context.items();
  }

  removeQueued(id: string): void {
    if (this.queue.remove(id)) this.emitPanel({ queuedPrompts: this.queue.forPanel() });
  }

  editQueued(id: string, text: string): void {
    if (this.queue.edit(id, text)) this.emitPanel({ queuedPrompts: this.queue.forPanel() });
  }

  moveQueued(id: string, offset: number): void {
    if (this.queue.move(id, offset)) this.emitPanel({ queuedPrompts: this.queue.forPanel() });
  }

  /** session/cancel: pending permission requests are answered `cancelled`, open tool calls shown cancelled. */
  cancel(): void {
    const client = this.link?.client;
    const sid = this.sessionId;
    if (!client || sid === null || (this.turn !== 'busy' && this.turn !== 'cancelling')) return;
    this.setTurn('cancelling', null);
    this.supervisor.cancelRequested();
    client.cancel(sid);
  }

  private drainQueue(): void {
    if (this.turn !== 'idle') return;
    const next = this.queue.shift();
    if (next === undefined) {
      this.settleIdle();
      return;
    }
    this.emitPanel({ queuedPrompts: this.queue.forPanel() });
    void this.runTurn(next);
  }

  /** The content blocks of a prompt: its text (with @-mentions resolved), context and images the agent accepts. */
  private async promptBlocks({ text, images, context, carried }: QueuedPrompt, caps: AgentCapabilities | undefined): Promise<ContentBlock[]> {
    const blocks: ContentBlock[] = text ? (this.o.buildPrompt ? await this.o.buildPrompt(text, caps) : [{ type: 'text' as const, text }]) : [];
    if (context?.length) blocks.push(...contextBlocks(context, caps?.promptCapabilities?.embeddedContext === true));
    if (images.length && caps?.promptCapabilities?.image === true) {
      for (const img of images) blocks.push({ type: 'image', mimeType: img.mimeType, data: img.data });
    } else if (images.length) {
      this.addNotice({ severity: 'warning', title: `${this.agent.name} does not accept images; the prompt was sent without them.` });
    }
    blocks.push(...(carried ?? []));
    if (blocks.length === 0) blocks.push({ type: 'text', text: '(image)' }); // a prompt must not be empty
    return blocks;
  }

  private async runTurn(prompt: QueuedPrompt): Promise<void> {
    const link = this.link;
    const sid = this.sessionId;
    if (!link || sid === null) return;
    this.setTurn('busy', null);
    this.endTurnAs(null);
    const gen = ++this.turnGen;
    this.supervisor.turnStarted(prompt);
    // The turn's entries are the ones after these (the list is append-only), for its Changes summary.
    const entriesBefore = this.o.store.session(sid)?.entries.length ?? 0;
    this.o.review?.turnStarted(sid);
    let ended: TurnEnd = null;
    try {
      const r = await link.client.prompt(sid, await this.promptBlocks(prompt, link.client.agentCapabilities));
      if (r.stopReason === 'cancelled') ended = 'cancelled';
      if (r.stopReason === 'refusal') this.addNotice({ severity: 'warning', title: `${this.agent.name} refused this request.`, description: 'The prompt and the answer are left out of the next turn.' });
      else if (r.stopReason === 'max_tokens' || r.stopReason === 'max_turn_requests') this.addNotice({ severity: 'warning', title: `The turn stopped early (${r.stopReason}).`, description: 'Send "continue" to let the agent go on.' });
    } catch (e) {
      // The connection closed: the link's exit follows and judges the turn (onExit), not a failed prompt.
      if (e instanceof AcpClosedError) return;
      // When the agent exited, onExit explained it.
      if (this.link === link) this.addNotice({ severity: 'error', title: `The prompt failed: ${errorText(e)}`, description: 'Try again, or restart the agent.' });
      ended = 'error';
    }
    // After an exit the supervisor already knows (and keeps the prompt whose delivery is uncertain).
    if (this.link === link && this.turnGen === gen) this.supervisor.turnEnded();
    await this.endReview(sid, entriesBefore);
    if (this.link !== link || this.turnGen !== gen) return;
    this.endTurnAs(ended);
    this.setTurn('idle', null);
    this.drainQueue();
  }

  /** How the last turn ended (Retry is offered after an error or a cancel). */
  private endTurnAs(end: TurnEnd): void {
    if (this.lastTurnEnd === end) return;
    this.lastTurnEnd = end;
    this.emitPanel({ lastTurnEnd: end });
  }

  /** Shows the turn's Changes summary (before the turn counts as over, so a test or the next turn sees it). */
  private async endReview(sessionId: string, entriesBefore: number): Promise<void> {
    const entries = this.o.store.session(sessionId)?.entries ?? [];
    try {
      await this.o.review?.turnEnded(sessionId, entries.slice(entriesBefore), entries.at(-1)?.key ?? null);
    } catch (e) {
      this.o.log('error', `could not summarize the turn's changes: ${errorText(e)}`);
    }
  }

  /** The chat's Changes review (undefined where the chat has none, a capture). */
  get review(): ChangeReview | undefined {
    return this.o.review;
  }

  reviewChanges(setId: string, index: number | null, action: ReviewAction): void {
    void this.o.review?.act(setId, index, action);
  }

  // ---------------------------------------------------------------- wire -> store -> panel

  /** A line that was skipped (not JSON-RPC, or unusable): logged, recorded as a capture note and checked. */
  private onInvalidLine(text: string, reason: string, lost: boolean): void {
    this.o.log('warn', `${this.agent.name} sent a line that was skipped (${reason}): ${text.slice(0, 300)}`);
    // A skipped message may be part of the transcript: say so where the user looks.
    if (lost) this.addNotice({ severity: 'warning', title: `A message from ${this.agent.name} was skipped: ${reason.slice(0, 200)}.`, description: 'The agent log (ACP: Show Agent Log) has its beginning.' });
    this.wireSeq++;
    const seq = this.wireSeq;
    const note = { text: SKIPPED_LINE_NOTE, reason, raw: text };
    this.guard('capture', seq, () => this.o.sinks.capture('note', note, seq));
    this.conformance.observeNote(note, seq);
    this.treeChanges.fire();
  }

  private onWire(dir: Direction, msg: unknown, raw?: string, checked?: CheckedMessage): void {
    this.wireSeq++;
    const seq = this.wireSeq;
    // Each sink is guarded on its own: a recording or persistence failure must cost neither the store
    // its message nor the connection its delivery (the transport also guards the whole tap).
    this.guard('capture', seq, () => this.o.sinks.capture(dir, msg, seq, raw));
    this.guard('check', seq, () => this.conformance.observe(dir, msg, seq, checked));
    this.behaviour.observe(dir, msg);
    if (dir === 'agent->client') this.supervisor.traffic(msg);
    const changes = checked ? this.o.store.ingestChecked(dir, checked, seq) : this.o.store.ingest(dir, msg, seq);
    this.guard('save', seq, () => this.o.sinks.persist(dir, msg, changes, seq));
    if (dir === 'agent->client' && changes.length) this.supervisor.stored(changes.flatMap((c) => (c.type === 'entryInserted' || c.type === 'entryUpdated') && c.sessionId === this.sessionId ? [c.entry.key] : []));
    if (changes.length) this.applyStoreChanges(changes);
  }

  /**
   * The one way in for what the client adds that is not on the wire (terminal output it runs, notices,
   * Changes): numbered like a message, kept in the capture as a note, reduced by the store and saved.
   */
  private record(event: ClientEvent): void {
    this.wireSeq++;
    const seq = this.wireSeq;
    this.guard('capture', seq, () => this.o.sinks.capture('note', { text: CLIENT_EVENT_NOTE, event }, seq));
    const changes = this.o.store.record(event, seq);
    this.guard('save', seq, () => this.o.sinks.recorded?.(event));
    if (changes.length) this.applyStoreChanges(changes);
  }

  private guard(what: string, seq: number, run: () => void): void {
    try {
      run();
    } catch (e) {
      this.o.log('error', `could not ${what} message ${seq}: ${errorText(e)}`);
    }
  }

  private applyStoreChanges(changes: readonly StoreChange[]): void {
    const { panel: changed, diagnostics } = panelChangesFor(changes, this.sessionId, () => this.current());
    // The panel lists the earlier transcript first: this session's indexes count from after it.
    const offset = this.earlier ? this.earlierEntries().length : 0;
    const panel = offset ? changed.map((c) => (c.type === 'inserted' ? { ...c, index: c.index + offset } : c)) : changed;
    for (const d of diagnostics) this.o.log(d.severity === 'error' ? 'error' : 'warn', `message store: ${d.message}${d.line !== undefined ? ` (message ${d.line})` : ''}`);
    this.treeChanges.fire();
    if (panel.length) this.changes.fire(panel);
  }

  private addNotice(n: Notice): void {
    this.record({ event: 'notice', sessionId: this.sessionId, notice: n });
  }

  /**
   * What the gone connection asked can no longer be answered: the store marks it. After an agent's exit
   * or a restart the recovery supervisor speaks for the turn; when the chat closes (`turn`), nobody else does.
   */
  private connectionEnded(turn: boolean): void {
    if (this.o.store.hasUnanswered()) this.record({ event: 'connection_ended', turn });
  }

  private clearNotices(): void {
    if (this.o.store.notices(this.sessionId).length > 0) this.record({ event: 'notices_cleared', sessionId: this.sessionId });
  }

  // ---------------------------------------------------------------- webview messages

  noticeAction(action: NoticeActionId): void {
    runNoticeAction(this.supervisor, action, { cancel: () => this.cancel(), restart: () => this.restart(), resend: (p) => this.enqueue(p) });
  }

  handleWebviewMessage(m: WebviewToHost): void {
    dispatchWebviewMessage(this, this.o.ui, m, (message) => this.o.log('warn', message));
  }

  /** session/set_mode; a failure shows as a notice (the store learns the new mode from the response). */
  setMode(modeId: string): void {
    const sid = this.sessionId;
    if (sid !== null) this.link?.client.setMode(sid, modeId).catch((e: unknown) => this.addNotice({ severity: 'error', title: `Could not switch mode: ${errorText(e)}` }));
  }

  /** session/set_config_option; the response (the complete list) reaches the store through the tap. */
  setConfigOption(configId: string, value: string | boolean): void {
    const sid = this.sessionId;
    if (sid !== null) this.link?.client.setConfigOption(sid, configId, value).catch((e: unknown) => this.addNotice({ severity: 'error', title: `Could not change ${configId}: ${errorText(e)}` }));
  }

  // ---------------------------------------------------------------- helpers

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

  private permissionsForPanel(): PanelState['permissions'] {
    return this.sessionId === null ? [] : this.broker.pending(this.sessionId);
  }

  private setTurn(turn: TurnState, message: string | null): void {
    this.turn = turn;
    this.message = message;
    this.emitPanel({ turn, message, sessionId: this.sessionId });
  }

  private emitPanel(fields: Partial<PanelState>): void {
    this.changes.fire([{ type: 'panel', fields }]);
  }

  private isSettled(): boolean {
    return this.queue.length === 0 && (this.turn === 'idle' || this.turn === 'exited' || this.turn === 'error');
  }

  private settleIdle(force = false): void {
    if (!force && !this.isSettled()) return;
    this.queue.settle();
  }
}

/** Why a chat whose agent the settings do not name does not start, and what brings it back. */
export function missingAgentText(agentId: string): string {
  return `Agent "${agentId}" is not configured: add it (Add Agent…) or name it in the acpChat.agents setting. This chat starts as soon as the settings name it; the transcript is kept.`;
}
