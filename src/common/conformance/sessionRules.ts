/**
 * The per-session half of the conformance checker: `session/update` validity, message ids, the
 * tool-call lifecycle, the turn window and sessions the client never learned (a subagent is learned
 * through its parent's announcement: `subagentTraffic.ts`). `ConformanceChecker` tells it what the
 * client did (prompt, cancel, load, close) and hands it every update in wire order.
 */
import { PROTOCOL_V1, PROTOCOL_V2 } from '../protocol/methods';
import type { ProtocolVersion } from '../protocol/methods';
import { STOP_REASONS } from '../protocol/requests';
import { parseSessionUpdate } from '../protocol/updates';
import { isUpdateKind } from './catalogue';
import type { RuleId, Severity } from './rules';
import { SubagentTraffic } from './subagentTraffic';
import { CompactionTraffic } from './compactionTraffic';
import { isObj, quote, show } from './util';
import type { Json } from './util';

type Report = (rule: RuleId, line: number, message: string, severity?: Severity, sessionId?: string) => void;

const MESSAGE_KINDS: Readonly<Record<string, string>> = {
  user_message_chunk: 'user_message',
  agent_message_chunk: 'agent_message',
  agent_thought_chunk: 'agent_thought',
  user_message: 'user_message',
  agent_message: 'agent_message',
  agent_thought: 'agent_thought',
  // Required by the schema (a missing one is a schema error), so they say nothing about an agent's other ids.
  session_message: 'session_message',
  session_message_chunk: 'session_message',
};
/** Updates only a client that advertised `subagents` may receive (v1 unstable). */
const SUBAGENT_KINDS = new Set(['subagent_update', 'session_message', 'session_message_chunk']);

/** Updates that belong to a turn; the rest (commands, modes, usage, info, notices…) may come any time. */
const TURN_CONTENT = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'agent_message',
  'agent_thought',
  'tool_call',
  'tool_call_update',
  'tool_call_content_chunk',
  'plan',
  'plan_update',
]);
/** v2 prompts insert the user message; its update may come after the idle state of the previous work. */
const V2_OUTSIDE_OK = new Set(['user_message', 'user_message_chunk']);

const FINAL_STATUS = new Set(['completed', 'failed', 'cancelled']);
const V2_STOP_REASONS = new Set<string>([...STOP_REASONS, 'error']);

interface Track {
  known: boolean;
  /** Lines about this session seen before the client learned its id (`replay`: while some session replayed). */
  readonly early: { line: number; what: string; replay: boolean }[];
  promptOpen: boolean;
  /** v1: a prompt was answered and no new one sent; v2: the last state_update was idle. */
  turnEnded: boolean;
  cancelled: boolean;
  replaying: number;
  idsSeen: boolean;
  readonly idless: number[];
  readonly messageKinds: Map<string, { kind: string; line: number }>;
  readonly tools: Map<string, { ended: boolean; line: number }>;
}

export class SessionRules {
  private readonly tracks = new Map<string, Track>();
  private readonly subagents: SubagentTraffic;
  private readonly compactions: CompactionTraffic;
  /** Session/load and resume replays in progress, over all sessions. */
  private replays = 0;

  constructor(private readonly report: Report) {
    this.compactions = new CompactionTraffic(report);
    this.subagents = new SubagentTraffic(report, {
      isKnown: (sid) => this.tracks.get(sid)?.known === true,
      learn: (sid, line) => this.learn(sid, line),
      touch: (sid, line, what) => this.touch(sid, line, what),
    });
  }

  private track(sid: string): Track {
    let t = this.tracks.get(sid);
    if (!t) {
      t = { known: false, early: [], promptOpen: false, turnEnded: false, cancelled: false, replaying: 0, idsSeen: false, idless: [], messageKinds: new Map(), tools: new Map() };
      this.tracks.set(sid, t);
    }
    return t;
  }

  /**
   * The client received (or named) this session id, or a known session announced it as a subagent: earlier
   * lines about it were early, not unknown. The subagents it announced become known with it.
   */
  learn(sid: string, line: number): void {
    // A loop, not recursion: a chain of announcements can be as long as the agent makes it.
    const todo = [sid];
    for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
      const t = this.track(s);
      if (t.known) continue;
      t.known = true;
      const announced = this.subagents.announcedAt(s);
      for (const e of t.early.splice(0)) {
        if (announced === undefined || e.line > announced) {
          this.report(
            'session-update-early',
            e.line,
            `${e.what} for session ${quote(s, 40)} before the client received that id (line ${line}): send the session/new response first; clients that route by id drop early updates`,
            'warning',
            s,
          );
        } else if (!e.replay) {
          this.report(
            'subagent-before-announce',
            e.line,
            `${e.what} for subagent session ${quote(s, 40)} before the subagent_update that announces it (line ${announced}): announce the child on its parent first; clients drop traffic for sessions they do not know`,
            'error',
            s,
          );
        }
      }
      for (const child of this.subagents.childrenOf(s)) todo.push(child);
    }
  }

  /** An agent message about `sid`; buffered while the id is not known yet. */
  touch(sid: string, line: number, what: string): void {
    const t = this.track(sid);
    if (!t.known) t.early.push({ line, what, replay: this.replays > 0 });
    this.subagents.afterClose(sid, line, what);
  }

  /** The agent answered the client's session/close of `sid` (without an error). */
  closed(sid: string, line: number): void {
    this.subagents.closedAnswered(sid, line);
  }

  replayStarted(sid: string): void {
    this.track(sid).replaying++;
    this.replays++;
    this.subagents.reopened(sid);
  }

  replayEnded(sid: string): void {
    const t = this.track(sid);
    if (t.replaying === 0) return;
    t.replaying--;
    this.replays--;
  }

  promptSent(sid: string): void {
    const t = this.track(sid);
    t.promptOpen = true;
    t.turnEnded = false;
    t.cancelled = false;
  }

  cancelSent(sid: string): void {
    const t = this.track(sid);
    if (t.promptOpen) t.cancelled = true;
  }

  turnCancelled(sid: string): boolean {
    return this.tracks.get(sid)?.cancelled === true;
  }

  promptEnded(sid: string, version: ProtocolVersion): void {
    const t = this.track(sid);
    t.promptOpen = false;
    // In v2 the response only acknowledges the prompt; the idle state_update ends the work.
    if (version === PROTOCOL_V1) t.turnEnded = true;
  }

  /** Whether the session announced this tool call (by `tool_call`, an update or a permission request). */
  knowsToolCall(sid: string, toolCallId: string): boolean {
    return this.tracks.get(sid)?.tools.has(toolCallId) === true;
  }

  /** The toolCall of a permission request: announces the tool call if it is new. */
  permissionFor(sid: string, toolCall: Json, line: number): void {
    const id = toolCall['toolCallId'];
    if (typeof id !== 'string') return;
    const t = this.track(sid);
    const tool = t.tools.get(id);
    if (!tool) t.tools.set(id, { ended: false, line });
    else if (tool.ended)
      this.report(
        'tool-call-after-end',
        line,
        `permission requested for tool call ${quote(id, 40)}, which already ended (line ${tool.line}): ask before finishing the tool call`,
        'warning',
        sid,
      );
  }

  /** `plainChunk`: the message is known to be a valid, warning-free text chunk (no schema check needed). */
  update(params: Json, line: number, version: ProtocolVersion, clientCaps: Json, plainChunk = false): void {
    const sid = typeof params['sessionId'] === 'string' ? params['sessionId'] : undefined;
    const u = params['update'];
    const kind = isObj(u) && typeof u['sessionUpdate'] === 'string' ? u['sessionUpdate'] : undefined;
    if (sid === undefined || !isObj(u) || kind === undefined) {
      const r = parseSessionUpdate(params, version);
      this.report('invalid-message', line, `session/update ${r.ok ? 'params' : r.message}: send {"sessionId": …, "update": {"sessionUpdate": …}}`);
      return;
    }
    const t = this.track(sid);
    this.touch(sid, line, `session/update ${kind}`);
    if (!isUpdateKind(kind, version)) {
      this.report(
        'update-kind-unknown',
        line,
        `sessionUpdate ${quote(kind, 40)} is not a v${version} update: send only the schema's variants${version === PROTOCOL_V2 ? ' (or a "_vendor" one)' : ''}`,
        'warning',
        sid,
      );
      return;
    }
    if (!this.messageId(t, kind, u, line, version, sid)) return;
    const r = plainChunk ? undefined : parseSessionUpdate(params, version);
    if (r && !r.ok) {
      if (r.severity === 'error') this.report('invalid-message', line, `session/update ${r.message}: send the fields the schema requires`, 'error', sid);
    } else if (r) {
      for (const w of r.warnings) this.report('field-malformed', line, `${kind}: ${w}: fix the field (clients drop it)`, 'warning', sid);
    }
    this.capability(kind, u, line, version, clientCaps, sid);
    this.turn(t, kind, line, version, sid);
    this.toolCall(t, kind, u, line, version, sid);
    if (kind === 'state_update' && version === PROTOCOL_V2) this.state(t, u, line, sid);
    if (kind === 'compaction_update' || kind === 'compaction_summary_chunk') this.compactions.update(sid, kind, u, line, t.replaying > 0);
    if (kind === 'subagent_update') this.subagents.announce(sid, u, line);
    else if (kind === 'session_message') this.subagents.message(sid, u, line);
  }

  /** Message-id rules; false when the update is not worth checking further. */
  private messageId(t: Track, kind: string, u: Json, line: number, version: ProtocolVersion, sid: string): boolean {
    const role = MESSAGE_KINDS[kind];
    if (!role) return true;
    const id = u['messageId'];
    if (role === 'session_message') {
      if (typeof id === 'string') this.sameKind(t, id, role, line, sid);
      return true;
    }
    if (typeof id !== 'string') {
      if (version === PROTOCOL_V2) {
        this.report('message-id-missing', line, `${kind} without a messageId: v2 requires a non-null messageId on every message chunk and upsert`, 'error', sid);
        return false;
      }
      if (t.idsSeen) this.idless(line, kind, sid);
      else t.idless.push(line);
      return true;
    }
    if (!t.idsSeen) {
      t.idsSeen = true;
      for (const l of t.idless.splice(0)) this.idless(l, 'a message chunk', sid);
    }
    this.sameKind(t, id, role, line, sid);
    return true;
  }

  /** One id, one message kind, within a session. */
  private sameKind(t: Track, id: string, role: string, line: number, sid: string): void {
    const prev = t.messageKinds.get(id);
    if (!prev) t.messageKinds.set(id, { kind: role, line });
    else if (prev.kind !== role) {
      this.report(
        'message-id-kind-conflict',
        line,
        `messageId ${quote(id, 40)} is used for ${role} here and for ${prev.kind} on line ${prev.line}: give every message its own id (ACP Chat keeps the two apart, but a client that keys messages by id alone merges or drops them)`,
        'error',
        sid,
      );
    }
  }

  private idless(line: number, kind: string, sid: string): void {
    this.report('message-id-missing', line, `${kind} without a messageId although this agent sends ids on other chunks: attach the message's id to every chunk`, 'warning', sid);
  }

  private capability(kind: string, u: Json, line: number, version: ProtocolVersion, caps: Json, sid: string): void {
    if (version !== PROTOCOL_V1) return; // v2 needs no capability for notices, compaction or subagents
    const session = isObj(caps['session']) ? caps['session'] : {};
    let needed: string | null = null;
    if (kind === 'notice' && !isObj(session['notices'])) needed = 'session.notices';
    else if ((kind === 'compaction_update' || kind === 'compaction_summary_chunk') && !isObj(session['compaction'])) needed = 'session.compaction';
    else if ((kind === 'plan_update' || kind === 'plan_removed') && !isObj(caps['plan'])) needed = 'plan';
    else if (SUBAGENT_KINDS.has(kind) && !isObj(caps['subagents'])) needed = 'subagents';
    else if (kind === 'config_option_update' && Array.isArray(u['configOptions']) && u['configOptions'].some((o) => isObj(o) && o['type'] === 'boolean')) {
      const co = session['configOptions'];
      if (!isObj(co) || !isObj(co['boolean'])) needed = 'session.configOptions.boolean';
    }
    if (needed)
      this.report(
        'capability-unadvertised',
        line,
        `${kind} sent but the client did not advertise clientCapabilities.${needed}: send it only to clients that advertise it`,
        'error',
        sid,
      );
  }

  private turn(t: Track, kind: string, line: number, version: ProtocolVersion, sid: string): void {
    if (!TURN_CONTENT.has(kind) || !t.turnEnded || t.promptOpen || t.replaying > 0) return;
    if (version === PROTOCOL_V2 && V2_OUTSIDE_OK.has(kind)) return;
    // A session that started subagents may run a turn of its own when a background one reports back (the
    // subagents RFD's background work, as claude-agent-acp does): the client shows it as the agent's, not late.
    if (this.subagents.childrenOf(sid).length > 0) return;
    const end = version === PROTOCOL_V1 ? 'the session/prompt response' : 'the idle state_update';
    this.report(
      'update-after-turn-end',
      line,
      `${kind} after ${end} ended the turn: send every update of a turn before ${end}${version === PROTOCOL_V1 ? ' (clients treat later ones as stray)' : ', or report "running" first'}`,
      'warning',
      sid,
    );
  }

  private toolCall(t: Track, kind: string, u: Json, line: number, version: ProtocolVersion, sid: string): void {
    if (kind !== 'tool_call' && kind !== 'tool_call_update' && kind !== 'tool_call_content_chunk') return;
    const id = u['toolCallId'];
    if (typeof id !== 'string') return;
    const status = typeof u['status'] === 'string' ? u['status'] : undefined;
    if (kind === 'tool_call') {
      // A repeated tool_call is a full replacement (an upsert), also in a session/load replay.
      t.tools.set(id, { ended: status !== undefined && FINAL_STATUS.has(status), line });
      return;
    }
    const tool = t.tools.get(id);
    if (!tool) {
      if (version === PROTOCOL_V1 && kind === 'tool_call_update') {
        this.report('tool-call-unknown', line, `tool_call_update for ${quote(id, 40)}, which was never announced: send a tool_call (with a title) first`, 'warning', sid);
      }
      t.tools.set(id, { ended: status !== undefined && FINAL_STATUS.has(status), line });
      return;
    }
    if (tool.ended) {
      this.report('tool-call-after-end', line, `${kind} for ${quote(id, 40)} after it ended (line ${tool.line}): send every change before the final status`, 'warning', sid);
      return;
    }
    if (status !== undefined && FINAL_STATUS.has(status)) {
      tool.ended = true;
      tool.line = line;
    }
  }

  private state(t: Track, u: Json, line: number, sid: string): void {
    const state = u['state'];
    if (state === 'idle') {
      t.turnEnded = true;
      const reason = u['stopReason'];
      if (typeof reason === 'string' && !V2_STOP_REASONS.has(reason) && !reason.startsWith('_')) {
        this.report(
          'stop-reason-invalid',
          line,
          `stopReason ${show(reason)} is reserved (not in the v2 schema): use ${[...V2_STOP_REASONS].join(', ')} or a "_vendor" reason`,
          'warning',
          sid,
        );
      }
    } else if (state === 'running' || state === 'requires_action') {
      t.turnEnded = false;
    }
  }

  /** Lines about sessions the client never learned: session-unknown. */
  finish(): void {
    for (const [sid, t] of this.tracks) {
      if (t.known) continue;
      for (const e of t.early.splice(0)) {
        this.report(
          'session-unknown',
          e.line,
          `${e.what} for session ${quote(sid, 40)}, which the client never received: use the id returned by session/new (or given to session/load)`,
          'error',
          sid,
        );
      }
    }
  }
}
