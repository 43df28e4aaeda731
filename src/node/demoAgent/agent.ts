/**
 * The built-in demo agent: a real ACP v1 agent (the agent side of our own transport), no network;
 * asked for protocol 2 it speaks the v2 draft instead (v2.ts).
 * Sessions live in memory; `session/load` replays their history with the same messageIds, or in the
 * shapes real agents replay in (see replay.ts).
 *
 * A turn streams a thought, a plan, a markdown answer, a `read` tool call, optionally an edit behind
 * a permission request ("edit"/"permission" in the prompt), an edit the agent makes itself and only
 * reports as a fragment diff, as Claude Code does ("yourself"), and a terminal run ("run"/"terminal"),
 * then a second message and a usage update. `session/cancel` stops it with stopReason "cancelled".
 * A little over the ~400-line guideline because the turn reads best as one script, step after step; the
 * v2 draft, replays, session operations, sign-in and content live in their own files beside it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { AgentMethods, ClientMethods, ErrorCodes, PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import {
  zAuthenticateParams,
  zCreateTerminalResult,
  zInitializeParams,
  zListSessionsParams,
  zLoadSessionParams,
  zNewSessionParams,
  zPromptParams,
  zRequestPermissionResult,
  zResumeSessionParams,
  zSessionIdParams,
  zSetConfigOptionParams,
  zSetModeParams,
  zTerminalExitStatus,
  zTerminalOutputResult,
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
import { registerSteering, STEERING_META } from './steering';
import { adoptedTag, knownSession, listedForArchiveFilter, registerSessionOps, sessionOpsCapabilities, unknownMessage } from './sessionOps';

type Update = { sessionUpdate: string } & Record<string, unknown>;

interface Session {
  readonly id: string;
  readonly cwd: string;
  /** Updates that make up the conversation, replayed verbatim by session/load. */
  readonly history: Update[];
  modeId: string;
  model: string;
  title: string | null;
  updatedAt: string;
  turn: AbortController | undefined;
  turns: number;
  /**
   * Put into every id the session mints ('' for a session this process made). A session adopted by
   * session/resume after a restart gets a fresh one: its turn numbers start again at 1, and ids such as
   * `msg-1-b` would otherwise name messages the client already holds from before the restart.
   */
  readonly tag: string;
  archived?: boolean;
}

export interface DemoAgentOptions {
  /** Pause between streamed chunks (ms). */
  delayMs?: number;
  /** How `session/load` reshapes the history it replays (default: verbatim). */
  replay?: readonly ReplayShape[];
  /** Offer fork, set_title, archive/unarchive, delete and logout (default true; false: an agent that lacks them). */
  sessionOps?: boolean;
  /** Require signing in, remembered in this file (see auth.ts); default: no sign-in. */
  authFile?: string;
  /** Offer `_session/steering` into a running turn (see steering.ts); default false. */
  steering?: boolean;
  /** A misbehaviour to show on every turn (see faults.ts); `crash` is how this agent dies (main: exit the process). */
  fault?: DemoFault;
  /** With `ignore-cancel`: go on with the turn this long after a cancel (default: never). */
  lateAfterCancelMs?: number;
  crash?: () => void;
  /** With session ops: `session/fork` also forks at a message (the draft's `fork.atMessageId`); default false. */
  forkAtMessage?: boolean;
}

class Cancelled extends Error {}


export class DemoAgent {
  private readonly sessions = new Map<string, Session>();
  private clientCaps: ClientCapabilities = {};
  private readonly delayMs: number;
  private readonly replay: readonly ReplayShape[];
  private readonly sessionOps: boolean;
  private readonly forkAtMessage: boolean;
  private readonly auth: DemoAuth;
  private readonly steering: boolean;
  private readonly fault: DemoFault | undefined;
  private readonly lateAfterCancelMs: number | undefined;
  private readonly crash: () => void;
  private seq = 0;

  constructor(
    private readonly acp: AcpConnection,
    options: DemoAgentOptions = {},
  ) {
    this.delayMs = options.delayMs ?? 5;
    this.replay = options.replay ?? [];
    this.sessionOps = options.sessionOps ?? true;
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
      if (p.protocolVersion >= PROTOCOL_V2) return new DemoAgentV2(this.acp, this.delayMs, { sessionOps: this.sessionOps, forkAtMessage: this.forkAtMessage, auth: this.auth }).initializeResult(p);
      this.clientCaps = p.clientCapabilities ?? {};
      return {
        // v1 is all the demo speaks; per §1 we answer our latest version when asked for another.
        protocolVersion: PROTOCOL_V1,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: { resume: {}, list: {}, close: {}, ...(this.sessionOps ? sessionOpsCapabilities(this.forkAtMessage) : {}) },
          ...(this.sessionOps ? { auth: { logout: {} } } : {}),
        },
        authMethods: this.auth.methods(this.clientCaps.auth?.terminal === true),
        agentInfo: text.AGENT_INFO,
        ...(this.steering ? { _meta: STEERING_META } : {}),
      };
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
          this.notify(s, { sessionUpdate: 'agent_message_chunk', messageId: `msg-${s.tag}${s.turns}-steer-${k}`, content: { type: 'text', text: `Noted, mid-turn: “${steered}”.` } }, true);
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
      const s = this.createSession(p.cwd, `demo-${Date.now().toString(36)}-${++this.seq}`);
      // Outside any turn, right after the response (the response is written first: it is queued
      // before this timer fires).
      setTimeout(() => this.notify(s, { sessionUpdate: 'available_commands_update', availableCommands: text.COMMANDS }), 0);
      return { sessionId: s.id, ...this.state(s) };
    });
    onAcpRequest(acp, AgentMethods.sessionLoad, zLoadSessionParams, async (p) => {
      this.auth.check();
      const s = this.session(p.sessionId);
      for (const u of replayHistory(s.history, this.replay)) this.notify(s, u);
      this.notify(s, { sessionUpdate: 'available_commands_update', availableCommands: text.COMMANDS });
      return this.state(s);
    });
    onAcpRequest(acp, AgentMethods.sessionResume, zResumeSessionParams, (p) => {
      // Sessions live in this process's memory, so after a restart the id is unknown. Resume sends
      // no history anyway (the client kept its transcript), so adopt the id: that is what lets the
      // extension's Restart reattach the same session to a fresh demo agent.
      this.auth.check();
      const s = this.sessions.get(p.sessionId) ?? this.createSession(p.cwd, p.sessionId, adoptedTag());
      return this.state(s);
    });
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
      return { stopReason: 'end_turn' };
    } catch (err) {
      // §8.1: a cancelled turn answers stopReason "cancelled", never an error.
      if (turn.signal.aborted) return { stopReason: 'cancelled' };
      throw err;
    } finally {
      s.turn = undefined;
    }
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
    return {
      modes: { currentModeId: s.modeId, availableModes: text.MODES },
      configOptions: this.configOptions(s),
    };
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
    const promptText = prompt.map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : `[${b.type}]`)).join(' ').trim();
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
    if (command === 'help' || command === 'tools') {
      await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-a`, command === 'help' ? text.HELP_TEXT : text.TOOLS_TEXT, signal);
      return;
    }

    await this.stream(s, 'agent_thought_chunk', `th-${s.tag}${n}`, text.thoughtText(promptText), signal);
    if (this.fault === 'crash-mid-turn') return this.crashNow();
    const wantsEdit = /edit|permission/i.test(promptText);
    const wantsRun = /terminal|\brun\b/i.test(promptText);
    const wantsSelfEdit = /yourself/i.test(promptText);
    const steps = ['Answer in markdown', 'Look at a workspace file', ...(wantsEdit ? ['Edit demo-edit.txt'] : []), ...(wantsSelfEdit ? ['Change demo-self.txt'] : []), ...(wantsRun ? ['Run a command'] : [])];
    const plan = (done: number) => ({
      sessionUpdate: 'plan',
      entries: steps.map((content, i) => ({ content, priority: 'medium', status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' })),
    });
    this.notify(s, plan(0), true);
    await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-a`, text.answerMarkdown(promptText), signal);
    this.notify(s, plan(1), true);
    await this.readTool(s, n, signal);
    let step = 2;
    if (wantsEdit) {
      this.notify(s, plan(step++), true);
      await this.editTool(s, n, signal);
    }
    if (wantsSelfEdit) {
      this.notify(s, plan(step++), true);
      await this.selfEditTool(s, n, signal);
    }
    if (wantsRun) {
      this.notify(s, plan(step++), true);
      await this.terminalTool(s, n, signal);
    }
    this.notify(s, plan(steps.length), true);
    await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-b`, text.CLOSING_TEXT, signal);
    this.notify(s, { sessionUpdate: 'usage_update', used: 1200 * n, size: 200000, cost: { amount: 0, currency: 'USD' } });
  }

  private async readTool(s: Session, n: number, signal: AbortSignal): Promise<void> {
    const id = `tool-${s.tag}${n}-read`;
    const file = firstFile(s.cwd);
    this.notify(s, { sessionUpdate: 'tool_call', toolCallId: id, title: `Read ${path.basename(file)}`, kind: 'read', status: 'pending', locations: [{ path: file, line: 1 }], rawInput: { path: file } }, true);
    await this.pause(signal);
    this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' }, true);
    let preview: string;
    try {
      preview = readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n');
    } catch {
      preview = '(no readable file in the workspace)';
    }
    await this.pause(signal);
    this.notify(s, {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: '```\n' + preview + '\n```' } }],
    }, true);
  }

  private async editTool(s: Session, n: number, signal: AbortSignal): Promise<void> {
    const id = `tool-${s.tag}${n}-edit`;
    const file = path.join(s.cwd, 'demo-edit.txt');
    let oldText: string | null = null;
    try {
      oldText = readFileSync(file, 'utf8');
    } catch {
      oldText = null;
    }
    const newText = `${oldText ?? ''}Edited by the ACP Chat demo agent (turn ${n}).\n`;
    const diff = { type: 'diff', path: file, oldText, newText };
    this.notify(s, { sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit demo-edit.txt', kind: 'edit', status: 'pending', content: [diff], locations: [{ path: file }] }, true);
    if (this.fault === 'crash-mid-permission') setImmediate(() => this.crash());
    const answer = await this.request(
      ClientMethods.sessionRequestPermission,
      {
        sessionId: s.id,
        toolCall: { toolCallId: id, title: 'Edit demo-edit.txt', kind: 'edit', status: 'pending', content: [diff] },
        options: [
          { optionId: 'demo-allow-once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'demo-allow-always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'demo-reject-once', name: 'Reject', kind: 'reject_once' },
          { optionId: 'demo-reject-always', name: 'Always reject', kind: 'reject_always' },
        ],
      },
      zRequestPermissionResult,
      signal,
    );
    // A request answered "cancelled" while the turn goes on was dismissed: the edit does not happen.
    const allowed = answer.outcome.outcome === 'selected' && answer.outcome.optionId.startsWith('demo-allow');
    if (!allowed) {
      const why = answer.outcome.outcome === 'selected' ? 'Rejected by the user.' : 'The permission request was dismissed.';
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: why } }] }, true);
      return;
    }
    this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' }, true);
    if (this.clientCaps.fs?.writeTextFile) {
      await this.request(ClientMethods.fsWriteTextFile, { sessionId: s.id, path: file, content: newText }, z.unknown(), signal);
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' }, true);
    } else {
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'The client cannot write files (no fs.writeTextFile capability).' } }] }, true);
    }
  }

  /**
   * An edit the agent makes on disk itself (no fs/write_text_file, no permission), reported the way
   * Claude Code's Edit tool reports one: a diff of the replaced fragment only, not the whole file.
   */
  private async selfEditTool(s: Session, n: number, signal: AbortSignal): Promise<void> {
    const id = `tool-${s.tag}${n}-self`;
    const file = path.join(s.cwd, 'demo-self.txt');
    this.notify(s, { sessionUpdate: 'tool_call', toolCallId: id, title: 'Change demo-self.txt', kind: 'edit', status: 'in_progress', locations: [{ path: file }] }, true);
    await this.pause(signal);
    let before: string | null = null;
    try {
      before = readFileSync(file, 'utf8');
    } catch {
      before = null;
    }
    const added = `Changed by the demo agent itself (turn ${n}).`;
    const lines = (before ?? '').split('\n');
    const last = [...lines].reverse().find((l) => l.trim() !== '');
    // A fragment: the file's last line, then that line with the new one after it.
    const diff = before !== null && last !== undefined ? { type: 'diff', path: file, oldText: last, newText: `${last}\n${added}` } : { type: 'diff', path: file, oldText: null, newText: `${added}\n` };
    const after = before !== null && last !== undefined ? before.slice(0, before.lastIndexOf(last)) + diff.newText + before.slice(before.lastIndexOf(last) + last.length) : diff.newText;
    writeFileSync(file, after);
    this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', content: [diff] }, true);
  }

  private async terminalTool(s: Session, n: number, signal: AbortSignal): Promise<void> {
    const id = `tool-${s.tag}${n}-run`;
    this.notify(s, { sessionUpdate: 'tool_call', toolCallId: id, title: 'Run echo', kind: 'execute', status: 'pending', rawInput: { command: 'echo', args: ['Hello from the demo terminal'] } }, true);
    if (!this.clientCaps.terminal) {
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'The client has no terminal capability.' } }] }, true);
      return;
    }
    const { terminalId } = await this.request(
      ClientMethods.terminalCreate,
      { sessionId: s.id, command: 'echo', args: ['Hello from the demo terminal'], cwd: s.cwd, outputByteLimit: 4096 },
      zCreateTerminalResult,
      signal,
    );
    try {
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', content: [{ type: 'terminal', terminalId }] }, true);
      const exit = await this.request(ClientMethods.terminalWaitForExit, { sessionId: s.id, terminalId }, zTerminalExitStatus, signal);
      const out = await this.request(ClientMethods.terminalOutput, { sessionId: s.id, terminalId }, zTerminalOutputResult, signal);
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: exit.exitCode === 0 ? 'completed' : 'failed', rawOutput: { output: out.output, exitCode: exit.exitCode ?? null } }, true);
    } finally {
      await this.acp.connection.sendRequest(ClientMethods.terminalRelease, { sessionId: s.id, terminalId }).catch(() => undefined);
    }
  }
}

function firstFile(cwd: string): string {
  try {
    const names = readdirSync(cwd).filter((f) => !f.startsWith('.')).sort();
    for (const name of names) {
      const p = path.join(cwd, name);
      if (statSync(p).isFile()) return p;
    }
  } catch {
    // An unreadable cwd still gets a tool call, pointing at a file that is not there.
  }
  return path.join(cwd, 'README.md');
}
