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
 * It is longer than our ~400-line guideline because it is the one typed surface of the protocol: one short
 * method per ACP request (v1 and the v2 draft), each with its result schema. The transport, the handlers
 * (handlers.ts), session operations (sessions.ts) and errors (errors.ts) already live elsewhere.
 */
import type { Readable, Writable } from 'node:stream';
import type { Message } from 'vscode-jsonrpc/node';
import { Emitter, type Event, type IDisposable } from '../../common/util/lifecycle';
import * as z from 'zod';
import type { ContentBlock } from '../../common/protocol/content';
import { AgentMethods, AgentMethodsV2, ClientMethods, ErrorCodes, PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import type { ProtocolVersion } from '../../common/protocol/methods';
import {
  zCreateTerminalParams,
  zEmptyResult,
  zInitializeResult,
  zInitializeResultV2,
  zListSessionsResult,
  zNewSessionResult,
  zPromptResult,
  zPromptResultV2,
  zReadTextFileParams,
  zRequestPermissionParams,
  zRequestPermissionResult,
  zSessionNotification,
  zSessionStateResult,
  zSetConfigOptionResult,
  zStateUpdate,
  zTerminalParams,
  zWriteTextFileParams,
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
  RequestPermissionParams,
  ResumeSessionParams,
  SessionNotification,
  SessionStateResult,
  SetConfigOptionResult,
} from '../../common/protocol/requests';
import { steeringParams, supportsSteering, zSteeringResult, type SteeringResult } from '../../common/protocol/steering';
import { asTerminalAuthMethod, zForkSessionResult, zSetSessionTitleResult, type TerminalAuthMethod, type ForkSessionParams, type ForkSessionResult, type SetSessionTitleResult } from '../../common/protocol/sessionOps';
import { createAcpConnection, onAcpNotification, onAcpRequest, rpcError } from '../transport/connection';
import type { AcpConnection, LogFn } from '../transport/connection';
import type { InvalidLine } from '../transport/ndjson';
import type { CheckedMessage } from '../../common/store/rpc';
import { AcpClosedError, AcpProtocolError, isAuthRequired, toAcpError } from './errors';
import type { ClientHandlers } from './handlers';
import { Elicitations, elicitationCapabilities } from './elicitations';
import { CANCELLED, PermissionBroker, type PermissionAnswer } from '../../common/permissionBroker';

import type { Direction } from '../../common/protocol/direction';
export type { Direction };

export interface AcpClientOptions {
  /** The agent's stdout. */
  input: Readable;
  /** The agent's stdin. */
  output: Writable;
  handlers: ClientHandlers;
  clientInfo: Implementation;
  /** The version to ask for (default 1). */
  protocolVersion?: ProtocolVersion;
  /**
   * The caller can run terminal-type auth methods (the agent's command again, in an interactive terminal):
   * advertised as `clientCapabilities.auth.terminal`, so agents may offer them.
   */
  terminalAuth?: boolean;
  /**
   * Every message both ways, with the exact JSON line it was read from or written as; for a message read,
   * also the transport's one check of it (hand it to `MessageStore.ingestChecked`).
   */
  tap?: (dir: Direction, msg: Message, raw: string, checked?: CheckedMessage) => void;
  /** Transport limits (defaults: 32 MiB per message, 256 levels of nesting, 256 queued messages). */
  limits?: { maxMessageBytes?: number; maxNesting?: number; maxQueued?: number };
  /** Non-JSON / invalid lines on the agent's stdout (logged and skipped). */
  onInvalidLine?: (line: InvalidLine) => void;
  log?: LogFn;
  /** Extra words for "connection closed" errors, e.g. exit code and the last stderr lines. */
  describeClose?: () => string | undefined;
  /**
   * Settles when the close can be described (e.g. the agent process's exit): stdout often ends
   * before the exit status and last stderr lines are known. Waited for at most 1 s.
   */
  closeSettled?: () => Promise<unknown>;
  /**
   * Where the agent's permission requests wait (the chat's broker, whose cards the panel shows); by default
   * the client's own. The client keeps none itself: it registers each request there and awaits it.
   */
  permissions?: PermissionBroker;
}

const zVersionOnly = z.looseObject({ protocolVersion: z.number().int().nonnegative() });

export class AcpClient implements IDisposable {
  private readonly acp: AcpConnection;
  private readonly log: LogFn;
  private readonly pendingRequests = new Set<{ method: string; reject: (e: Error) => void }>();
  /** The one owner of the permission requests the agent waits on (the chat's, or this client's own). */
  private readonly permissions: PermissionBroker;
  /**
   * Sessions of this connection: those the agent created for it (session/new, fork) and those it named to
   * the agent (load, resume, prompt...). The agent's requests must name one of these.
   */
  private readonly sessions = new Set<string>();
  private readonly elicitations: Elicitations | undefined;
  /** Sessions with a prompt in flight that the user cancelled: an error reply then means "cancelled". */
  private readonly cancelledTurns = new Set<string>();
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
    this.permissions = opts.permissions ?? new PermissionBroker();
    this.acp = createAcpConnection({
      input: opts.input,
      output: opts.output,
      log: this.log,
      ...opts.limits,
      ...(opts.onInvalidLine ? { onInvalidLine: opts.onInvalidLine } : {}),
      tap: (direction, msg, raw, checked) => opts.tap?.(direction === 'in' ? 'agent->client' : 'client->agent', msg, raw, checked),
    });
    this.registerHandlers();
    this.elicitations = opts.handlers.elicitation ? new Elicitations(this.acp, opts.handlers.elicitation, this.log) : undefined;
    this.acp.connection.onClose(() => {
      const settled = opts.closeSettled
        ? Promise.race([opts.closeSettled(), new Promise((r) => setTimeout(r, 1000).unref())])
        : Promise.resolve();
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
    const h = this.opts.handlers;
    const elicitation = elicitationCapabilities(h.elicitation);
    return {
      fs: { readTextFile: h.readTextFile !== undefined, writeTextFile: h.writeTextFile !== undefined },
      terminal: h.terminals !== undefined,
      ...(this.opts.terminalAuth ? { auth: { terminal: true } } : {}),
      ...(elicitation ? { elicitation } : {}),
    };
  }

  // ------------------------------------------------------------------ client -> agent

  async initialize(): Promise<InitializeResult> {
    const asked = this.opts.protocolVersion ?? PROTOCOL_V1;
    const v1Fields = { clientCapabilities: this.clientCapabilities, clientInfo: this.opts.clientInfo };
    // Asking for v2 we send both shapes: a v1-only agent answers 1 and reads the v1 fields; v2
    // has no client fs/terminal, so its `capabilities` stay empty.
    const elicitation = elicitationCapabilities(this.opts.handlers.elicitation);
    const v2Caps = { ...(this.opts.terminalAuth ? { auth: { terminal: {} } } : {}), ...(elicitation ? { elicitation } : {}) };
    const params = asked === PROTOCOL_V2 ? { protocolVersion: asked, info: this.opts.clientInfo, capabilities: v2Caps, ...v1Fields } : { protocolVersion: asked, ...v1Fields };
    const raw = await this.requestRaw(AgentMethods.initialize, params);
    const version = zVersionOnly.safeParse(raw);
    if (!version.success) throw new AcpProtocolError(`invalid initialize result: ${z.prettifyError(version.error)}`);
    // v1 §1: the agent answers its own latest version if it cannot speak ours; we can only go on
    // with a version we speak and did not exceed.
    const v = version.data.protocolVersion;
    if (v > asked || (v !== PROTOCOL_V1 && v !== PROTOCOL_V2)) {
      this.dispose(`unsupported protocol version ${v}`);
      throw new AcpProtocolError(`the agent answered protocol version ${v}; this client speaks 1${asked === PROTOCOL_V2 ? ' and 2' : ''}`);
    }
    const parsed = v === PROTOCOL_V2 ? zInitializeResultV2.safeParse(raw) : zInitializeResult.safeParse(raw);
    if (!parsed.success) throw new AcpProtocolError(`invalid initialize result: ${z.prettifyError(parsed.error)}`);
    this.init = parsed.data;
    return parsed.data;
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
    if (this.protocolVersion === PROTOCOL_V2) throw new AcpProtocolError(`${AgentMethods.sessionSetMode} does not exist in protocol 2; set the mode with ${AgentMethods.sessionSetConfigOption}`);
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

  /**
   * One turn. Resolves with the stop reason; after `cancel(sessionId)` an error reply also resolves
   * as `{ stopReason: "cancelled" }` (some agents still answer a cancelled prompt with an error).
   */
  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<PromptResult> {
    this.cancelledTurns.delete(sessionId);
    try {
      if (this.protocolVersion === PROTOCOL_V2) return await this.promptV2(sessionId, prompt);
      return await this.request(AgentMethods.sessionPrompt, { sessionId, prompt }, zPromptResult);
    } catch (err) {
      if (this.cancelledTurns.has(sessionId) && !(err instanceof AcpClosedError)) {
        this.log('info', `prompt ended with an error after session/cancel; treating it as cancelled: ${String(err)}`);
        return { stopReason: 'cancelled' };
      }
      throw err;
    } finally {
      this.cancelledTurns.delete(sessionId);
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
    const waiting = { method: AgentMethods.sessionPrompt, reject: (_e: Error) => undefined as void };
    const closed = new Promise<never>((_resolve, reject) => (waiting.reject = reject));
    try {
      const ack = await this.request(AgentMethods.sessionPrompt, { sessionId, prompt }, zPromptResultV2);
      this.pendingRequests.add(waiting);
      if (this.closed) throw new AcpClosedError(this.closedMessage(AgentMethods.sessionPrompt));
      const stopReason = await Promise.race([idle, closed]);
      return { stopReason, messageId: ack.messageId };
    } finally {
      this.pendingRequests.delete(waiting);
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
    this.cancelledTurns.add(sessionId);
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

  /**
   * Run `call`; if the agent answers `auth_required` (-32000), let `chooseMethod` pick one of the
   * advertised methods (return undefined to give up), sign in, and retry the call once. An `agent`
   * method signs in with `authenticate`; a `terminal` method is never sent to `authenticate` (the schema
   * forbids it): `runTerminal` runs it and says whether it succeeded (exit status 0).
   */
  async withAuthRetry<T>(
    call: () => Promise<T>,
    chooseMethod: (methods: readonly AuthMethod[]) => Promise<string | undefined>,
    runTerminal?: (method: TerminalAuthMethod) => Promise<boolean>,
  ): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!isAuthRequired(err)) throw err;
      const methodId = await chooseMethod(this.authMethods);
      const method = this.authMethods.find((m) => m.id === methodId);
      if (methodId === undefined) throw err;
      const terminal = method ? asTerminalAuthMethod(method) : undefined;
      if (terminal || method?.type === 'terminal') {
        if (!terminal || !runTerminal || !(await runTerminal(terminal))) throw err;
      } else {
        await this.authenticate(methodId);
      }
      return call();
    }
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
  }

  // ------------------------------------------------------------------ internals

  private requireCapability(ok: boolean, method: string): void {
    if (!ok) throw new AcpProtocolError(`the agent did not advertise support for ${method}`);
  }

  private async request<S extends z.ZodType>(method: string, params: object, schema: S): Promise<z.output<S>> {
    const raw = await this.requestRaw(method, params);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new AcpProtocolError(`invalid ${method} result: ${z.prettifyError(parsed.error)}`);
    }
    if (method === AgentMethods.sessionNew || method === AgentMethods.sessionFork) this.noteSession(parsed.data);
    return parsed.data;
  }

  private noteSession(v: unknown): void {
    const id = (v as { sessionId?: unknown } | null)?.sessionId;
    if (typeof id === 'string') this.sessions.add(id);
  }

  /** Refuses an agent's request that names a session this connection never had. */
  private ownSession(p: { sessionId: string }, method: string): void {
    if (!this.sessions.has(p.sessionId)) {
      throw rpcError(ErrorCodes.invalidParams, `${method}: unknown session ${JSON.stringify(p.sessionId)}; this client did not open it`, { reason: 'unknown_session', sessionId: p.sessionId });
    }
  }

  private requestRaw(method: string, params: object): Promise<unknown> {
    if (this.closed) return Promise.reject(new AcpClosedError(this.closedMessage(method)));
    this.noteSession(params);
    return new Promise<unknown>((resolve, reject) => {
      const entry = { method, reject };
      this.pendingRequests.add(entry);
      this.acp.connection.sendRequest(method, params).then(
        (r: unknown) => {
          this.pendingRequests.delete(entry);
          resolve(r);
        },
        (e: unknown) => {
          this.pendingRequests.delete(entry);
          reject(toAcpError(method, e));
        },
      );
    });
  }

  private closedMessage(method: string): string {
    const extra = this.opts.describeClose?.();
    return `the agent connection closed while waiting for the ${method} response${extra ? ` (${extra})` : ''}`;
  }

  private handleClose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of [...this.pendingRequests]) p.reject(new AcpClosedError(this.closedMessage(p.method)));
    this.pendingRequests.clear();
    this.permissions.cancelOwner(this);
    this.elicitations?.closeAll();
    const extra = this.opts.describeClose?.();
    this.closeEmitter.fire(extra ? `${reason} (${extra})` : reason);
  }

  /** Permission requests and elicitations of the session are answered `cancelled` / `cancel`. */
  private answerPendingPermissions(sessionId: string): void {
    this.elicitations?.cancelSession(sessionId);
    this.permissions.cancelSession(sessionId);
  }

  /** A handler's answer the agent may get: a valid result naming an option the agent offered, else `cancelled`. */
  private checkedAnswer(p: RequestPermissionParams, r: unknown): PermissionAnswer {
    const checked = zRequestPermissionResult.safeParse(r);
    if (!checked.success) {
      this.log('error', `permission handler returned an invalid result; answering cancelled: ${checked.error.message}`);
      return CANCELLED;
    }
    const outcome = checked.data.outcome;
    if (outcome.outcome === 'selected' && !p.options.some((o) => o.optionId === outcome.optionId)) {
      this.log('error', 'permission handler chose an option the agent did not offer; answering cancelled');
      return CANCELLED;
    }
    return checked.data;
  }

  private registerHandlers(): void {
    const h = this.opts.handlers;
    // A text chunk the transport checked is a valid SessionNotification already: not validated again.
    onAcpNotification(this.acp, ClientMethods.sessionUpdate, zSessionNotification, (n) => this.updateEmitter.fire(n), this.log, (c) => c.chunk !== undefined);

    onAcpRequest(this.acp, ClientMethods.sessionRequestPermission, zRequestPermissionParams, (p, ctx) => {
      this.ownSession(p, ClientMethods.sessionRequestPermission);
      // The broker settles it once, with the first of: the handler's checked answer, the user's, or a
      // cancellation (session/cancel, $/cancel_request, the session closing, the connection ending).
      return this.permissions.request(p.sessionId, async (signal, askUser) => this.checkedAnswer(p, await h.requestPermission(p, signal, askUser)), { signal: ctx.signal, owner: this });
    });

    if (h.readTextFile) {
      const read = h.readTextFile.bind(h);
      onAcpRequest(this.acp, ClientMethods.fsReadTextFile, zReadTextFileParams, (p, ctx) => {
        this.ownSession(p, ClientMethods.fsReadTextFile);
        return read(p, ctx.signal);
      });
    }
    if (h.writeTextFile) {
      const write = h.writeTextFile.bind(h);
      onAcpRequest(this.acp, ClientMethods.fsWriteTextFile, zWriteTextFileParams, async (p, ctx) => {
        this.ownSession(p, ClientMethods.fsWriteTextFile);
        await write(p, ctx.signal);
        return {};
      });
    }
    const t = h.terminals;
    if (t) {
      const own = <P extends { sessionId: string }>(method: string, p: P): P => {
        this.ownSession(p, method);
        return p;
      };
      onAcpRequest(this.acp, ClientMethods.terminalCreate, zCreateTerminalParams, (p) => t.create(own(ClientMethods.terminalCreate, p)));
      onAcpRequest(this.acp, ClientMethods.terminalOutput, zTerminalParams, (p) => t.output(own(ClientMethods.terminalOutput, p)));
      onAcpRequest(this.acp, ClientMethods.terminalWaitForExit, zTerminalParams, (p, ctx) => t.waitForExit(own(ClientMethods.terminalWaitForExit, p), ctx.signal));
      onAcpRequest(this.acp, ClientMethods.terminalKill, zTerminalParams, async (p) => {
        await t.kill(own(ClientMethods.terminalKill, p));
        return {};
      });
      onAcpRequest(this.acp, ClientMethods.terminalRelease, zTerminalParams, async (p) => {
        await t.release(own(ClientMethods.terminalRelease, p));
        return {};
      });
    }
    // Everything else (including methods whose handler is absent) gets -32601 from vscode-jsonrpc.
  }
}
