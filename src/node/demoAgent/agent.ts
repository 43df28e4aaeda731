/**
 * The built-in demo agent: a real ACP v1 agent (the agent side of our own transport), no network;
 * asked for protocol 2 it speaks the v2 draft instead (v2.ts).
 * Sessions live in memory; `session/load` replays their history with the same messageIds, or in the
 * shapes real agents replay in (see replay.ts).
 *
 * A turn streams a thought, a plan, a markdown answer, a `read` tool call, optionally an edit behind
 * a permission request ("edit"/"permission" in the prompt), an edit the agent makes itself and only
 * reports as a fragment diff, as Claude Code does ("yourself"), and a terminal run ("run"/"terminal"),
 * then a second message and a usage update. "subagent" starts a child session that makes the edit (for a
 * client that advertised `subagents`; "background" too: it outlives the turn, see subagent.ts). "/compact"
 * compacts the conversation (compaction.ts).
 * `session/cancel` stops it with stopReason "cancelled".
 * The turn reads as one script, step after step; its tool steps (tools.ts), the v2 draft, replays, session
 * operations, sign-in and content live in their own files beside it.
 */
import * as z from 'zod';
import { AgentMethods, ClientMethods, ErrorCodes, PROTOCOL_V2 } from '../../common/protocol/methods';
import {
  zAuthenticateParams,
  zInitializeParams,
  zListSessionsParams,
  zLoadSessionParams,
  zNewSessionParams,
  zPromptParams,
  zResumeSessionParams,
  zSessionIdParams,
  zSetConfigOptionParams,
  zSetModeParams,
} from '../../common/protocol/requests';
import type { ClientCapabilities, SessionInfo } from '../../common/protocol/requests';
import { onAcpNotification, onAcpRequest, rpcError } from '../transport/connection';
import type { AcpConnection } from '../transport/connection';
import { sendUpdate } from './send';
import { demoTitle } from './title';
import { chunkText } from './chunks';
import * as text from './content';
import { replayHistory, type ReplayShape } from './replay';
import { silence, type DemoFault } from './faults';
import { DemoAgentV2 } from './v2';
import { DemoAuth } from './auth';
import { registerSteering } from './steering';
import { editTool, readTool, selfEditTool, terminalTool, type Session, type ToolIo, type Update } from './tools';
import { backgroundTurn, subagentTool } from './subagent';
import { setupOf, setupText } from './setup';
import { showcaseTurn } from './showcase';
import { adoptedTag, knownSession, listedForArchiveFilter, registerSessionOps, unknownMessage } from './sessionOps';
import type { DemoAgentOptions } from './options';
import { v1InitializeResult } from './initialize';

class Cancelled extends Error {}

export class DemoAgent {
  private readonly sessions: Map<string, Session>;
  private clientCaps: ClientCapabilities = {};
  private readonly delayMs: number;
  private readonly replay: readonly ReplayShape[];
  private readonly sessionOps: boolean;
  private readonly listSessions: boolean;
  private readonly forkAtMessage: boolean;
  private readonly auth: DemoAuth;
  private readonly steering: boolean;
  private readonly fault: DemoFault | undefined;
  private readonly lateAfterCancelMs: number | undefined;
  private readonly crash: () => void;
  private seq = 0;
  /** A background subagent's work per parent session: the parent's own turn follows it (subagent.ts). */
  private readonly background = new Map<string, Promise<void>>();
  /** What the turn's tool steps (tools.ts) may use. */
  private readonly io: ToolIo = {
    notify: (s, update, record) => this.notify(s, update, record),
    pause: (signal) => this.pause(signal),
    request: <S extends z.ZodType>(method: string, params: object, schema: S, signal: AbortSignal) => this.request(method, params, schema, signal),
    caps: () => this.clientCaps,
    fault: () => this.fault,
    crash: () => this.crash(),
    release: async (sessionId, terminalId) => {
      await this.acp.connection.sendRequest(ClientMethods.terminalRelease, { sessionId, terminalId }).catch(() => undefined);
    },
  };

  constructor(
    private readonly acp: AcpConnection,
    options: DemoAgentOptions = {},
  ) {
    this.delayMs = options.delayMs ?? 5;
    this.sessions = options.sessions ?? new Map();
    this.replay = options.replay ?? [];
    this.sessionOps = options.sessionOps ?? true;
    this.listSessions = options.listSessions ?? true;
    this.forkAtMessage = options.forkAtMessage ?? false;
    this.auth = new DemoAuth(options.authFile);
    this.steering = options.steering ?? false;
    this.fault = options.fault;
    this.lateAfterCancelMs = options.lateAfterCancelMs;
    this.crash = options.crash ?? (() => this.acp.connection.dispose());
    this.register();
  }

  private register(): void {
    const acp = this.acp;
    onAcpRequest(acp, AgentMethods.initialize, zInitializeParams, (p) => {
      // Asked for the v2 draft: v2.ts takes over this connection's handlers.
      if (p.protocolVersion >= PROTOCOL_V2)
        return new DemoAgentV2(this.acp, this.delayMs, { sessionOps: this.sessionOps, forkAtMessage: this.forkAtMessage, auth: this.auth }).initializeResult(p);
      this.clientCaps = p.clientCapabilities ?? {};
      return v1InitializeResult(
        { listSessions: this.listSessions, sessionOps: this.sessionOps, forkAtMessage: this.forkAtMessage, steering: this.steering, auth: this.auth },
        this.clientCaps,
      );
    });
    if (this.steering) {
      registerSteering(acp, {
        running: (id) => this.session(id).turn !== undefined,
        acknowledge: (id, steered) => {
          const s = this.sessions.get(id);
          if (!s?.turn) return;
          const k = ++this.seq;
          // Recorded (not sent live), as a turn's prompt is, so session/load replays it where it was taken.
          s.history.push({ sessionUpdate: 'user_message_chunk', messageId: `user-${s.tag}${s.turns}-steer-${k}`, content: { type: 'text', text: steered } });
          this.notify(
            s,
            { sessionUpdate: 'agent_message_chunk', messageId: `msg-${s.tag}${s.turns}-steer-${k}`, content: { type: 'text', text: `Noted, mid-turn: “${steered}”.` } },
            true,
          );
        },
        startTurn: (id, prompt) => void this.prompt(id, prompt).catch(() => undefined),
      });
    }
    onAcpRequest(acp, AgentMethods.authenticate, zAuthenticateParams, (p) => {
      // A terminal method must never come here (the schema forbids it): refuse it as a client bug.
      if (p.methodId !== 'demo-token') throw rpcError(ErrorCodes.invalidParams, `unknown auth method ${p.methodId}`);
      this.auth.signIn();
      return {};
    });
    if (this.sessionOps) {
      onAcpRequest(acp, AgentMethods.logout, z.unknown(), () => {
        this.auth.signOut();
        return {};
      });
      registerSessionOps(acp, {
        sessions: this.sessions,
        session: (id) => this.session(id),
        state: (s) => this.state(s),
        fork: (source, cwd, at) => {
          this.auth.check();
          const end = at === undefined ? source.history.length : source.history.findIndex((u) => 'messageId' in u && u.messageId === at);
          if (end < 0) throw unknownMessage(at ?? '');
          // The fork goes on numbering turns after the source's, so it keeps the source's id tag too.
          const s = this.createSession(cwd, `demo-${Date.now().toString(36)}-${++this.seq}`, source.tag);
          s.history.push(...source.history.slice(0, end).map((u) => structuredClone(u)));
          s.turns = source.turns;
          return s;
        },
      });
    }
    onAcpRequest(acp, AgentMethods.sessionNew, zNewSessionParams, (p) => {
      this.auth.check();
      const setup = setupOf(p);
      const s = this.createSession(p.cwd, `demo-${Date.now().toString(36)}-${++this.seq}`);
      s.setup = setup;
      // Outside any turn, right after the response (the response is written first: it is queued
      // before this timer fires).
      setTimeout(() => this.notify(s, { sessionUpdate: 'available_commands_update', availableCommands: text.COMMANDS }), 0);
      return { sessionId: s.id, ...this.state(s) };
    });
    onAcpRequest(acp, AgentMethods.sessionLoad, zLoadSessionParams, async (p) => {
      this.auth.check();
      const s = this.session(p.sessionId);
      s.setup = setupOf(p);
      for (const u of replayHistory(s.history, this.replay)) this.notify(s, u);
      this.notify(s, { sessionUpdate: 'available_commands_update', availableCommands: text.COMMANDS });
      return this.state(s);
    });
    onAcpRequest(acp, AgentMethods.sessionResume, zResumeSessionParams, (p) => {
      // Sessions live in this process's memory, so after a restart the id is unknown. Resume sends
      // no history anyway (the client kept its transcript), so adopt the id: that is what lets the
      // extension's Restart reattach the same session to a fresh demo agent.
      this.auth.check();
      const setup = setupOf(p);
      const s = this.sessions.get(p.sessionId) ?? this.createSession(p.cwd, p.sessionId, adoptedTag());
      s.setup = setup;
      return this.state(s);
    });
    if (this.listSessions)
      onAcpRequest(acp, AgentMethods.sessionList, zListSessionsParams, (p) => {
        const sessions: SessionInfo[] = [...this.sessions.values()]
          .filter((s) => (p.cwd === undefined || s.cwd === p.cwd) && listedForArchiveFilter(s, p.archived))
          .map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title, updatedAt: s.updatedAt }));
        return { sessions };
      });
    onAcpRequest(acp, AgentMethods.sessionClose, zSessionIdParams, (p) => {
      const s = this.session(p.sessionId);
      s.turn?.abort();
      this.sessions.delete(s.id);
      return {};
    });
    onAcpRequest(acp, AgentMethods.sessionSetMode, zSetModeParams, (p) => {
      const s = this.session(p.sessionId);
      if (!text.MODES.some((m) => m.id === p.modeId)) throw rpcError(ErrorCodes.invalidParams, `unknown mode ${p.modeId}`);
      s.modeId = p.modeId;
      setTimeout(() => this.notify(s, { sessionUpdate: 'current_mode_update', currentModeId: s.modeId }), 0);
      return {};
    });
    onAcpRequest(acp, AgentMethods.sessionSetConfigOption, zSetConfigOptionParams, (p) => {
      const s = this.session(p.sessionId);
      if (p.configId === 'mode' && typeof p.value === 'string' && text.MODES.some((m) => m.id === p.value)) s.modeId = p.value;
      else if (p.configId === 'model' && typeof p.value === 'string' && text.MODELS.some((m) => m.value === p.value)) s.model = p.value;
      else throw rpcError(ErrorCodes.invalidParams, `unknown config option value ${p.configId}=${String(p.value)}`);
      return { configOptions: this.configOptions(s) };
    });
    onAcpRequest(acp, AgentMethods.sessionPrompt, zPromptParams, (p) => this.prompt(p.sessionId, p.prompt));
    onAcpNotification(acp, AgentMethods.sessionCancel, zSessionIdParams, (p) => this.sessions.get(p.sessionId)?.turn?.abort());
  }

  private async prompt(sessionId: string, prompt: z.infer<typeof zPromptParams>['prompt']): Promise<{ stopReason: string }> {
    const s = this.session(sessionId);
    if (this.fault === 'crash-on-prompt') return this.crashNow();
    if (s.turn) throw rpcError(ErrorCodes.invalidRequest, 'a prompt is already running in this session');
    const turn = new AbortController();
    s.turn = turn;
    try {
      await this.runTurn(s, prompt, turn.signal);
      this.afterBackground(s);
      return { stopReason: 'end_turn' };
    } catch (err) {
      // §8.1: a cancelled turn answers stopReason "cancelled", never an error.
      if (turn.signal.aborted) return { stopReason: 'cancelled' };
      throw err;
    } finally {
      s.turn = undefined;
    }
  }

  /** The parent's own turn once its background subagent is done, after the prompt's response went out. */
  private afterBackground(s: Session): void {
    const work = this.background.get(s.id);
    if (!work) return;
    this.background.delete(s.id);
    const n = s.turns;
    void work.then(() => setTimeout(() => void backgroundTurn(this.io, s, n, new AbortController().signal).catch(() => undefined), 0)).catch(() => undefined);
  }

  /** Dies (ACP_DEMO_FAULT); the turn never answers. */
  private crashNow(): Promise<never> {
    this.crash();
    return new Promise(() => undefined);
  }

  private createSession(cwd: string, id: string, tag = ''): Session {
    const s: Session = {
      id,
      cwd,
      history: [],
      modeId: 'ask',
      model: 'demo-fast',
      title: null,
      updatedAt: new Date().toISOString(),
      turn: undefined,
      turns: 0,
      tag,
    };
    this.sessions.set(id, s);
    return s;
  }

  private session(id: string): Session {
    return knownSession(this.sessions, id);
  }

  private state(s: Session) {
    return { modes: { currentModeId: s.modeId, availableModes: text.MODES }, configOptions: this.configOptions(s) };
  }

  private configOptions(s: Session) {
    return [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: s.modeId, options: text.MODES.map((m) => ({ value: m.id, name: m.name })) },
      { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: s.model, options: text.MODELS },
    ];
  }

  private notify(s: Session, update: Update, record = false): void {
    if (record) s.history.push(update);
    sendUpdate(this.acp, s.id, update);
  }

  private async pause(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new Cancelled();
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    else await new Promise((r) => setImmediate(r));
    if (signal.aborted) throw new Cancelled();
  }

  private async stream(s: Session, kind: 'agent_message_chunk' | 'agent_thought_chunk', messageId: string, body: string, signal: AbortSignal): Promise<void> {
    for (const piece of chunkText(body, s.turns)) {
      await this.pause(signal);
      this.notify(s, { sessionUpdate: kind, messageId, content: { type: 'text', text: piece } }, true);
    }
  }

  private async request<S extends z.ZodType>(method: string, params: object, schema: S, signal: AbortSignal): Promise<z.output<S>> {
    const raw: unknown = await this.acp.connection.sendRequest(method, params);
    if (signal.aborted) throw new Cancelled();
    return schema.parse(raw);
  }

  private async runTurn(s: Session, prompt: z.infer<typeof zPromptParams>['prompt'], signal: AbortSignal): Promise<void> {
    const n = ++s.turns;
    const promptText = prompt
      .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : `[${b.type}]`))
      .join(' ')
      .trim();
    // Recorded (not sent live) so session/load replays the user's side too, with a stable id.
    s.history.push({ sessionUpdate: 'user_message_chunk', messageId: `user-${s.tag}${n}`, content: { type: 'text', text: promptText } });
    s.updatedAt = new Date().toISOString();
    if (s.title === null) {
      s.title = demoTitle(prompt, promptText);
      this.notify(s, { sessionUpdate: 'session_info_update', title: s.title, updatedAt: s.updatedAt });
    }

    if (this.fault === 'silent') await silence(this.fault, signal);
    if (this.fault === 'ignore-cancel') {
      await silence(this.fault, signal, this.lateAfterCancelMs);
      signal = new AbortController().signal; // the cancel was ignored: the turn goes on
    }
    const command = /^\/(\w+)/.exec(promptText)?.[1];
    if (command === 'help' || command === 'tools' || command === 'setup') {
      const answer = command === 'help' ? text.HELP_TEXT : command === 'tools' ? text.TOOLS_TEXT : setupText(s.cwd, s.setup);
      await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-a`, answer, signal);
      return;
    }
    const showcase = showcaseTurn(command, promptText); // /ask, /long, /compact
    if (showcase) return showcase(this.io, s, n, signal);
    await this.stream(s, 'agent_thought_chunk', `th-${s.tag}${n}`, text.thoughtText(promptText), signal);
    if (this.fault === 'crash-mid-turn') return this.crashNow();
    const wantsEdit = /edit|permission/i.test(promptText);
    const wantsRun = /terminal|\brun\b/i.test(promptText);
    const wantsSelfEdit = /yourself/i.test(promptText);
    // Only to a client that said it understands subagents (the capability's rule).
    const wantsSubagent = /subagent/i.test(promptText) && this.clientCaps.subagents !== undefined && this.clientCaps.subagents !== null;
    const steps = [
      'Answer in markdown',
      'Look at a workspace file',
      ...(wantsSubagent ? ['Ask a subagent'] : []),
      ...(wantsEdit ? ['Edit demo-edit.txt'] : []),
      ...(wantsSelfEdit ? ['Change demo-self.txt'] : []),
      ...(wantsRun ? ['Run a command'] : []),
    ];
    const plan = (done: number) => ({
      sessionUpdate: 'plan',
      entries: steps.map((content, i) => ({ content, priority: 'medium', status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' })),
    });
    this.notify(s, plan(0), true);
    await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-a`, text.answerMarkdown(promptText), signal);
    this.notify(s, plan(1), true);
    await readTool(this.io, s, n, signal);
    let step = 2;
    if (wantsSubagent) {
      this.notify(s, plan(step++), true);
      const child = this.createSession(s.cwd, `${s.id}-sub${n}`, 'sub');
      const background = /background/i.test(promptText);
      // The child's own turn: session/cancel on the child stops only it (Stop on its card). In the background
      // it is not stopped by this turn's cancel either: it outlives the turn.
      const own = new AbortController();
      child.turn = own;
      const work = subagentTool(this.io, s, child, n, background ? own.signal : AbortSignal.any([signal, own.signal])).finally(() => (child.turn = undefined));
      if (background)
        this.background.set(
          s.id,
          work.catch(() => undefined),
        );
      else await work;
    }
    if (wantsEdit) {
      this.notify(s, plan(step++), true);
      await editTool(this.io, s, n, signal);
    }
    if (wantsSelfEdit) {
      this.notify(s, plan(step++), true);
      await selfEditTool(this.io, s, n, signal);
    }
    if (wantsRun) {
      this.notify(s, plan(step++), true);
      await terminalTool(this.io, s, n, signal);
    }
    this.notify(s, plan(steps.length), true);
    await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-b`, text.CLOSING_TEXT, signal);
    this.notify(s, { sessionUpdate: 'usage_update', used: 1200 * n, size: 200000, cost: { amount: 0, currency: 'USD' } });
  }
}
