/**
 * The message store: consumes the wire traffic itself (every JSON-RPC message in either direction, as
 * the live client taps it or as a capture line holds it) and derives sessions, transcripts and
 * diagnostics from it. The same code serves the extension and `cli reduce`.
 *
 * Requests are paired with their responses per direction: client->agent and agent->client request ids
 * are separate spaces, so each direction has its own pending map. What our own calls to the agent do to the
 * transcript (sent and answered) is `agentCalls.ts`; the updates' rules are the session's (session.ts).
 */
import { AgentMethods, ClientMethods, PROTOCOL_V1, PROTOCOL_V2, type ProtocolVersion } from '../protocol/methods';
import { parseSessionUpdate, zToolCallPatch } from '../protocol/updates';
import type { Action } from './actions';
import { agentCallAnswered, agentCallSent, type CallDeps } from './agentCalls';
import type { Direction, StoreDelta } from './deltas';
import { chunkFor } from '../jsonrpc/fastPath';
import type { Diagnostic, SessionState } from './model';
import { type PendingRequest, type PersistedStore, STORE_FORMAT, STORE_FORMAT_VERSION, zPersistedStore } from './persisted';
import { checkMessage, type CheckedMessage, idKey, type RequestId } from '../jsonrpc/rpc';
import { issueText } from '../util/errors';
import { restoreSession, savedSession } from './restoreSession';
import { PermissionOutcomes } from './permissionOutcomes';
import { zCreateElicitationResult } from '../protocol/elicitation';
import { Session } from './session';
import { linkChildren, misplacedChild, unknownSession } from './sessionScope';
import { elicitationAskedAction, elicitationCompleted } from './elicitationRules';
import { Step } from './step';
import { zStorePermissionParams, zStoreSessionIdParams } from './wireShapes';
import { TerminalUpdateDecoder } from '../protocol/terminalUpdates';
import { agentNotice, type ClientEvent, type EarlierLink } from './clientEvents';
import { readCaptureLine } from './captureLine';
import { ClientFacts } from './clientFacts';
import type { Notice } from '../notices';
import { connectionEnd } from './connectionEndRules';
import { rewind } from './foldRules';
import { ChunkRuns } from './chunkRun';

export interface StoreOptions {
  /** Durable key factory for new entries; default `crypto.randomUUID()`. */
  newKey?: () => string;
  /** Clock for entry stats; default `Date.now`. */
  now?: () => number;
}

export class MessageStore {
  private readonly newKeyFn: () => string;
  private readonly nowFn: () => number;
  private readonly byId = new Map<string, Session>();
  private readonly diags: Diagnostic[] = [];
  private readonly pending: Record<Direction, Map<string, PendingRequest>> = { 'client->agent': new Map(), 'agent->client': new Map() };
  private protocolVersion: number = PROTOCOL_V1;
  private readonly permissionOutcomes = new PermissionOutcomes();
  /** The session the chat's connection is attached to: set only by `attach` (it is not on the wire). */
  private attached: string | null = null;
  /** Notices and Changes summaries: what the client adds beside the sessions. */
  private readonly facts = new ClientFacts();
  /** v2 terminal output is UTF-8 split anywhere: one streaming decoder per terminal (not saved: a restore starts afresh). */
  private readonly v2Terminals = new TerminalUpdateDecoder();
  /** Text chunks held to be applied as one step (chunkRun.ts): applied before any other step or read. */
  private readonly runs = new ChunkRuns((r) => {
    const step = this.newStep(r.lines.at(-1));
    this.apply(r.sessionId, { kind: 'chunk_run', chunkKind: r.chunkKind, text: r.texts.join(''), lines: r.lines }, step);
    return step.changes;
  });

  /** What the rules of our own calls to the agent (agentCalls.ts) may read and do. */
  private readonly calls: CallDeps = {
    protocolVersion: () => this.protocolVersion,
    negotiated: (v) => (this.protocolVersion = v),
    sessionFor: (sessionId, step) => this.sessionFor(sessionId, step),
    existing: (sessionId) => this.byId.get(sessionId),
    apply: (sessionId, action, step) => this.apply(sessionId, action, step),
  };

  constructor(options: StoreOptions = {}) {
    this.newKeyFn = options.newKey ?? (() => crypto.randomUUID());
    this.nowFn = options.now ?? Date.now;
  }

  /** The wire version rules to apply: 2 only when the initialize response negotiated it. */
  private get version(): ProtocolVersion {
    return this.protocolVersion === PROTOCOL_V2 ? PROTOCOL_V2 : PROTOCOL_V1;
  }

  sessions(): readonly SessionState[] {
    this.runs.settle();
    return [...this.byId.values()].map((s) => s.state());
  }

  session(sessionId: string): SessionState | undefined {
    this.runs.settle();
    return this.byId.get(sessionId)?.state();
  }

  /** How many subagents `sessionId` announced (0 for an unknown session); cheap enough for every update. */
  subagentCount(sessionId: string): number {
    return this.byId.get(sessionId)?.subagentCount ?? 0;
  }

  diagnostics(): readonly Diagnostic[] {
    return this.diags;
  }

  /** Records which session the chat shows and prompts (the connection attached it, or the user chose it). */
  attach(sessionId: string | null): void {
    this.attached = sessionId;
  }

  attachedSessionId(): string | null {
    return this.attached;
  }

  /** The notices shown above `sessionId`'s transcript (null: before any session). */
  notices(sessionId: string | null): readonly Notice[] {
    return this.facts.notices(sessionId);
  }

  /** The earlier session shown above the attached one after a failed reattach (a client event), if any. */
  earlierLink(): EarlierLink | null {
    return this.facts.earlier();
  }

  /** The chat's Changes summaries as last recorded (their saved form; undefined: none). */
  changes(): unknown {
    return this.facts.changes();
  }

  /** Reduces what the client adds that is not on the wire (src/common/store/clientEvents.ts). */
  record(e: ClientEvent, line?: number): readonly StoreDelta[] {
    const step = this.step(line);
    if (e.event === 'terminal')
      this.apply(e.sessionId, { kind: 'terminal_output', terminalId: e.terminalId, owner: 'client', append: e.append, replace: e.replace === true, exit: e.exit ?? null }, step);
    else if (e.event === 'connection_ended') this.connectionEnded(e.turn, step);
    else if (e.event === 'user_title') this.apply(e.sessionId, { kind: 'user_title', title: e.title }, step);
    else if (e.event === 'rewound') rewind(this.calls, e, step);
    else this.facts.apply(e, step.changes);
    return step.changes;
  }

  /** Whether the connection this store last heard left a request unanswered (see `connection_ended`). */
  hasUnanswered(): boolean {
    return this.pending['client->agent'].size + this.pending['agent->client'].size > 0;
  }

  private connectionEnded(turn: boolean, step: Step): void {
    const end = connectionEnd(this.pending['client->agent'].values(), this.pending['agent->client'].values(), turn);
    for (const { sessionId, notice } of end.marks) this.facts.apply({ event: 'notice', sessionId, notice }, step.changes);
    for (const sessionId of end.stopped) if (this.byId.has(sessionId)) this.apply(sessionId, { kind: 'cancel' }, step);
    this.pending['client->agent'].clear();
    this.pending['agent->client'].clear();
  }

  private newStep(line: number | undefined): Step {
    return new Step((step, severity, message) => this.addDiagnostic(step, severity, message), line, this.nowFn(), this.version, this.newKeyFn);
  }

  /** A new step, which first reports what a held run of chunks changed (chunkRun.ts), applying it if need be. */
  private step(line: number | undefined): Step {
    const step = this.newStep(line);
    if (this.runs.holding) step.changes.push(...this.runs.take());
    return step;
  }

  /** Whether chunks are held, or their deltas not yet handed on: `settle()` is due (chunkRun.ts). */
  get holding(): boolean {
    return this.runs.holding;
  }

  /** Applies the held chunks and returns every change not yet handed on. */
  settle(): readonly StoreDelta[] {
    return this.runs.take();
  }

  /** Records a diagnostic and reports it as a change. */
  private addDiagnostic(step: Step, severity: Diagnostic['severity'], message: string): void {
    const d: Diagnostic = {
      severity,
      message: step.line !== undefined ? `line ${step.line}: ${message}` : message,
      ...(step.line !== undefined ? { line: step.line } : {}),
      ...(step.sessionId !== undefined ? { sessionId: step.sessionId } : {}),
    };
    this.diags.push(d);
    step.changes.push({ type: 'diagnostic', diagnostic: d });
  }

  /** Feed one JSON-RPC message (already JSON-parsed, unvalidated). `line` = 1-based capture line for diagnostics/stats. */
  ingest(dir: Direction, msg: unknown, line?: number): readonly StoreDelta[] {
    const checked = checkMessage(msg);
    if (!checked.ok) return this.lineError(line, `${dir}: ${checked.error}`);
    return this.ingestChecked(dir, checked, line);
  }

  /**
   * Feed one message the transport already checked (`checkMessage`, as the live client's tap hands it
   * on): the envelope is not checked again, and a text chunk goes straight to its session. With `merge`,
   * a chunk that continues the open message is held and joined with the next ones (chunkRun.ts): no
   * changes now, they come with the next step or `settle()`.
   */
  ingestChecked(dir: Direction, checked: CheckedMessage, line?: number, merge = false): readonly StoreDelta[] {
    const fast = dir === 'agent->client' && checked.chunk ? chunkFor(checked.chunk, this.version) : undefined;
    if (merge && fast !== undefined && this.runs.hold(fast, line, () => this.byId.get(fast.sessionId)?.continues(fast.chunkKind, fast.messageId) === true)) return [];
    const step = this.step(line);
    if (fast !== undefined) {
      step.sessionId = fast.sessionId;
      if (!this.known(fast.sessionId, ClientMethods.sessionUpdate, step)) return step.changes;
      this.sessionFor(fast.sessionId, step).apply(
        { kind: 'chunk', chunkKind: fast.chunkKind, chunk: { content: { type: 'text', text: fast.text }, messageId: fast.messageId } },
        step,
      );
      return step.changes;
    }
    const m = checked.rpc;
    if (m.type === 'request') this.request(dir, m.id, m.method, m.params, step);
    else if (m.type === 'notification') this.notification(dir, m.method, m.params, step);
    else this.response(dir, m.id, m.ok ? { ok: true, result: m.result } : { ok: false }, step);
    return step.changes;
  }

  /** Parse one capture line `{dir,msg,...}` (seq/t_ms ignored, `dir:"note"` skipped) and ingest it. */
  ingestLine(text: string, line?: number): readonly StoreDelta[] {
    const r = readCaptureLine(text, (place) => (place ? this.session(place[0])?.entries[place[1]]?.key : undefined));
    if (r.kind === 'message') return this.ingest(r.dir, r.msg, line);
    if (r.kind === 'event') return this.record(r.event, line);
    return r.kind === 'error' ? this.lineError(line, r.message) : [];
  }

  private lineError(line: number | undefined, message: string): readonly StoreDelta[] {
    const step = this.step(line);
    step.diagnostic('error', message);
    return step.changes;
  }

  private sessionFor(sessionId: string, step: Step): Session {
    let s = this.byId.get(sessionId);
    if (!s) {
      s = new Session(sessionId, this.protocolVersion);
      this.byId.set(sessionId, s);
      step.changes.push({ type: 'sessionAdded', sessionId });
    }
    return s;
  }

  /** Whether the agent may speak of `sessionId` (sessionScope.ts); a refusal is an error diagnostic. */
  private known(sessionId: string, what: string, step: Step): boolean {
    const refused = unknownSession(this.byId, this.pending['client->agent'].values(), sessionId, what);
    if (refused !== null) step.diagnostic('error', refused);
    return refused === null;
  }

  /** `subagent_update` on `parentId`: the first one for a child announces it, a session of its own. */
  private subagent(parentId: string, childId: string, step: Step): boolean {
    const refused = misplacedChild(this.byId, parentId, childId);
    if (refused !== null) step.diagnostic('error', refused);
    else if (!this.byId.has(childId)) this.sessionFor(childId, step).parentSessionId = parentId;
    return refused === null;
  }

  private apply(sessionId: string, action: Action, step: Step): void {
    step.sessionId = sessionId;
    this.sessionFor(sessionId, step).apply(action, step);
  }

  // ---- traffic ----------------------------------------------------------------------------------

  private request(dir: Direction, id: RequestId, method: string, params: unknown, step: Step): void {
    const sid = zStoreSessionIdParams.safeParse(params);
    const sessionId = sid.success ? sid.data.sessionId : null;
    const pending: PendingRequest = { method, sessionId, modeId: null, localKey: null };
    if (dir === 'client->agent') {
      agentCallSent(this.calls, method, params, sessionId, pending, step);
    } else if (sessionId !== null && !this.known(sessionId, method, step)) {
      // refused: nothing of it is shown (the client answers it with an error)
    } else if (method === ClientMethods.sessionRequestPermission) {
      const p = zStorePermissionParams.safeParse(params);
      const raw = p.success ? (p.data.toolCall ?? (p.data.subject?.type === 'tool_call' ? p.data.subject.toolCall : undefined)) : undefined;
      if (p.success && raw !== undefined) {
        const tc = zToolCallPatch.safeParse(raw);
        if (tc.success) {
          this.apply(p.data.sessionId, { kind: 'permission_tool_call', patch: tc.data }, step);
          this.permissionOutcomes.request(id, p.data.sessionId, tc.data.toolCallId, params);
          // The card the request is about, to mark it if the request is never answered.
          pending.localKey =
            this.byId
              .get(p.data.sessionId)
              ?.state()
              .entries.findLast((e) => e.kind === 'tool_call' && e.toolCallId === tc.data.toolCallId)?.key ?? null;
        } else step.diagnostic('error', `session/request_permission toolCall rejected: ${issueText(tc.error)}`);
      }
    } else if (method === ClientMethods.elicitationCreate) {
      if (id !== null) pending.localKey = this.elicitationAsked(id, params, step);
    }
    this.pending[dir].set(idKey(id), pending);
  }

  /** A session-scoped `elicitation/create` becomes an entry; its key is remembered to record the answer. */
  private elicitationAsked(id: string | number, params: unknown, step: Step): string | null {
    const asked = elicitationAskedAction(id, params);
    if (!asked) return null; // request-scoped: no session to show it in
    this.apply(asked.sessionId, asked.action, step);
    return this.byId.get(asked.sessionId)?.state().entries.at(-1)?.key ?? null;
  }

  private notification(dir: Direction, method: string, params: unknown, step: Step): void {
    if (dir === 'agent->client' && method === ClientMethods.sessionUpdate) {
      const r = parseSessionUpdate(params, step.version);
      if (r.sessionId !== null) step.sessionId = r.sessionId;
      if (!r.ok) {
        step.diagnostic(r.severity, r.message);
        return;
      }
      if (!this.known(r.sessionId, ClientMethods.sessionUpdate, step)) return;
      for (const w of r.warnings) step.diagnostic('warning', w);
      if (r.update.kind === 'ignored') return this.shownBeside(params, step);
      if (r.update.kind === 'subagent' && !this.subagent(r.sessionId, r.update.patch.childSessionId, step)) return;
      this.apply(r.sessionId, r.update, step);
    } else if (dir === 'agent->client' && method === ClientMethods.elicitationComplete) {
      elicitationCompleted(this.byId.values(), params, step, (sid, action) => this.apply(sid, action, step));
    } else if (dir === 'client->agent' && method === AgentMethods.sessionCancel) {
      const sid = zStoreSessionIdParams.safeParse(params);
      if (sid.success) this.apply(sid.data.sessionId, { kind: 'cancel' }, step);
    }
  }

  /** Updates with no entry that the panel still shows: v2 terminals (on their tool calls) and the agent's notices. */
  private shownBeside(params: unknown, step: Step): void {
    const notice = agentNotice(params);
    if (notice) return this.facts.apply(notice, step.changes);
    const t = this.v2Terminals.decode(params);
    if (t) this.apply(t.sessionId, { kind: 'terminal_output', terminalId: t.terminalId, owner: 'agent', append: t.text, replace: t.replace, exit: t.exit ?? null }, step);
  }

  /** A response travelling in `dir` answers a request that travelled the other way. */
  private response(dir: Direction, id: RequestId, outcome: { ok: true; result: unknown } | { ok: false }, step: Step): void {
    const requestDir: Direction = dir === 'agent->client' ? 'client->agent' : 'agent->client';
    const map = this.pending[requestDir];
    const key = idKey(id);
    const req = map.get(key);
    if (!req) return; // e.g. a capture that starts mid-conversation
    map.delete(key);
    if (requestDir === 'agent->client') {
      if (req.method === ClientMethods.elicitationCreate && req.localKey !== null && req.sessionId !== null) {
        const r = outcome.ok ? zCreateElicitationResult.safeParse(outcome.result) : null;
        const status = r?.success ? r.data.action : 'error';
        const answer = r?.success && r.data.action === 'accept' ? (r.data.content ?? null) : null;
        this.apply(req.sessionId, { kind: 'elicitation_answered', key: req.localKey, status, answer }, step);
        return;
      }
      const rejected = req.method === ClientMethods.sessionRequestPermission && outcome.ok ? this.permissionOutcomes.response(id, outcome.result) : null;
      if (rejected) this.apply(rejected.sessionId, { kind: 'permission_rejected', toolCallId: rejected.toolCallId }, step);
      return;
    }
    agentCallAnswered(this.calls, req, outcome, step);
  }

  // ---- persistence ------------------------------------------------------------------------------

  /** Complete, versioned, plain JSON: entries with keys, reducer bookkeeping, pending requests, diagnostics. */
  toJSON(): PersistedStore {
    this.runs.settle();
    return {
      format: STORE_FORMAT,
      version: STORE_FORMAT_VERSION,
      protocolVersion: this.protocolVersion,
      attached: this.attached,
      sessions: [...this.byId.values()].map(savedSession),
      pending: { 'client->agent': [...this.pending['client->agent']], 'agent->client': [...this.pending['agent->client']] },
      diagnostics: this.diags.slice(),
      ...this.facts.toJSON(),
    };
  }

  /** Restores a saved store. Tolerant: what cannot be read is reported in `diagnostics` and skipped. */
  static fromJSON(data: unknown, options?: StoreOptions): { store: MessageStore; diagnostics: Diagnostic[] } {
    const store = new MessageStore(options);
    const diagnostics: Diagnostic[] = [];
    const top = zPersistedStore.safeParse(data);
    if (!top.success) {
      diagnostics.push({ severity: 'error', message: `saved store state is unreadable (${issueText(top.error)}); starting empty` });
      return { store, diagnostics };
    }
    store.protocolVersion = top.data.protocolVersion;
    store.attached = top.data.attached;
    store.diags.push(...top.data.diagnostics);
    store.facts.restore(top.data.notices, top.data.changes, top.data.earlier ?? null);
    for (const dir of ['client->agent', 'agent->client'] as const) for (const [k, v] of top.data.pending[dir]) store.pending[dir].set(k, v);
    top.data.sessions.forEach((raw, si) => {
      const s = restoreSession(raw, si, diagnostics);
      if (!s) return;
      if (store.byId.has(s.sessionId)) {
        diagnostics.push({ severity: 'error', message: `saved session '${s.sessionId}' appears twice; the second copy is skipped` });
        return;
      }
      store.byId.set(s.sessionId, s);
    });
    linkChildren(store.byId);
    return { store, diagnostics };
  }
}
