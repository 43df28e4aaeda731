/**
 * AcpClient: the client side of one ACP connection, on vscode-jsonrpc's `MessageConnection`.
 *
 *   const client = new AcpClient({ input: child.stdout, output: child.stdin, handlers, clientInfo,
 *     tap: (dir, msg, raw, checked) =>   // the store is fed from the wire taps, each message checked once
 *       checked ? store.ingestChecked(dir, checked, ++seq) : store.ingest(dir, msg, ++seq) });
 *   await client.initialize();
 *   const { sessionId } = await client.newSession({ cwd, mcpServers: [] });
 *   const { stopReason } = await client.prompt(sessionId, [{ type: 'text', text: 'hi' }]);
 *   client.cancel(sessionId);   // session/cancel + answers pending permission requests "cancelled"
 *   client.dispose();
 *
 * Why it looks like this:
 * - `tap` sees every valid message of both directions in wire order; the store and the capture are fed
 *   from it (not from `onSessionUpdate`, which is for live reactions), so they see both directions and
 *   updates that arrive before `session/new` answers or after `session/prompt` answers.
 * - The two directions' request ids are separate spaces; vscode-jsonrpc keeps them apart already.
 * - vscode-jsonrpc does not reject pending requests when the stream ends; we do, with a clear
 *   message (plus `describeClose()`, e.g. the agent's exit status and stderr tail).
 * - Results are validated with zod; an invalid result is an AcpProtocolError, not a silent `any`.
 * It is the one typed surface of what we ask the agent: one short method per ACP request (v1 and the v2
 * draft), each with its result schema. What the agent asks of us is `agentRequests.ts`; the handshake's
 * shapes `negotiation.ts`; the options `clientOptions.ts`; the transport, the handlers (handlers.ts),
 * session operations (sessions.ts) and errors (errors.ts) live elsewhere too.
 */
import { Emitter, type Event, type IDisposable } from '../../common/util/lifecycle';
import * as z from 'zod';
import type { ContentBlock } from '../../common/protocol/content';
import { AgentMethods, AgentMethodsV2, PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import {
  zEmptyResult,
  zListSessionsResult,
  zNewSessionResult,
  zPromptResult,
  zPromptResultV2,
  zSessionStateResult,
  zSetConfigOptionResult,
  zStateUpdate,
} from '../../common/protocol/requests';
import type {
  AgentCapabilities,
  AuthMethod,
  ClientCapabilities,
  Implementation,
  InitializeResult,
  ListSessionsParams,
  ListSessionsResult,
  LoadSessionParams,
  McpServer,
  NewSessionParams,
  NewSessionResult,
  PromptResult,
  ResumeSessionParams,
  SessionNotification,
  SessionStateResult,
  SetConfigOptionResult,
} from '../../common/protocol/requests';
import { steeringParams, supportsSteering, zSteeringResult, type SteeringResult } from '../../common/protocol/steering';
import { zForkSessionResult, zSetSessionTitleResult, type ForkSessionParams, type ForkSessionResult, type SetSessionTitleResult } from '../../common/protocol/sessionOps';
import { PermissionBroker } from '../../common/permissionBroker';
import { createAcpConnection } from '../transport/connection';
import type { AcpConnection, LogFn } from '../transport/connection';
import { AcpClosedError, AcpProtocolError } from './errors';
import { Elicitations } from './elicitations';
import { serveAgentRequests } from './agentRequests';
import { withAuthRetry, type ChooseAuthMethod, type RunTerminalAuth } from './authRetry';
import { OutstandingCalls } from './outstandingCalls';
import type { AcpClientOptions } from './clientOptions';
import { checkedInitializeResult, clientCapabilities, initializeParams } from './negotiation';
import { ConnectionSessions } from './connectionSessions';

export type { AcpClientOptions, Direction } from './clientOptions';

export class AcpClient implements IDisposable {
  private readonly acp: AcpConnection;
  private readonly log: LogFn;
  private readonly calls: OutstandingCalls;
  /** The one owner of the permission requests the agent waits on (the chat's, or this client's own). */
  private readonly permissions: PermissionBroker;
  /** Sessions of this connection (ours, and the subagents announced under them): the agent's requests must name one. */
  private readonly sessions: ConnectionSessions;
  private readonly elicitations: Elicitations | undefined;
  /** Prompts in flight by session, and whether the user cancelled one: an error reply then means "cancelled", a late permission request is answered so. */
  private readonly turns = new Map<string, { cancelled: boolean }>();
  private readonly updateEmitter = new Emitter<SessionNotification>();
  private readonly closeEmitter = new Emitter<string>();
  private closed = false;
  private disposed = false;
  private init: InitializeResult | undefined;

  /** Every `session/update`, in arrival order (also those outside any turn). */
  readonly onSessionUpdate: Event<SessionNotification> = this.updateEmitter.event;
  /** Fires once with a reason when the connection ends (agent exit, stream closed, or dispose). */
  readonly onDidClose: Event<string> = this.closeEmitter.event;

  constructor(private readonly opts: AcpClientOptions) {
    this.log = opts.log ?? (() => undefined);
    this.sessions = new ConnectionSessions(this.log);
    this.permissions = opts.permissions ?? new PermissionBroker();
    this.calls = new OutstandingCalls(opts.describeClose);
    this.acp = createAcpConnection({
      input: opts.input,
      output: opts.output,
      log: this.log,
      ...opts.limits,
      ...(opts.onInvalidLine ? { onInvalidLine: opts.onInvalidLine } : {}),
      tap: (direction, msg, raw, checked) => opts.tap?.(direction === 'in' ? 'agent->client' : 'client->agent', msg, raw, checked),
    });
    this.registerHandlers();
    this.elicitations = opts.handlers.elicitation ? new Elicitations(this.acp, opts.handlers.elicitation, this.log, this.sessions) : undefined;
    this.acp.connection.onClose(() => {
      const settled = opts.closeSettled ? Promise.race([opts.closeSettled(), new Promise((r) => setTimeout(r, 1000).unref())]) : Promise.resolve();
      void Promise.all([this.acp.whenDrained(), settled]).then(() => this.handleClose('the agent closed the connection'));
    });
    this.acp.connection.listen();
  }

  // ------------------------------------------------------------------ state

  get protocolVersion(): number | undefined {
    return this.init?.protocolVersion;
  }
  get agentCapabilities(): AgentCapabilities | undefined {
    return this.init?.agentCapabilities;
  }
  get authMethods(): readonly AuthMethod[] {
    return this.init?.authMethods ?? [];
  }
  get agentInfo(): Implementation | undefined {
    return this.init?.agentInfo;
  }
  /** The agent advertised `_session/steering` (`InitializeResponse._meta.steering.supported`). */
  get canSteer(): boolean {
    return supportsSteering(this.init?._meta);
  }
  get isClosed(): boolean {
    return this.closed;
  }

  /** Exactly what this client implements, derived from the handlers it was given. */
  get clientCapabilities(): ClientCapabilities {
    return clientCapabilities(this.opts);
  }

  // ------------------------------------------------------------------ client -> agent

  async initialize(): Promise<InitializeResult> {
    const asked = this.opts.protocolVersion ?? PROTOCOL_V1;
    const raw = await this.requestRaw(AgentMethods.initialize, initializeParams(asked, this.opts));
    this.init = checkedInitializeResult(raw, asked, (v) => this.dispose(`unsupported protocol version ${v}`));
    return this.init;
  }

  /** `authenticate` (v1) or `auth/login` (v2 draft), by the negotiated version. */
  authenticate(methodId: string): Promise<object> {
    const method = this.protocolVersion === PROTOCOL_V2 ? AgentMethodsV2.authLogin : AgentMethods.authenticate;
    return this.request(method, { methodId }, zEmptyResult);
  }

  newSession(params: NewSessionParams): Promise<NewSessionResult> {
    return this.request(AgentMethods.sessionNew, this.withMcpServers(params), zNewSessionResult);
  }

  /** Replays history as session/update notifications *before* it resolves (§7.2). */
  async loadSession(params: LoadSessionParams): Promise<SessionStateResult> {
    this.requireCapability(this.agentCapabilities?.loadSession === true, AgentMethods.sessionLoad);
    return this.request(AgentMethods.sessionLoad, this.withMcpServers(params), zSessionStateResult);
  }

  async resumeSession(params: ResumeSessionParams): Promise<SessionStateResult> {
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.resume, AgentMethods.sessionResume);
    return this.request(AgentMethods.sessionResume, this.withMcpServers(params), zSessionStateResult);
  }

  /** The v2 draft tags stdio MCP servers `"type": "stdio"` (v1 leaves stdio untagged); settings hold the v1 form. */
  private withMcpServers<P extends { mcpServers?: McpServer[] }>(params: P): P {
    if (this.protocolVersion !== PROTOCOL_V2 || !params.mcpServers) return params;
    return { ...params, mcpServers: params.mcpServers.map((m) => (m.type === undefined ? { ...m, type: 'stdio' as const } : m)) };
  }

  async listSessions(params: ListSessionsParams = {}): Promise<ListSessionsResult> {
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.list, AgentMethods.sessionList);
    return this.request(AgentMethods.sessionList, params, zListSessionsResult);
  }

  async closeSession(sessionId: string): Promise<object> {
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.close, AgentMethods.sessionClose);
    this.answerPendingPermissions(sessionId);
    return this.request(AgentMethods.sessionClose, { sessionId }, zEmptyResult);
  }

  /** `session/delete`: the agent forgets the session (it leaves `session/list`). */
  async deleteSession(sessionId: string): Promise<object> {
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.delete, AgentMethods.sessionDelete);
    this.answerPendingPermissions(sessionId);
    return this.request(AgentMethods.sessionDelete, { sessionId }, zEmptyResult);
  }

  /** Unstable `session/fork`: a new session with the source's context; the source is untouched. */
  async forkSession(params: ForkSessionParams): Promise<ForkSessionResult> {
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.fork, AgentMethods.sessionFork);
    return this.request(AgentMethods.sessionFork, this.withMcpServers({ ...params, mcpServers: params.mcpServers ?? [] }), zForkSessionResult);
  }

  /** Unstable `session/set_title`; resolves with the title as the agent stored it (it may normalise it). */
  async setSessionTitle(sessionId: string, title: string): Promise<SetSessionTitleResult> {
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.title, AgentMethods.sessionSetTitle);
    return this.request(AgentMethods.sessionSetTitle, { sessionId, title }, zSetSessionTitleResult);
  }

  /** Unstable `session/archive` (the agent closes the session first if it is active) or `session/unarchive`. */
  async archiveSession(sessionId: string, archived = true): Promise<object> {
    const method = archived ? AgentMethods.sessionArchive : AgentMethods.sessionUnarchive;
    this.requireCapability(!!this.agentCapabilities?.sessionCapabilities?.archive, method);
    if (archived) this.answerPendingPermissions(sessionId);
    return this.request(method, { sessionId }, zEmptyResult);
  }

  /** `logout` (v1, behind `auth.logout`) or `auth/logout` (v2 draft, offered with any sign-in method). */
  async logout(): Promise<object> {
    const method = this.protocolVersion === PROTOCOL_V2 ? AgentMethodsV2.authLogout : AgentMethods.logout;
    this.requireCapability(!!this.agentCapabilities?.auth?.logout, method);
    return this.request(method, {}, zEmptyResult);
  }

  /** v1 only: the v2 draft has no `session/set_mode` (modes are a config option there). */
  async setMode(sessionId: string, modeId: string): Promise<object> {
    if (this.protocolVersion === PROTOCOL_V2)
      throw new AcpProtocolError(`${AgentMethods.sessionSetMode} does not exist in protocol 2; set the mode with ${AgentMethods.sessionSetConfigOption}`);
    return this.request(AgentMethods.sessionSetMode, { sessionId, modeId }, zEmptyResult);
  }

  /** v1: a value id goes untagged, a boolean as `type: "boolean"`; v2 tags both (`"id"` / `"boolean"`). */
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SetConfigOptionResult> {
    const params =
      typeof value === 'boolean'
        ? { sessionId, configId, type: 'boolean', value }
        : this.protocolVersion === PROTOCOL_V2
          ? { sessionId, configId, type: 'id', value }
          : { sessionId, configId, value };
    return this.request(AgentMethods.sessionSetConfigOption, params, zSetConfigOptionResult);
  }

  /** One turn: its stop reason; after `cancel(sessionId)` an error reply resolves as "cancelled" too (some agents still answer a cancelled prompt with one). */
  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<PromptResult> {
    const turn = { cancelled: false };
    this.turns.set(sessionId, turn);
    try {
      if (this.protocolVersion === PROTOCOL_V2) return await this.promptV2(sessionId, prompt);
      return await this.request(AgentMethods.sessionPrompt, { sessionId, prompt }, zPromptResult);
    } catch (err) {
      if (turn.cancelled && !(err instanceof AcpClosedError)) {
        this.log('info', `prompt ended with an error after session/cancel; treating it as cancelled: ${String(err)}`);
        return { stopReason: 'cancelled' };
      }
      throw err;
    } finally {
      if (this.turns.get(sessionId) === turn) this.turns.delete(sessionId);
    }
  }

  /** Steers a prompt into the running turn (see common/protocol/steering for the outcomes). */
  async steer(sessionId: string, prompt: ContentBlock[]): Promise<SteeringResult> {
    this.requireCapability(this.canSteer, AgentMethods.sessionSteering);
    return this.request(AgentMethods.sessionSteering, steeringParams(sessionId, prompt), zSteeringResult);
  }

  /**
   * v2 draft: the response only acknowledges the inserted user message; the turn ends with an
   * idle `state_update` (which may arrive before or after that response).
   */
  private async promptV2(sessionId: string, prompt: ContentBlock[]): Promise<PromptResult> {
    let onIdle: (stopReason: string) => void = () => undefined;
    const idle = new Promise<string>((resolve) => (onIdle = resolve));
    const sub = this.updateEmitter.event((n) => {
      if (n.sessionId !== sessionId) return;
      const u = zStateUpdate.safeParse(n.update);
      if (u.success && u.data.state === 'idle') onIdle(u.data.stopReason ?? 'end_turn');
    });
    let closed: { readonly promise: Promise<never>; release(): void } | undefined;
    try {
      const ack = await this.request(AgentMethods.sessionPrompt, { sessionId, prompt }, zPromptResultV2);
      closed = this.calls.hold(AgentMethods.sessionPrompt);
      const stopReason = await Promise.race([idle, closed.promise]);
      return { stopReason, messageId: ack.messageId };
    } finally {
      closed?.release();
      sub.dispose();
    }
  }

  /**
   * Any request, unvalidated and without a capability check: the conformance check probes methods an
   * agent may answer without advertising them (as the registry's protocol matrix does).
   */
  probe(method: string, params: object): Promise<unknown> {
    return this.requestRaw(method, params);
  }

  /** `session/cancel`, and answer every pending permission request of the session with `cancelled` (§8.1). */
  cancel(sessionId: string): void {
    if (this.closed) return;
    const turn = this.turns.get(sessionId);
    if (turn) turn.cancelled = true;
    this.answerPendingPermissions(sessionId);
    this.acp.connection.sendNotification(AgentMethods.sessionCancel, { sessionId }).catch((err: unknown) => {
      this.log('warn', `could not send session/cancel: ${String(err)}`);
    });
  }

  /** Elicitations the agent is waiting on, per session (request-scoped ones count only without a session). */
  pendingElicitationCount(sessionId?: string): number {
    return this.elicitations?.count(sessionId) ?? 0;
  }

  /** Permission requests the agent is waiting on, per session (for "a pending request is always visible"). */
  pendingPermissionCount(sessionId?: string): number {
    return this.permissions.count(sessionId);
  }

  /** `call`, signing in and retrying once if the agent answers `auth_required` (see authRetry.ts). */
  withAuthRetry<T>(call: () => Promise<T>, chooseMethod: ChooseAuthMethod, runTerminal?: RunTerminalAuth): Promise<T> {
    return withAuthRetry(this, call, chooseMethod, runTerminal);
  }

  dispose(reason = 'the client was disposed'): void {
    if (this.disposed) return;
    this.disposed = true;
    this.handleClose(reason);
    this.acp.connection.dispose();
    this.acp.reader.dispose();
    this.acp.writer.end();
    this.acp.writer.dispose();
    this.updateEmitter.dispose();
    this.closeEmitter.dispose();
    if (!this.opts.permissions) this.permissions.dispose(); // its own, not the chat's
  }

  // ------------------------------------------------------------------ internals

  private requireCapability(ok: boolean, method: string): void {
    if (!ok) throw new AcpProtocolError(`the agent did not advertise support for ${method}`);
  }

  private request<S extends z.ZodType>(method: string, params: object, schema: S): Promise<z.output<S>> {
    return this.sessions.request(method, async () => {
      const raw = await this.requestRaw(method, params);
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw new AcpProtocolError(`invalid ${method} result: ${z.prettifyError(parsed.error)}`);
      if (method === AgentMethods.sessionNew || method === AgentMethods.sessionFork) this.noteSession(parsed.data);
      return parsed.data;
    });
  }

  private noteSession(v: unknown): void {
    const id = (v as { sessionId?: unknown } | null)?.sessionId;
    if (typeof id === 'string') this.sessions.ours(id);
  }

  private requestRaw(method: string, params: object): Promise<unknown> {
    if (!this.closed) this.noteSession(params);
    return this.calls.send(this.acp.connection, method, params);
  }

  private handleClose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.calls.closeAll();
    this.permissions.cancelOwner(this);
    this.elicitations?.closeAll();
    const extra = this.opts.describeClose?.();
    this.closeEmitter.fire(extra ? `${reason} (${extra})` : reason);
  }

  /**
   * Permission requests and elicitations of the session are answered `cancelled` / `cancel`, and those of
   * its subagents: the user stopped (or closed) the work they are part of, and their cards are shown there.
   */
  private answerPendingPermissions(sessionId: string): void {
    for (const sid of this.sessions.withDescendants(sessionId)) {
      this.elicitations?.cancelSession(sid);
      this.permissions.cancelSession(sid);
    }
  }

  private registerHandlers(): void {
    serveAgentRequests({
      acp: this.acp,
      handlers: this.opts.handlers,
      permissions: this.permissions,
      owner: this,
      sessions: this.sessions,
      onUpdate: (n) => this.updateEmitter.fire(n),
      turnCancelled: (sid) => [...this.turns].some(([root, t]) => t.cancelled && this.sessions.withDescendants(root).includes(sid)),
      log: this.log,
    });
  }
}
