/**
 * The conformance checker: a pure state machine over capture lines (`{dir, msg}`, in wire order) that
 * reports where the *agent* breaks the protocol. Client messages are read only to know what the agent
 * was asked, what was advertised and which sessions exist. Feed it line by line (`observe`), then call
 * `finish()` once: a few rules (an id the client never learns) can only be decided at the end.
 *
 *   const c = new ConformanceChecker();
 *   lines.forEach((l, i) => c.observeRecord(JSON.parse(l), i + 1));
 *   c.finish();
 *   c.findings();   // sorted by line
 */
import { AgentMethods, ClientMethods, PROTOCOL_V1, PROTOCOL_V2 } from '../protocol/methods';
import type { ProtocolVersion } from '../protocol/methods';
import { STOP_REASONS } from '../protocol/requests';
import { classifyAgentMethod } from './catalogue';
import { RULES } from './rules';
import type { Finding, RuleId, Severity } from './rules';
import { checkParams, checkResult } from './validate';
import { SessionRules } from './sessionRules';
import { PlanTraffic } from './planTraffic';
import { relativeDirectory } from './directoryRules';
import { OPENS_SESSION } from '../store/sessionScope';
import { isObj, quote, show } from './util';
import { advertises, clientCapabilityNeeded, errorObjectProblem, formSchemaProblem, unadvertisedTerminalAuth } from './messageChecks';
import { chunkFor } from '../jsonrpc/fastPath';
import type { CheckedMessage } from '../jsonrpc/rpc';
import type { Json } from './util';

/** The note a capture writes for a stdout line the transport skipped (`reason` says why, `raw` is the line). */
export const SKIPPED_LINE_NOTE = 'skipped line from agent';

interface Pending {
  readonly method: string;
  readonly line: number;
  readonly params: Json;
}

export class ConformanceChecker {
  private readonly out: Finding[] = [];
  private version: ProtocolVersion = PROTOCOL_V1;
  private requestedVersion: ProtocolVersion = PROTOCOL_V1;
  private clientCaps: Json = {};
  private agentCaps: Json = {};
  private initialized = false;
  /** Requests the client sent, waiting for the agent's response (key: JSON of the id). */
  private readonly clientPending = new Map<string, Pending>();
  private readonly answered = new Map<string, { method: string; line: number }>();
  /** URL-mode elicitation ids announced so far, with their lines. */
  private readonly elicitationIds = new Map<string, number>();
  private readonly sessions: SessionRules;
  private readonly plans: PlanTraffic;
  private finished = false;

  constructor(opts: { protocolVersion?: ProtocolVersion } = {}) {
    if (opts.protocolVersion) this.version = this.requestedVersion = opts.protocolVersion;
    this.sessions = new SessionRules((rule, line, message, severity, sessionId) => this.report(rule, line, message, severity, sessionId));
    this.plans = new PlanTraffic((line, message, sid) => this.report('plan-unknown-id', line, message, 'warning', sid));
  }

  /** The protocol version the connection negotiated (1 until an initialize response says otherwise). */
  get protocolVersion(): ProtocolVersion {
    return this.version;
  }

  /** What the agent advertised in `initialize` (empty before). */
  get agentCapabilities(): Json {
    return this.agentCaps;
  }

  get clientCapabilities(): Json {
    return this.clientCaps;
  }

  /** Findings so far, sorted by line (stable for equal lines). */
  findings(): readonly Finding[] {
    return this.out
      .map((f, i) => ({ f, i }))
      .sort((a, b) => a.f.line - b.f.line || a.i - b.i)
      .map((x) => x.f);
  }

  /** A whole capture record (`{dir, msg}`; a note may carry its fields at the top level). */
  observeRecord(record: unknown, line: number): void {
    if (!isObj(record) || typeof record['dir'] !== 'string') return;
    const dir = record['dir'];
    if (dir === 'note') this.observeNote(isObj(record['msg']) ? record['msg'] : record, line);
    else this.observe(dir, record['msg'], line);
  }

  observeNote(note: Json, line: number): void {
    if (note['text'] !== SKIPPED_LINE_NOTE) return;
    const reason = typeof note['reason'] === 'string' ? note['reason'] : '';
    const raw = typeof note['raw'] === 'string' ? note['raw'] : '';
    if (reason.startsWith('not JSON')) {
      this.report('stdout-not-json', line, `stdout line ${quote(raw)} is not JSON: write logs and banners to stderr; stdout carries only ACP messages`);
    } else {
      this.report('invalid-message', line, `stdout line ${quote(raw)} was refused (${reason || 'not a JSON-RPC message'}): send one JSON-RPC 2.0 object per line`);
    }
  }

  /**
   * `checked`, when the transport's one check of the message is at hand (live traffic), spares the
   * schema check of a plain text chunk: it is valid and warning-free by construction (`fastPath.ts`).
   */
  observe(dir: string, msg: unknown, line: number, checked?: CheckedMessage): void {
    if (dir === 'client->agent') this.fromClient(msg, line);
    else if (dir === 'agent->client') this.fromAgent(msg, line, checked);
  }

  /** Decides what only the end of a capture can tell (sessions never learned). Idempotent. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.sessions.finish();
  }

  private report(rule: RuleId, line: number, message: string, severity: Severity = RULES[rule].severity, sessionId?: string): void {
    this.out.push({ rule, severity, line, message, ...(sessionId !== undefined ? { sessionId } : {}) });
  }

  // ---------------------------------------------------------------- client -> agent

  private fromClient(msg: unknown, line: number): void {
    if (!isObj(msg)) return;
    const method = typeof msg['method'] === 'string' ? msg['method'] : undefined;
    if (method === undefined) return; // the client's answers to the agent's requests
    const params = isObj(msg['params']) ? msg['params'] : {};
    if ('id' in msg && msg['id'] !== undefined) {
      const key = JSON.stringify(msg['id']);
      this.clientPending.set(key, { method, line, params });
      this.answered.delete(key);
    }
    const relative = OPENS_SESSION.has(method) ? relativeDirectory(params) : undefined;
    if (relative) this.report('directory-not-absolute', line, `the client's ${method} has ${relative.field} ${quote(relative.value, 60)}: send absolute paths only`);
    switch (method) {
      case AgentMethods.initialize:
        this.clientCaps = isObj(params['clientCapabilities']) ? params['clientCapabilities'] : isObj(params['capabilities']) ? params['capabilities'] : {};
        if (params['protocolVersion'] === PROTOCOL_V2) this.requestedVersion = PROTOCOL_V2;
        break;
      case AgentMethods.sessionPrompt:
        this.sessions.promptSent(str(params['sessionId']));
        break;
      case AgentMethods.sessionCancel:
        this.sessions.cancelSent(str(params['sessionId']));
        break;
      case AgentMethods.sessionLoad:
      case AgentMethods.sessionResume:
        // The client named the session itself: it is known, and what follows until the answer is replay.
        this.sessions.learn(str(params['sessionId']), line);
        this.sessions.replayStarted(str(params['sessionId']));
        break;
    }
  }

  // ---------------------------------------------------------------- agent -> client

  private fromAgent(msg: unknown, line: number, checked?: CheckedMessage): void {
    if (Array.isArray(msg)) {
      this.report('invalid-message', line, 'a JSON array (JSON-RPC batch): ACP does not use batches; send one message per line');
      return;
    }
    if (!isObj(msg)) {
      this.report('invalid-message', line, 'not a JSON object: every line must be one JSON-RPC 2.0 message object');
      return;
    }
    if (msg['jsonrpc'] !== '2.0') {
      this.report('invalid-message', line, `"jsonrpc" is ${show(msg['jsonrpc'])}: set "jsonrpc": "2.0" on every message`);
    }
    if (typeof msg['method'] === 'string') this.agentCall(msg['method'], msg, line, checked?.chunk !== undefined && chunkFor(checked.chunk, this.version) !== undefined);
    else if ('method' in msg) this.report('invalid-message', line, '"method" is not a string');
    else this.agentResponse(msg, line);
  }

  private checkId(msg: Json, line: number, what: string): void {
    const id = msg['id'];
    const ok = typeof id === 'string' || (typeof id === 'number' && (this.version === PROTOCOL_V1 || Number.isInteger(id)));
    if (!ok) this.report('invalid-message', line, `${what} id ${show(id)} is not a string or ${this.version === PROTOCOL_V2 ? 'integer' : 'number'}: use a string or integer id`);
  }

  private agentCall(method: string, msg: Json, line: number, plainChunk: boolean): void {
    const isRequest = 'id' in msg;
    if (isRequest) this.checkId(msg, line, 'request');
    const verdict = classifyAgentMethod(method, this.version);
    if (verdict === 'extension') return;
    if (verdict !== 'known') {
      const why =
        verdict === 'wrong-direction'
          ? 'is a method the client calls on the agent, not the other way round'
          : verdict === 'other-version'
            ? `is not part of ACP v${this.version} (the protocol this connection negotiated)`
            : 'is not an ACP method';
      this.report(
        'unknown-method',
        line,
        `"${quote(method, 80).slice(1, -1)}" ${why}: rename it to an extension method starting with "_" (e.g. "_vendor/${method.replace(/[^A-Za-z0-9_./-]/g, '').slice(0, 40)}")`,
      );
      return;
    }
    if (msg['params'] !== undefined && !isObj(msg['params'])) {
      this.report('invalid-message', line, `${method}: params must be an object`);
      return;
    }
    const params = isObj(msg['params']) ? msg['params'] : {};
    if (method === ClientMethods.sessionUpdate) {
      this.sessions.update(params, line, this.version, this.clientCaps, plainChunk);
      if (!plainChunk) this.plans.update(params, line);
      return;
    }
    const invalid = checkParams(method, msg['params'], this.version);
    if (invalid) this.report('invalid-message', line, `${method} ${invalid}: send params that match the schema`);
    this.checkClientCapability(method, params, line);
    if (typeof params['sessionId'] === 'string') this.sessions.touch(params['sessionId'], line, method);
    if (method === ClientMethods.sessionRequestPermission && isObj(params['toolCall'])) {
      this.sessions.permissionFor(str(params['sessionId']), params['toolCall'], line);
    }
    if (method === ClientMethods.elicitationCreate) this.elicitationCreated(params, line);
    else if (method === ClientMethods.elicitationComplete) this.elicitationCompleted(params, line);
  }

  private elicitationCreated(params: Json, line: number): void {
    const sid = typeof params['sessionId'] === 'string' ? params['sessionId'] : undefined;
    const schemaProblem = formSchemaProblem(params);
    if (schemaProblem) this.report('elicitation-schema-unsupported', line, schemaProblem, 'error', sid);
    if (params['mode'] === 'url' && typeof params['elicitationId'] === 'string') this.elicitationIds.set(params['elicitationId'], line);
    const toolCallId = params['toolCallId'];
    if (sid !== undefined && typeof toolCallId === 'string' && !this.sessions.knowsToolCall(sid, toolCallId)) {
      this.report(
        'elicitation-tool-call-unknown',
        line,
        `elicitation/create names tool call ${quote(toolCallId, 40)}, which session ${quote(sid, 40)} never announced: send the tool_call first, or leave toolCallId out`,
        'warning',
        sid,
      );
    }
  }

  private elicitationCompleted(params: Json, line: number): void {
    const id = params['elicitationId'];
    if (typeof id === 'string' && !this.elicitationIds.has(id)) {
      this.report(
        'elicitation-unknown-id',
        line,
        `elicitation/complete for ${quote(id, 40)}, which no URL-mode elicitation/create announced: complete only elicitations you started, by their elicitationId`,
      );
    }
  }

  private checkClientCapability(method: string, params: Json, line: number): void {
    const needed = clientCapabilityNeeded(method, params, this.clientCaps, this.version);
    if (needed) this.report('capability-unadvertised', line, `${method} called but the client did not advertise ${needed}: check the client's capabilities before calling it`);
  }

  private agentResponse(msg: Json, line: number): void {
    const hasResult = 'result' in msg;
    const hasError = 'error' in msg;
    if (hasError) this.checkErrorObject(msg['error'], line);
    if (hasResult === hasError) {
      this.report(
        'invalid-message',
        line,
        hasResult ? 'a response with both "result" and "error": send exactly one' : 'neither a request, a notification nor a response (no "method", "result" or "error")',
      );
      if (!hasResult) return;
    }
    if (msg['id'] === null && hasError) return; // an answer to a line the agent could not parse: the client's fault
    this.checkId(msg, line, 'response');
    const key = JSON.stringify(msg['id']);
    const req = this.clientPending.get(key);
    if (!req) {
      const earlier = this.answered.get(key);
      if (earlier)
        this.report(
          'response-duplicate',
          line,
          `a second response to ${earlier.method} id ${show(msg['id'])} (first answered on line ${earlier.line}): answer each request exactly once`,
        );
      else this.report('response-unknown-id', line, `a response with id ${show(msg['id'])}, which matches no pending client request: answer with the id of the request`);
      return;
    }
    this.clientPending.delete(key);
    this.answered.set(key, { method: req.method, line });
    if (hasResult && !hasError) this.resultOf(req, msg['result'], line);
    else this.errorOf(req, line);
  }

  /** session/list: each SessionInfo's `cwd` and `additionalDirectories` are absolute. */
  private listedDirectories(sessions: unknown, line: number): void {
    const bad = Array.isArray(sessions) ? sessions.flatMap((s) => (isObj(s) ? [relativeDirectory(s)].filter((r) => r !== undefined) : [])) : [];
    if (bad[0]) this.report('directory-not-absolute', line, `session/list reports ${bad[0].field} ${quote(bad[0].value, 60)}: report absolute paths only`);
  }

  private checkErrorObject(error: unknown, line: number): void {
    const problem = errorObjectProblem(error);
    if (problem) this.report('error-object-invalid', line, problem);
  }

  private resultOf(req: Pending, result: unknown, line: number): void {
    if (req.method === AgentMethods.initialize && isObj(result)) {
      const v = result['protocolVersion'];
      this.version = v === PROTOCOL_V2 && this.requestedVersion === PROTOCOL_V2 ? PROTOCOL_V2 : PROTOCOL_V1;
      this.initialized = true;
      const caps = this.version === PROTOCOL_V2 ? result['capabilities'] : result['agentCapabilities'];
      this.agentCaps = isObj(caps) ? caps : {};
      this.checkAuthMethods(result['authMethods'], line);
    }
    const invalid = checkResult(req.method, result, this.version);
    if (invalid) this.report('invalid-message', line, `${req.method} ${invalid}: answer with a result that matches the schema`);
    const r = isObj(result) ? result : {};
    switch (req.method) {
      case AgentMethods.sessionNew:
      case AgentMethods.sessionFork:
        if (typeof r['sessionId'] === 'string') this.sessions.learn(r['sessionId'], line);
        break;
      case AgentMethods.sessionList:
        if (Array.isArray(r['sessions'])) for (const s of r['sessions']) if (isObj(s) && typeof s['sessionId'] === 'string') this.sessions.learn(s['sessionId'], line);
        this.listedDirectories(r['sessions'], line);
        break;
      case AgentMethods.sessionPrompt:
        this.promptAnswered(req, r, line);
        break;
      case AgentMethods.sessionClose:
        this.sessions.closed(str(req.params['sessionId']), line);
        break;
    }
    if (req.method === AgentMethods.sessionLoad || req.method === AgentMethods.sessionResume) this.sessions.replayEnded(str(req.params['sessionId']));
    this.checkAdvertised(req.method, line);
  }

  private errorOf(req: Pending, line: number): void {
    if (req.method === AgentMethods.sessionLoad || req.method === AgentMethods.sessionResume) this.sessions.replayEnded(str(req.params['sessionId']));
    if (req.method === AgentMethods.sessionPrompt) {
      const sid = str(req.params['sessionId']);
      if (this.version === PROTOCOL_V1 && this.sessions.turnCancelled(sid)) {
        this.report(
          'cancel-not-honoured',
          line,
          'the cancelled prompt was answered with an error: after session/cancel answer {"stopReason": "cancelled"} (catch the abort instead of failing)',
          'error',
          sid,
        );
      }
      this.sessions.promptEnded(sid, this.version);
    }
  }

  private promptAnswered(req: Pending, r: Json, line: number): void {
    const sid = str(req.params['sessionId']);
    if (this.version === PROTOCOL_V1) {
      const reason = r['stopReason'];
      if (typeof reason !== 'string' || !(STOP_REASONS as readonly string[]).includes(reason)) {
        this.report(
          'stop-reason-invalid',
          line,
          `stopReason ${show(reason)} is not one of ${STOP_REASONS.join(', ')}: answer session/prompt with a schema stop reason`,
          'error',
          sid,
        );
      } else if (reason !== 'cancelled' && this.sessions.turnCancelled(sid)) {
        // The turn may have ended on its own just before the cancel arrived: a race, so only a warning.
        this.report(
          'cancel-not-honoured',
          line,
          `the prompt was answered "${reason}" after the client sent session/cancel: answer "cancelled" when the cancel arrives before the turn ends`,
          'warning',
          sid,
        );
      }
    }
    this.sessions.promptEnded(sid, this.version);
  }

  private checkAdvertised(method: string, line: number): void {
    if (this.version !== PROTOCOL_V1 || !this.initialized) return;
    if (advertises(method, this.agentCaps) === false) {
      this.report(
        'capability-unadvertised',
        line,
        `the agent answers ${method} but did not advertise it in initialize: advertise the capability so clients use it (they MUST NOT call it otherwise)`,
        'warning',
      );
    }
  }

  private checkAuthMethods(methods: unknown, line: number): void {
    for (const id of unadvertisedTerminalAuth(methods, this.clientCaps))
      this.report(
        'capability-unadvertised',
        line,
        `auth method ${show(id)} has type "terminal" but the client did not advertise clientCapabilities.auth.terminal: offer it only to clients that do`,
      );
  }
}

function str(x: unknown): string {
  return typeof x === 'string' ? x : '';
}
