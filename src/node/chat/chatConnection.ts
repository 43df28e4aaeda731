/**
 * ChatConnection: a chat's link to its agent, as Zed's `AgentConnection` is to its `AcpThread`. It starts
 * the agent, initializes it, signs in when asked, attaches a session (resume or load the chat's own, else
 * a new one), bounds startup by the startup timeout, and handles exit and restart; the recovery
 * supervisor decides when to reconnect, this does it.
 *
 * Owns: the agent link and its epoch (the only holder of the AcpClient: the rest asks through the door,
 * agentDoor.ts), the start in flight, the chat's agent (and whether the settings name it), the recovery
 * supervisor, and the earlier session shown read-only after a failed reattach. It is the only writer of
 * the attached session: `attach` records it with `MessageStore.attach` (the store is its one owner) and
 * the chat's journal saves it (`ChatSinks.attached`). The turn and the panel are the thread's (`ConnectionEvents`).
 */
import type { AgentConfig } from '../../common/config/settings';
import type { TurnState } from '../../common/webview/contract';
import type { SessionInfo } from '../../common/protocol/requests';
import { supportsOperation, type SessionOperation } from '../../common/protocol/sessionOps';
import { ConnectionSupervisor } from '../../common/recovery/supervisor';
import { systemClock } from '../../common/recovery/timers';
import type { QueuedPrompt } from '../../common/promptQueue';
import { errorText } from '../../common/util/errors';
import type { AgentLink } from '../acp/agentLink';
import type { AcpClient } from '../acp/client';
import { listAllSessions, openSession, reattachSession, type CallWrapper, type SessionParams } from '../acp/sessions';
import { LinkAgent, sessionOps, type AgentDoor, type AgentFacts, type SessionOps, type TurnAgent } from './agentDoor';
import { StartupTimeoutError, startupTimeoutText, withStartupTimeout } from './startupTimeout';
import { exitMessage, missingAgentText } from './connectionRecovery';
import { offlineMessage, replaysAfterDrop, retriesConnect, retryLimits, startingText } from './remoteRecovery';
import { chatSessionParams, mcpSkippedNotice } from './sessionParams';
import { chatLinkOptions, withSignIn } from './chatLink';
import type { ConnectionDeps } from './connectionEvents';

export class ChatConnection implements AgentDoor {
  private link: AgentLink | undefined;
  /** The agent of `link` (the door's views of its client), and the count of links made and dropped. */
  private linkAgent: LinkAgent | undefined;
  private epochValue = 0;
  private readonly ops: SessionOps;
  private connecting: Promise<void> | undefined;
  private agentValue: AgentConfig;
  /** The settings do not name this chat's agent: nothing starts until they do (see agentConfigured). */
  private agentMissing: boolean;
  /** The session whose reattach failed, shown read-only above the new one (until another session is chosen). */
  private earlierValue: { readonly sessionId: string; readonly reason: string } | null = null;
  private closed = false;
  /** Restarts after a crash, the uncertain prompt, stalls: decided there, done here. */
  readonly supervisor: ConnectionSupervisor<QueuedPrompt>;

  constructor(private readonly d: ConnectionDeps) {
    const o = d.options;
    this.agentValue = o.agent;
    this.agentMissing = o.agentMissing === true;
    this.ops = sessionOps(
      (run) => this.operate(run),
      () => this.link?.client,
      o.cwd,
    );
    this.supervisor = new ConnectionSupervisor<QueuedPrompt>(
      {
        clock: o.clock ?? systemClock,
        agentName: o.agent.name,
        settings: () => o.settings(),
        reconnect: () => void this.start(),
        notice: (key, n) =>
          d.traffic.record(n ? { event: 'notice', sessionId: this.sessionId, notice: { ...n, key } } : { event: 'notice_removed', sessionId: this.sessionId, key }),
        abandonTurn: () => this.d.events().abandonTurn(),
        promptEntry: () => this.d.events().promptEntry(),
        remote: o.agent.url !== undefined,
      },
      retryLimits(o.agent),
    );
  }

  /** The chat's saved choice of session (and the earlier one shown above it), taken once the thread exists. */
  restore(): void {
    const o = this.d.options;
    // The store is the one owner of the attached session; this chat's choice is recorded there (and saved) once.
    if (o.store.attachedSessionId() !== o.restoredSessionId) this.attach(o.restoredSessionId);
    // The link is the store's (a client event in the chat's journal); a chat saved before that has it in `restoredEarlier`.
    const link = o.store.earlierLink() ?? o.restoredEarlier;
    if (link && link.sessionId === o.restoredSessionId) {
      this.earlierValue = { sessionId: link.earlierSessionId, reason: link.reason };
      if (!o.store.earlierLink()) this.d.traffic.record({ event: 'earlier', link });
    }
  }

  get agent(): AgentConfig {
    return this.agentValue;
  }
  get missingAgent(): string | null {
    return this.agentMissing ? this.agentValue.id : null;
  }
  get sessionId(): string | null {
    return this.d.options.store.attachedSessionId();
  }
  get earlier(): { readonly sessionId: string; readonly reason: string } | null {
    return this.earlierValue;
  }
  get epoch(): number {
    return this.epochValue;
  }
  get running(): boolean {
    return this.linkAgent?.closed === false;
  }
  facts(): AgentFacts | undefined {
    return this.linkAgent;
  }
  /** The agent of the current link, for the thread's turns (undefined: none). */
  turnAgent(): TurnAgent | undefined {
    return this.linkAgent;
  }
  operation<K extends SessionOperation>(op: K): SessionOps[K] | undefined {
    if (!supportsOperation(this.link?.client.agentCapabilities, op)) return undefined;
    return this.ops[op];
  }
  /** The one writer of `link`: a new link or none starts a new epoch. */
  private setLink(link: AgentLink | undefined): void {
    if (link === this.link) return;
    this.link = link;
    this.epochValue++;
    this.linkAgent = link && new LinkAgent(link.client, this.epochValue);
  }
  stderrTail(): string {
    return this.link?.stderrTail() ?? '';
  }

  /**
   * The settings name an agent (again): a chat that waits for its agent takes it and starts. Never a
   * different agent than the chat's own, and never a change for a chat whose agent was configured.
   */
  agentConfigured(agent: AgentConfig): void {
    if (!this.agentMissing || agent.id !== this.agentValue.id || this.closed) return;
    this.agentValue = agent;
    this.agentMissing = false;
    this.d.options.log('info', `agent '${agent.id}' is configured now: starting ${agent.name}`);
    this.d.events().panel({ agentName: agent.name, missingAgent: null });
    void this.start();
  }

  /** The only writer of the attached session: the store records it, the chat's journal saves it. */
  private attach(sessionId: string | null): void {
    const { store, sinks, log } = this.d.options;
    // Notices from before the first session (a failed start, a skipped line) stay on screen with it.
    const carried = this.sessionId === null && sessionId !== null ? store.notices(null) : [];
    store.attach(sessionId);
    try {
      sinks.attached?.(sessionId);
    } catch (e) {
      log('error', `could not save the attached session ${sessionId ?? '(none)'}: ${errorText(e)}`);
    }
    if (carried.length === 0) return;
    for (const notice of carried) this.d.traffic.record({ event: 'notice', sessionId, notice });
    this.d.traffic.record({ event: 'notices_cleared', sessionId: null });
  }

  /** Starts the agent and attaches a session (resume or load the restored one, else a new one); a no-op while connected. */
  start(): Promise<void> {
    if (this.agentMissing) {
      this.fail(missingAgentText(this.agentValue.id));
      return Promise.resolve();
    }
    // A start in flight is awaited, not skipped: the link exists before its session is attached.
    if (this.connecting) return this.connecting;
    if (this.link && !this.link.client.isClosed && this.d.events().turnState !== 'error') return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Stops the agent and starts it again, reattaching the same session without duplicating entries. */
  async restart(): Promise<void> {
    this.d.options.log('info', `restarting ${this.agent.name}`);
    // A start in flight (a recovery, an earlier restart) loses its link here and ends with no session: taken
    // as this restart's own start, it left the chat "Starting…" for good. So it ends first.
    const inFlight = this.connecting;
    this.dropLink('restart requested');
    this.supervisor.manualRestart();
    this.d.traffic.clearNotices();
    await inFlight?.catch(() => undefined);
    await this.start();
  }

  private async connect(): Promise<void> {
    const o = this.d.options;
    this.dropLink('reconnecting'); // never two agents for one chat
    this.d.traffic.newConnection(o.settings().protocolVersion);
    this.d.events().setTurn('starting', startingText(this.agent));
    let link: AgentLink;
    try {
      link = await o.connect(chatLinkOptions(o, this.agent, this.d.handlers(), this.d.broker, this.d.traffic));
    } catch (e) {
      if (retriesConnect(this.agent, e)) return this.lost(errorText(e));
      return this.fail(`Could not start ${this.agent.name} (${this.agent.url ?? this.agent.command}): ${errorText(e)}`);
    }
    if (this.closed) {
      link.dispose();
      return;
    }
    this.setLink(link);
    link.onExit((reason) => this.lost(reason, link));
    link.client.onSessionUpdate((n) => this.link === link && this.d.events().sessionUpdate(n));
    try {
      const init = await this.timed('initialize', link.client.initialize());
      o.log('info', `${this.agent.name}: initialized, protocol ${init.protocolVersion}, capabilities ${JSON.stringify(init.agentCapabilities ?? {})}`);
      const sid = this.sessionId;
      if (sid !== null) this.supervisor.reattaching(sid);
      const how = await this.attachSession(link);
      this.supervisor.reattached(how === 'loaded');
      this.d.events().ready();
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
    return withStartupTimeout(step, this.d.options.settings().startupTimeoutSeconds, p);
  }

  /** `fresh`: for a session/new, which also carries the user's system prompt (sessionParams.ts). */
  private sessionParams(fresh = false): SessionParams {
    const skipped = (names: readonly string[]) => this.d.traffic.notice(mcpSkippedNotice(this.agent.name, names));
    return chatSessionParams(this.d.options, this.link?.client.agentCapabilities, skipped, fresh);
  }

  /**
   * Runs a session-creating call, signing in first when the agent answers auth_required. The call is
   * bounded by the startup timeout; choosing a sign-in method and signing in are not (they wait on the user).
   */
  private withAuth<T>(link: AgentLink, call: () => Promise<T>): Promise<T> {
    return withSignIn(link, this.d.options, this.agent, () => this.timed('the session request', call()));
  }

  /**
   * A session operation (fork, rename, archive…) on the running agent, started first if need be, signing
   * in when it answers auth_required. The handles of `operation` go through here.
   */
  private async operate<T>(run: (client: AcpClient, params: SessionParams) => Promise<T>): Promise<T> {
    await this.start();
    const link = this.link;
    if (!link) throw new Error(`${this.agent.name} is not running`);
    return this.withAuth(link, () => run(link.client, this.sessionParams()));
  }

  private async attachSession(link: AgentLink): Promise<'resumed' | 'loaded' | 'new'> {
    const o = this.d.options;
    const params = this.sessionParams();
    const auth: CallWrapper = (call) => this.withAuth(link, call);
    const known = this.sessionId;
    let failed: string | null = null;
    if (known !== null) {
      const failures: string[] = [];
      const how = await reattachSession(
        link.client,
        known,
        params,
        (m) => {
          failures.push(m);
          o.log('warn', m);
        },
        auth,
        o.store.session(known) !== undefined && !this.supervisor.wantsReplay() && !replaysAfterDrop(this.agent),
      );
      if (how) {
        o.log('info', `${how} session ${known}`);
        return how;
      }
      failed = failures.at(-1) ?? `${this.agent.name} can neither resume nor load a session`;
    }
    const r = await auth(() => link.client.newSession(this.sessionParams(true)));
    this.attach(r.sessionId);
    o.log('info', `new session ${r.sessionId}`);
    // Keep what the user saw: the old transcript stays on screen, read-only, above a marker saying why the
    // agent no longer remembers it; prompts go to the new session.
    if (known !== null && failed !== null) {
      // Remembered across reloads: the next reload reattaches the new session and still shows the old one.
      this.earlierValue = { sessionId: known, reason: failed };
      this.d.traffic.record({ event: 'earlier', link: { sessionId: r.sessionId, earlierSessionId: known, reason: failed } });
    }
    return 'new';
  }

  /** The agent (`link`) exited, or a remote agent's link dropped or could not be made: the supervisor decides what next. */
  private lost(reason: string, link?: AgentLink): void {
    if (link && this.link !== link) return;
    this.setLink(undefined);
    this.d.broker.cancelAll();
    this.d.elicitations.cancelAll();
    this.connectionEnded(false);
    const decision = this.supervisor.agentExited(reason);
    this.fail(
      this.agent.url !== undefined ? offlineMessage(this.agent, reason, decision, Date.now()) : exitMessage(this.agent.name, reason, link?.stderrTail() ?? '', decision),
      'exited',
    );
  }

  /** `closing`: the chat itself goes (its window closes): a turn still running is marked interrupted too. */
  private dropLink(reason: string, closing = false): void {
    const link = this.link;
    this.setLink(undefined);
    this.d.broker.cancelAll();
    this.d.elicitations.cancelAll();
    if (link) this.connectionEnded(closing);
    link?.client.dispose(reason);
    link?.dispose();
  }

  /**
   * What the gone connection asked can no longer be answered: the store marks it. After an agent's exit
   * or a restart the recovery supervisor speaks for the turn; when the chat closes (`turn`), nobody else does.
   */
  private connectionEnded(turn: boolean): void {
    if (this.d.options.store.hasUnanswered()) this.d.traffic.record({ event: 'connection_ended', turn });
  }

  private fail(message: string, turn: TurnState = 'error'): void {
    this.d.options.log('error', message);
    this.d.events().failed(message, turn);
  }

  /** The chat closes: the agent stops, and a start still in flight drops its link when it arrives. */
  close(): void {
    this.dropLink('the chat session was closed', true);
    this.closed = true;
  }

  async listSessions(): Promise<readonly SessionInfo[]> {
    await this.start();
    return this.link ? listAllSessions(this.link.client, this.d.options.cwd) : [];
  }

  /** The old session is closed (when the agent supports it, unless `closeOld` is false: archiving closed it already) and stays in the tree. */
  async newSession(closeOld = true): Promise<void> {
    await this.start();
    const link = this.link;
    const turn = this.d.events().turnState;
    if (!link || turn === 'busy' || turn === 'cancelling') return;
    const old = this.sessionId;
    if (closeOld && old !== null && link.client.agentCapabilities?.sessionCapabilities?.close) {
      await link.client.closeSession(old).catch((e: unknown) => this.d.options.log('warn', `session/close of ${old} failed: ${errorText(e)}`));
    }
    try {
      const r = await this.withAuth(link, () => link.client.newSession(this.sessionParams(true)));
      this.switched(r.sessionId);
    } catch (e) {
      this.d.traffic.notice({ severity: 'error', title: `Could not start a new session: ${errorText(e)}` });
    }
  }

  async openSession(sessionId: string): Promise<void> {
    await this.start();
    const link = this.link;
    if (!link || sessionId === this.sessionId) return;
    try {
      await openSession(link.client, sessionId, this.sessionParams(), this.d.options.store.session(sessionId) !== undefined, (call) => this.withAuth(link, call));
      this.switched(sessionId);
    } catch (e) {
      this.d.traffic.notice({ severity: 'error', title: `Could not open session ${sessionId}: ${errorText(e)}` });
    }
  }

  private switched(sessionId: string): void {
    this.d.traffic.clearNotices();
    this.attach(sessionId);
    if (this.earlierValue) this.d.traffic.record({ event: 'earlier', link: null });
    this.earlierValue = null;
    this.d.events().switched();
  }

  /** session/set_mode; a failure shows as a notice (the store learns the new mode from the response). */
  setMode(modeId: string): void {
    const sid = this.sessionId;
    if (sid !== null) this.link?.client.setMode(sid, modeId).catch((e: unknown) => this.d.traffic.notice({ severity: 'error', title: `Could not switch mode: ${errorText(e)}` }));
  }

  /** session/set_config_option; the response (the complete list) reaches the store through the tap. */
  setConfigOption(configId: string, value: string | boolean): void {
    const sid = this.sessionId;
    if (sid !== null)
      this.link?.client
        .setConfigOption(sid, configId, value)
        .catch((e: unknown) => this.d.traffic.notice({ severity: 'error', title: `Could not change ${configId}: ${errorText(e)}` }));
  }
}
