/**
 * The message store: consumes the wire traffic itself (every JSON-RPC message in either direction, as
 * the live client taps it or as a capture line holds it) and derives sessions, transcripts and
 * diagnostics from it. The same code serves the extension and `cli reduce`.
 *
 * Requests are paired with their responses per direction: client->agent and agent->client request ids
 * are separate spaces, so each direction has its own pending map.
 */
import { AgentMethods, ClientMethods, PROTOCOL_V1, PROTOCOL_V2, type ProtocolVersion } from '../protocol/methods';
import { zContentBlock } from '../protocol/content';
import { steered, zSteeringResult } from '../protocol/steering';
import { parseSessionUpdate, zAvailableCommandsUpdate, zConfigOption, zSessionModeState, zToolCallPatch } from '../protocol/updates';
import type { Action } from './actions';
import type { Direction, StoreChange } from './changes';
import { chunkFor } from './fastPath';
import type { Diagnostic, Entry, SessionState } from './model';
import {
  type PendingRequest,
  type PersistedStore,
  STORE_FORMAT,
  STORE_FORMAT_VERSION,
  zPersistedStore,
} from './persisted';
import { checkMessage, type CheckedMessage, idKey, type RequestId } from './rpc';
import { isRecord } from '../util/guards';
import { errorText, issueText } from '../util/errors';
import { replayToPlain } from './replayWindow';
import { restoreSession } from './restoreSession';
import { entriesBefore, forkAtMessageOf } from '../rewind/forkAtMessage';
import { PermissionOutcomes } from './permissionOutcomes';
import { zCompleteElicitationParams, zCreateElicitationParams, zCreateElicitationResult } from '../protocol/elicitation';
import { type ApplyContext, Session } from './session';
import { zInitializeResult, zNewSessionResult, zPermissionParams, zPromptParams, zPromptResult, zSessionIdParams, zSessionResult, zSetModeParams, zSetSessionTitleResult } from './wireShapes';
import { MAX_NESTING, tooDeep } from '../util/depth';
import { TerminalUpdateDecoder } from '../protocol/terminalUpdates';
import { agentNotice, clientEventOfNote, type ClientEvent } from './clientEvents';
import { ClientFacts } from './clientFacts';
import type { Notice } from '../notices';

export interface StoreOptions {
  /** Durable key factory for new entries; default `crypto.randomUUID()`. */
  newKey?: () => string;
  /** Clock for entry stats; default `Date.now`. */
  now?: () => number;
}

class Step implements ApplyContext {
  readonly changes: StoreChange[] = [];
  sessionId: string | undefined;
  constructor(
    private readonly store: MessageStore,
    readonly line: number | undefined,
    readonly now: number,
    readonly version: ProtocolVersion,
    private readonly keys: () => string,
  ) {}
  diagnostic(severity: Diagnostic['severity'], message: string): void {
    this.store.addDiagnostic(this, severity, message);
  }
  newKey(): string {
    return this.keys();
  }
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

  constructor(options: StoreOptions = {}) {
    this.newKeyFn = options.newKey ?? (() => crypto.randomUUID());
    this.nowFn = options.now ?? Date.now;
  }

  /** The wire version rules to apply: 2 only when the initialize response negotiated it. */
  private get version(): ProtocolVersion {
    return this.protocolVersion === PROTOCOL_V2 ? PROTOCOL_V2 : PROTOCOL_V1;
  }

  sessions(): readonly SessionState[] {
    return [...this.byId.values()].map((s) => s.state());
  }

  session(sessionId: string): SessionState | undefined {
    return this.byId.get(sessionId)?.state();
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

  /** The chat's Changes summaries as last recorded (their saved form; undefined: none). */
  changes(): unknown {
    return this.facts.changes();
  }

  /** Reduces what the client adds that is not on the wire (src/common/store/clientEvents.ts). */
  record(event: ClientEvent, line?: number): readonly StoreChange[] {
    const step = new Step(this, line, this.nowFn(), this.version, this.newKeyFn);
    if (event.event === 'terminal') {
      const { sessionId, terminalId, append, replace, exit } = event;
      this.apply(sessionId, { kind: 'terminal_output', terminalId, owner: 'client', append, replace: replace === true, exit: exit ?? null }, step);
    } else if (event.event === 'connection_ended') this.connectionEnded(event.turn, step);
    else this.facts.apply(event, step.changes);
    return step.changes;
  }

  /** Whether the connection this store last heard left a request unanswered (see `connection_ended`). */
  hasUnanswered(): boolean {
    return this.pending['client->agent'].size + this.pending['agent->client'].size > 0;
  }

  private connectionEnded(turn: boolean, step: Step): void {
    const mark = (sessionId: string, entryKey: string, notice: Omit<Notice, 'entryKey'>) => this.facts.apply({ event: 'notice', sessionId, notice: { ...notice, entryKey } }, step.changes);
    for (const req of this.pending['agent->client'].values())
      if (req.method === ClientMethods.sessionRequestPermission && req.sessionId !== null && req.localKey !== null)
        mark(req.sessionId, req.localKey, { severity: 'info', title: 'Permission request expired: the agent that asked is no longer waiting.', description: 'Nothing was allowed.' });
    if (turn)
      for (const req of this.pending['client->agent'].values())
        if (req.method === AgentMethods.sessionPrompt && req.sessionId !== null && req.localKey !== null)
          mark(req.sessionId, req.localKey, { severity: 'warning', title: 'Interrupted: this turn was running when the window closed; it was not resumed.', description: 'Send a message to go on.' });
    this.pending['client->agent'].clear();
    this.pending['agent->client'].clear();
  }

  /** @internal Used by the reducer step; records a diagnostic and reports it as a change. */
  addDiagnostic(step: Step, severity: Diagnostic['severity'], message: string): void {
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
  ingest(dir: Direction, msg: unknown, line?: number): readonly StoreChange[] {
    const checked = checkMessage(msg);
    if (!checked.ok) return this.lineError(line, `${dir}: ${checked.error}`);
    return this.ingestChecked(dir, checked, line);
  }

  /**
   * Feed one message the transport already checked (`checkMessage`, as the live client's tap hands it
   * on): the envelope is not checked again, and a text chunk goes straight to its session.
   */
  ingestChecked(dir: Direction, checked: CheckedMessage, line?: number): readonly StoreChange[] {
    const step = new Step(this, line, this.nowFn(), this.version, this.newKeyFn);
    const fast = dir === 'agent->client' && checked.chunk ? chunkFor(checked.chunk, step.version) : undefined;
    if (fast !== undefined) {
      step.sessionId = fast.sessionId;
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
  ingestLine(text: string, line?: number): readonly StoreChange[] {
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch (err) {
      return this.lineError(line, `capture line is not JSON (${errorText(err)})`);
    }
    if (tooDeep(text, rec)) return this.lineError(line, `capture line nests deeper than ${MAX_NESTING} levels; it is skipped`);
    if (!isRecord(rec)) return this.lineError(line, 'capture line is not an object');
    const dir = rec.dir;
    if (dir === 'client->agent' || dir === 'agent->client') {
      if (!('msg' in rec)) return this.lineError(line, "capture line has no 'msg'");
      return this.ingest(dir, rec.msg, line);
    }
    if (dir === 'note') {
      const event = clientEventOfNote(rec.msg);
      return event ? this.record(event, line) : [];
    }
    return this.lineError(line, `capture line has an unknown 'dir' (${JSON.stringify(dir)})`);
  }

  private lineError(line: number | undefined, message: string): readonly StoreChange[] {
    const step = new Step(this, line, this.nowFn(), this.version, this.newKeyFn);
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

  private apply(sessionId: string, action: Action, step: Step): void {
    step.sessionId = sessionId;
    this.sessionFor(sessionId, step).apply(action, step);
  }

  // ---- traffic ----------------------------------------------------------------------------------

  private request(dir: Direction, id: RequestId, method: string, params: unknown, step: Step): void {
    const sid = zSessionIdParams.safeParse(params);
    const sessionId = sid.success ? sid.data.sessionId : null;
    const pending: PendingRequest = { method, sessionId, modeId: null, localKey: null };
    if (dir === 'client->agent') {
      switch (method) {
        case AgentMethods.sessionPrompt: {
          const p = zPromptParams.safeParse(params);
          if (!p.success) {
            step.diagnostic('warning', `session/prompt with malformed params: not shown`);
            break;
          }
          const content = p.data.prompt.flatMap((b) => {
            const r = zContentBlock.safeParse(b);
            return r.success ? [r.data] : [];
          });
          this.apply(p.data.sessionId, { kind: 'local_prompt', content }, step);
          const s = this.byId.get(p.data.sessionId);
          const st = s?.state();
          pending.localKey = st ? (st.entries[st.entries.length - 1]?.key ?? null) : null;
          break;
        }
        case AgentMethods.sessionSteering: {
          const p = zPromptParams.safeParse(params);
          if (p.success) pending.steered = p.data.prompt;
          break;
        }
        case AgentMethods.sessionLoad:
        case AgentMethods.sessionResume:
          if (sessionId === null) break;
          // Load/resume (re)attach the session to this connection and its protocol version.
          this.sessionFor(sessionId, step).protocolVersion = this.protocolVersion;
          if (method === AgentMethods.sessionLoad) this.apply(sessionId, { kind: 'load_started' }, step);
          break;
        case AgentMethods.sessionFork: {
          const at = forkAtMessageOf(params);
          if (at !== undefined) pending.forkAt = at;
          break;
        }
        case AgentMethods.sessionSetMode: {
          const p = zSetModeParams.safeParse(params);
          if (p.success) pending.modeId = p.data.modeId;
          break;
        }
      }
    } else if (method === ClientMethods.sessionRequestPermission) {
      const p = zPermissionParams.safeParse(params);
      const raw = p.success ? (p.data.toolCall ?? (p.data.subject?.type === 'tool_call' ? p.data.subject.toolCall : undefined)) : undefined;
      if (p.success && raw !== undefined) {
        const tc = zToolCallPatch.safeParse(raw);
        if (tc.success) {
          this.apply(p.data.sessionId, { kind: 'permission_tool_call', patch: tc.data }, step);
          this.permissionOutcomes.request(id, p.data.sessionId, tc.data.toolCallId, params);
          // The card the request is about, to mark it if the request is never answered.
          pending.localKey = this.byId.get(p.data.sessionId)?.state().entries.findLast((e) => e.kind === 'tool_call' && e.toolCallId === tc.data.toolCallId)?.key ?? null;
        } else step.diagnostic('error', `session/request_permission toolCall rejected: ${issueText(tc.error)}`);
      }
    } else if (method === ClientMethods.elicitationCreate) {
      if (id !== null) pending.localKey = this.elicitationAsked(id, params, step);
    }
    this.pending[dir].set(idKey(id), pending);
  }

  /** A session-scoped `elicitation/create` becomes an entry; its key is remembered to record the answer. */
  private elicitationAsked(id: string | number, params: unknown, step: Step): string | null {
    const p = zCreateElicitationParams.safeParse(params);
    if (!p.success || p.data.sessionId === undefined) return null; // request-scoped: no session to show it in
    const d = p.data;
    const sessionId = d.sessionId as string;
    this.apply(
      sessionId,
      {
        kind: 'elicitation_asked',
        ask: {
          requestId: id,
          mode: d.mode,
          message: d.message,
          toolCallId: d.toolCallId ?? null,
          requestedSchema: d.requestedSchema ?? null,
          elicitationId: d.elicitationId ?? null,
          url: d.url ?? null,
        },
      },
      step,
    );
    const entries = this.byId.get(sessionId)?.state().entries;
    return entries?.[entries.length - 1]?.key ?? null;
  }

  private notification(dir: Direction, method: string, params: unknown, step: Step): void {
    if (dir === 'agent->client' && method === ClientMethods.sessionUpdate) {
      const r = parseSessionUpdate(params, step.version);
      if (r.sessionId !== null) step.sessionId = r.sessionId;
      if (!r.ok) {
        step.diagnostic(r.severity, r.message);
        return;
      }
      for (const w of r.warnings) step.diagnostic('warning', w);
      if (r.update.kind === 'ignored') return this.shownBeside(params, step);
      this.apply(r.sessionId, r.update, step);
    } else if (dir === 'agent->client' && method === ClientMethods.elicitationComplete) {
      const p = zCompleteElicitationParams.safeParse(params);
      if (p.success) for (const s of this.byId.keys()) this.apply(s, { kind: 'elicitation_completed', elicitationId: p.data.elicitationId }, step);
    } else if (dir === 'client->agent' && method === AgentMethods.sessionCancel) {
      const sid = zSessionIdParams.safeParse(params);
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
    const result = outcome.ok ? outcome.result : undefined;
    switch (req.method) {
      case AgentMethods.initialize: {
        const r = zInitializeResult.safeParse(result);
        if (r.success) this.protocolVersion = r.data.protocolVersion;
        return;
      }
      case AgentMethods.sessionNew: {
        const r = zNewSessionResult.safeParse(result);
        if (!r.success) return;
        const s = this.sessionFor(r.data.sessionId, step);
        s.protocolVersion = this.protocolVersion;
        this.sessionResult(r.data.sessionId, result, step);
        return;
      }
      case AgentMethods.sessionSteering: {
        // Shown where the running turn took it, as the prompt of a session/prompt is shown where it was sent.
        const r = zSteeringResult.safeParse(result);
        if (!r.success || !steered(r.data) || !req.steered || req.sessionId === null) return;
        const content = req.steered.flatMap((b) => {
          const c = zContentBlock.safeParse(b);
          return c.success ? [c.data] : [];
        });
        this.apply(req.sessionId, { kind: 'local_prompt', content }, step);
        return;
      }
      case AgentMethods.sessionSetTitle: {
        // The title as the agent stored it; agents need not also send a session_info_update.
        const r = zSetSessionTitleResult.safeParse(result);
        if (r.success && req.sessionId !== null && this.byId.has(req.sessionId)) this.apply(req.sessionId, { kind: 'session_info', info: { title: r.data.title } }, step);
        return;
      }
      case AgentMethods.sessionFork: {
        const r = zNewSessionResult.safeParse(result);
        if (!r.success || r.data.sessionId === req.sessionId) return;
        const source = req.sessionId === null ? undefined : this.byId.get(req.sessionId);
        this.sessionFor(r.data.sessionId, step).protocolVersion = this.protocolVersion;
        if (source) this.apply(r.data.sessionId, { kind: 'forked', entries: entriesBefore(source.state().entries, req.forkAt) }, step);
        this.sessionResult(r.data.sessionId, result, step);
        return;
      }
      case AgentMethods.sessionLoad:
        if (req.sessionId === null) return;
        // Some agents answer session/load first and stream the replay afterwards (Gemini CLI sends one
        // chunk, the response, then the rest of the history): after a successful load the replay window
        // stays open until the next prompt (session.ts ends it there); a failed load replays nothing.
        if (!outcome.ok) this.apply(req.sessionId, { kind: 'load_ended' }, step);
        if (outcome.ok) this.sessionResult(req.sessionId, result, step);
        return;
      case AgentMethods.sessionResume:
        if (req.sessionId !== null && outcome.ok) this.sessionResult(req.sessionId, result, step);
        return;
      case AgentMethods.sessionSetMode:
        if (outcome.ok && req.sessionId !== null && req.modeId !== null) this.apply(req.sessionId, { kind: 'mode_set', modeId: req.modeId }, step);
        return;
      case AgentMethods.sessionSetConfigOption:
        if (outcome.ok && req.sessionId !== null) this.sessionResult(req.sessionId, result, step);
        return;
      case AgentMethods.sessionPrompt: {
        if (req.sessionId === null) return;
        const r = zPromptResult.safeParse(result);
        const messageId = this.version === PROTOCOL_V2 && r.success ? (r.data.messageId ?? null) : null;
        this.apply(req.sessionId, { kind: 'prompt_answered', localKey: req.localKey, messageId }, step);
        return;
      }
    }
  }

  private sessionResult(sessionId: string, result: unknown, step: Step): void {
    const r = zSessionResult.safeParse(result);
    if (!r.success) return;
    const modes = r.data.modes === undefined || r.data.modes === null ? null : zSessionModeState.safeParse(r.data.modes);
    const options = Array.isArray(r.data.configOptions)
      ? r.data.configOptions.flatMap((o) => {
          const c = zConfigOption.safeParse(o);
          return c.success ? [c.data] : [];
        })
      : null;
    if (modes && !modes.success) step.diagnostic('warning', `malformed 'modes' in a session result ignored`);
    const m = modes && modes.success ? modes.data : null;
    if (m || options) this.apply(sessionId, { kind: 'session_result', modes: m, configOptions: options }, step);
    // v2 draft session results also carry the available commands (v1 sends them as an update only).
    if (Array.isArray(r.data.availableCommands)) {
      const c = zAvailableCommandsUpdate.safeParse({ availableCommands: r.data.availableCommands });
      if (c.success) this.apply(sessionId, { kind: 'available_commands', commands: c.data.availableCommands }, step);
    }
  }

  // ---- persistence ------------------------------------------------------------------------------

  /** Complete, versioned, plain JSON: entries with keys, reducer bookkeeping, pending requests, diagnostics. */
  toJSON(): PersistedStore {
    return {
      format: STORE_FORMAT,
      version: STORE_FORMAT_VERSION,
      protocolVersion: this.protocolVersion,
      attached: this.attached,
      sessions: [...this.byId.values()].map((s) => {
        const i = s.internals();
        return {
          ...s.state(),
          entries: s.state().entries.map(plainEntry),
          internals: {
            open: i.open,
            echo: i.echo ? { ...i.echo } : null,
            lastAgentKey: i.lastAgentKey,
            replay: i.replay ? replayToPlain(i.replay) : null,
          },
        };
      }),
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
    store.facts.restore(top.data.notices, top.data.changes);
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
    return { store, diagnostics };
  }
}

/** A copy with `stats.lines` detached from the live, store-owned run array. */
function plainEntry(e: Entry): Entry {
  return { ...e, stats: { ...e.stats, lines: e.stats.lines.map((r) => [r[0], r[1]] as const) } };
}
