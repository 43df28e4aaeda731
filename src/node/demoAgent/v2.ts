/**
 * The demo agent's ACP v2 draft side, taken when `initialize` asks for protocol 2
 * (`acpChat.protocolVersion: 2`). Same content as the v1 demo, in v2's shapes, and a turn uses every v2
 * update kind: `state_update` frames the turn (the `session/prompt` response only acknowledges the user
 * message), messages arrive as chunks and whole-message upserts (and `_meta`-only patches), tool calls
 * are `tool_call_update` upserts with `tool_call_content_chunk`s, the edit is a v2 `diff` (`changes` +
 * patch) behind a `title`/`subject` permission request, the terminal is the agent's own
 * (`terminal_update` / `terminal_output_chunk`), plus `plan_update`, `notice`, `usage_update`,
 * `session_info_update`, `available_commands_update`, `config_option_update`, and `/compact` for the
 * compaction updates. v2 has no client fs or terminal methods: the demo writes its file itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { AgentMethods, AgentMethodsV2, ClientMethods, ErrorCodes, PROTOCOL_V2 } from '../../common/protocol/methods';
import { zContentBlock, zMeta } from '../../common/protocol/content';
import { zRequestPermissionResult } from '../../common/protocol/requests';
import { onAcpNotification, onAcpRequest, rpcError } from '../transport/connection';
import type { AcpConnection } from '../transport/connection';
import { sendUpdate } from './send';
import { chunkText } from './chunks';
import { demoTitle } from './title';
import * as text from './content';
import type { DemoAuth } from './auth';
import { runFormatter } from './formatRun';
import { adoptedTag, knownSession, listedForArchiveFilter, registerSessionOps, sessionOpsCapabilities, unknownMessage } from './sessionOps';

type Update = { sessionUpdate: string } & Record<string, unknown>;

interface Session {
  readonly id: string;
  readonly cwd: string;
  modeId: string;
  model: string;
  title: string | null;
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

const zSessionId = z.looseObject({ sessionId: z.string() });
const zNew = z.looseObject({ cwd: z.string() });
const zResume = z.looseObject({ sessionId: z.string(), cwd: z.string() });
const zList = z.looseObject({ cwd: z.string().optional().catch(undefined), archived: z.unknown() });
const zInit = z.looseObject({
  capabilities: z
    .looseObject({ auth: z.looseObject({ terminal: z.unknown() }).nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
});
const zPrompt = z.looseObject({ sessionId: z.string(), prompt: z.array(zContentBlock).min(1), _meta: zMeta.nullable().optional() });
const zSetConfig = z.looseObject({ sessionId: z.string(), configId: z.string(), type: z.string(), value: z.unknown() });

class Cancelled extends Error {}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

export class DemoAgentV2 {
  private readonly sessions = new Map<string, Session>();
  private seq = 0;

  constructor(
    private readonly acp: AcpConnection,
    private readonly delayMs: number,
    private readonly extras: { readonly sessionOps: boolean; readonly forkAtMessage: boolean; readonly auth: DemoAuth },
  ) {
    this.register();
  }

  /** v2 has no logout marker: `auth/logout` comes with any sign-in method. */
  initializeResult(params: unknown) {
    const terminal = zInit.safeParse(params).data?.capabilities?.auth?.terminal;
    return {
      protocolVersion: PROTOCOL_V2,
      info: text.AGENT_INFO,
      capabilities: { session: { prompt: { image: {}, embeddedContext: {} }, ...(this.extras.sessionOps ? sessionOpsCapabilities(this.extras.forkAtMessage) : {}) } },
      authMethods: this.extras.auth.methods(typeof terminal === 'object' && terminal !== null, 'methodId'),
    };
  }

  /** Replaces the v1 handlers registered on the same connection (vscode-jsonrpc keeps one handler per method). */
  private register(): void {
    const acp = this.acp;
    const notInV2 = (method: string) => () => {
      throw rpcError(ErrorCodes.methodNotFound, `${method} does not exist in protocol 2`);
    };
    for (const m of [AgentMethods.sessionLoad, AgentMethods.sessionSetMode, AgentMethods.authenticate, AgentMethods.logout]) onAcpRequest(acp, m, z.unknown(), notInV2(m));
    const auth = this.extras.auth;
    onAcpRequest(acp, AgentMethodsV2.authLogin, z.looseObject({ methodId: z.string() }), (p) => {
      if (auth.enabled && p.methodId !== 'demo-token') throw rpcError(ErrorCodes.invalidParams, `unknown auth method ${p.methodId}`);
      auth.signIn();
      return {};
    });
    onAcpRequest(acp, AgentMethodsV2.authLogout, z.unknown(), () => {
      auth.signOut();
      return {};
    });
    if (this.extras.sessionOps) {
      registerSessionOps(acp, {
        sessions: this.sessions,
        session: (id) => this.session(id),
        state: (s) => this.state(s),
        fork: (source, cwd, at) => {
          auth.check();
          // This side keeps no history to cut; it checks the message is one of the source's turns.
          const turn = at === undefined ? 0 : Number(/^user-(.*?)(\d+)$/.exec(at)?.[2] ?? NaN);
          if (!(turn >= 0 && turn <= source.turns) || (at !== undefined && !at.startsWith(`user-${source.tag}`))) throw unknownMessage(at ?? '');
          // The fork goes on numbering turns after the source's, so it keeps the source's id tag too.
          const s = this.create(cwd, `demo2-${Date.now().toString(36)}-${++this.seq}`, source.tag);
          s.turns = source.turns;
          return s;
        },
      });
    }
    onAcpRequest(acp, AgentMethods.sessionNew, zNew, (p) => {
      auth.check();
      const s = this.create(p.cwd, `demo2-${Date.now().toString(36)}-${++this.seq}`);
      return { sessionId: s.id, ...this.state(s) };
    });
    onAcpRequest(acp, AgentMethods.sessionResume, zResume, (p) => {
      auth.check();
      return this.state(this.sessions.get(p.sessionId) ?? this.create(p.cwd, p.sessionId, adoptedTag()));
    });
    onAcpRequest(acp, AgentMethods.sessionList, zList, (p) => ({
      sessions: [...this.sessions.values()]
        .filter((s) => (p.cwd === undefined || s.cwd === p.cwd) && listedForArchiveFilter(s, p.archived))
        .map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title })),
    }));
    onAcpRequest(acp, AgentMethods.sessionClose, zSessionId, (p) => {
      this.session(p.sessionId).turn?.abort();
      this.sessions.delete(p.sessionId);
      return {};
    });
    onAcpRequest(acp, AgentMethods.sessionSetConfigOption, zSetConfig, (p) => {
      const s = this.session(p.sessionId);
      if (p.type === 'id' && p.configId === 'mode' && text.MODES.some((m) => m.id === p.value)) s.modeId = String(p.value);
      else if (p.type === 'id' && p.configId === 'model' && text.MODELS.some((m) => m.value === p.value)) s.model = String(p.value);
      else throw rpcError(ErrorCodes.invalidParams, `unknown config option value ${p.configId}=${String(p.value)}`);
      return { configOptions: this.configOptions(s) };
    });
    onAcpRequest(acp, AgentMethods.sessionPrompt, zPrompt, (p) => {
      const s = this.session(p.sessionId);
      if (s.turn) throw rpcError(ErrorCodes.invalidRequest, 'a prompt is already running in this session');
      const turn = new AbortController();
      s.turn = turn;
      const n = ++s.turns;
      const messageId = `user-${s.tag}${n}`;
      // The response acknowledges the inserted user message; the turn itself ends with an idle state_update.
      this.notify(s, { sessionUpdate: 'state_update', state: 'running' });
      for (const block of p.prompt) this.notify(s, { sessionUpdate: 'user_message_chunk', messageId, content: block });
      this.notify(s, { sessionUpdate: 'user_message', messageId, _meta: { demo: { turn: n } } });
      setTimeout(() => void this.turn(s, n, p.prompt, turn.signal), 0);
      return { messageId };
    });
    onAcpNotification(acp, AgentMethods.sessionCancel, zSessionId, (p) => this.sessions.get(p.sessionId)?.turn?.abort());
  }

  private create(cwd: string, id: string, tag = ''): Session {
    const s: Session = { id, cwd, modeId: 'ask', model: 'demo-fast', title: null, turn: undefined, turns: 0, tag };
    this.sessions.set(id, s);
    return s;
  }

  private session(id: string): Session {
    return knownSession(this.sessions, id);
  }

  private state(s: Session) {
    // v2 tags commands (`type: "command"`) and their input (`type: "text"`).
    const availableCommands = text.COMMANDS.map((c) => ({ type: 'command', ...c, ...('input' in c ? { input: { type: 'text', ...c.input } } : {}) }));
    return { configOptions: this.configOptions(s), availableCommands };
  }

  /** v2 has no `modes`: the mode is a config option with category `mode`. */
  private configOptions(s: Session) {
    return [
      { configId: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: s.modeId, options: text.MODES.map((m) => ({ value: m.id, name: m.name })) },
      { configId: 'model', name: 'Model', category: 'model', type: 'select', currentValue: s.model, options: text.MODELS },
    ];
  }

  private notify(s: Session, update: Update): void {
    sendUpdate(this.acp, s.id, update);
  }

  private async pause(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new Cancelled();
    await new Promise((r) => (this.delayMs > 0 ? setTimeout(r, this.delayMs) : setImmediate(r)));
    if (signal.aborted) throw new Cancelled();
  }

  private async stream(s: Session, kind: 'agent_message_chunk' | 'agent_thought_chunk', messageId: string, body: string, signal: AbortSignal): Promise<void> {
    for (const piece of chunkText(body, s.turns)) {
      await this.pause(signal);
      this.notify(s, { sessionUpdate: kind, messageId, content: { type: 'text', text: piece } });
    }
  }

  private async turn(s: Session, n: number, prompt: z.infer<typeof zPrompt>['prompt'], signal: AbortSignal): Promise<void> {
    let stopReason = 'end_turn';
    try {
      await this.run(s, n, prompt, signal);
    } catch (err) {
      stopReason = signal.aborted || err instanceof Cancelled ? 'cancelled' : 'end_turn';
      if (!(err instanceof Cancelled) && !signal.aborted)
        this.notify(s, { sessionUpdate: 'notice', severity: 'error', title: `The demo turn failed: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      s.turn = undefined;
      this.notify(s, { sessionUpdate: 'state_update', state: 'idle', stopReason });
    }
  }

  private async run(s: Session, n: number, prompt: z.infer<typeof zPrompt>['prompt'], signal: AbortSignal): Promise<void> {
    const promptText = prompt
      .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : `[${b.type}]`))
      .join(' ')
      .trim();
    if (s.title === null) {
      s.title = demoTitle(prompt, promptText);
      this.notify(s, { sessionUpdate: 'session_info_update', title: s.title, updatedAt: new Date().toISOString() });
      this.notify(s, { sessionUpdate: 'available_commands_update', availableCommands: this.state(s).availableCommands });
    }
    const command = /^\/(\w+)/.exec(promptText)?.[1];
    if (command === 'help' || command === 'tools' || command === 'code') {
      await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-a`, command === 'help' ? text.HELP_TEXT : command === 'code' ? text.CODE_ANSWER : text.TOOLS_TEXT, signal);
      return;
    }
    if (command === 'compact') {
      const compactionId = `compaction-${s.tag}${n}`;
      this.notify(s, { sessionUpdate: 'compaction_update', compactionId, status: 'running' });
      this.notify(s, { sessionUpdate: 'compaction_summary_chunk', compactionId, content: { type: 'text', text: 'Summary of the conversation so far.' } });
      this.notify(s, { sessionUpdate: 'compaction_update', compactionId, status: 'completed' });
      return;
    }
    this.notify(s, { sessionUpdate: 'notice', severity: 'info', title: 'The demo agent speaks the ACP v2 draft on this connection.' });
    const started = Date.now();
    await this.stream(s, 'agent_thought_chunk', `th-${s.tag}${n}`, text.thoughtText(promptText), signal);
    // A _meta-only patch: content omitted means "unchanged".
    this.notify(s, { sessionUpdate: 'agent_thought', messageId: `th-${s.tag}${n}`, _meta: { demo: { thoughtMs: Date.now() - started } } });
    const wantsEdit = /edit|permission/i.test(promptText);
    const wantsRun = /terminal|\brun\b/i.test(promptText);
    const steps = ['Answer in markdown', 'Look at a workspace file', ...(wantsEdit ? ['Edit demo-edit.txt'] : []), ...(wantsRun ? ['Run a command'] : [])];
    const plan = (done: number) => ({
      sessionUpdate: 'plan_update',
      plan: {
        type: 'items',
        planId: `plan-${s.tag}${n}`,
        entries: steps.map((content, i) => ({ content, priority: 'medium', status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' })),
      },
    });
    // Each turn has its own plan: the last turn's goes (plans by id, `plan_removed`).
    if (n > 1) this.notify(s, { sessionUpdate: 'plan_removed', planId: `plan-${s.tag}${n - 1}` });
    this.notify(s, plan(0));
    await this.stream(s, 'agent_message_chunk', `msg-${s.tag}${n}-a`, text.answerMarkdown(promptText), signal);
    this.notify(s, plan(1));
    await this.readTool(s, n, signal);
    let step = 2;
    if (wantsEdit) {
      this.notify(s, plan(step++));
      await this.editTool(s, n, signal);
    }
    if (wantsRun) {
      this.notify(s, plan(step++));
      await this.terminalTool(s, n, signal, /format/i.test(promptText));
    }
    this.notify(s, plan(steps.length));
    // The closing message as one whole-message upsert.
    this.notify(s, { sessionUpdate: 'agent_message', messageId: `msg-${s.tag}${n}-b`, content: [{ type: 'text', text: text.CLOSING_TEXT }] });
    this.notify(s, { sessionUpdate: 'usage_update', used: 1200 * n, size: 200000, cost: { amount: 0, currency: 'USD' } });
    this.notify(s, { sessionUpdate: 'config_option_update', configOptions: this.configOptions(s) });
  }

  private async readTool(s: Session, n: number, signal: AbortSignal): Promise<void> {
    const id = `tool-${s.tag}${n}-read`;
    const file = path.join(s.cwd, 'README.md');
    this.notify(s, {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      name: 'read_file',
      title: 'Read README.md',
      kind: 'read',
      status: 'in_progress',
      locations: [{ path: file, line: 1 }],
      rawInput: { path: file },
    });
    let preview: string;
    try {
      preview = readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n');
    } catch {
      preview = '(no README.md in the workspace)';
    }
    await this.pause(signal);
    this.notify(s, { sessionUpdate: 'tool_call_content_chunk', toolCallId: id, content: { type: 'content', content: { type: 'text', text: '```\n' + preview + '\n```' } } });
    this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' });
  }

  private async editTool(s: Session, n: number, signal: AbortSignal): Promise<void> {
    const id = `tool-${s.tag}${n}-edit`;
    const file = path.join(s.cwd, 'demo-edit.txt');
    let oldText: string | null;
    try {
      oldText = readFileSync(file, 'utf8');
    } catch {
      oldText = null;
    }
    const added = `Edited by the ACP Chat demo agent (turn ${n}).`;
    const patch = [`--- ${oldText === null ? '/dev/null' : `a/demo-edit.txt`}`, '+++ b/demo-edit.txt', '@@ -0,0 +1 @@', `+${added}`].join('\n');
    const diff = { type: 'diff', changes: [{ operation: oldText === null ? 'add' : 'modify', path: file, fileType: 'text' }], patch: { format: 'unified', text: patch } };
    const toolCall = { toolCallId: id, name: 'write_file', title: 'Edit demo-edit.txt', kind: 'edit', status: 'pending', locations: [{ path: file }] };
    this.notify(s, { sessionUpdate: 'tool_call_update', ...toolCall, content: [diff] });
    const raw: unknown = await this.acp.connection.sendRequest(ClientMethods.sessionRequestPermission, {
      sessionId: s.id,
      title: 'Allow the demo agent to edit demo-edit.txt?',
      subject: { type: 'tool_call', toolCall },
      options: [
        { optionId: 'demo-allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'demo-allow-always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'demo-reject-once', name: 'Reject', kind: 'reject_once' },
        { optionId: 'demo-reject-always', name: 'Always reject', kind: 'reject_always' },
      ],
    });
    if (signal.aborted) throw new Cancelled();
    const answer = zRequestPermissionResult.parse(raw);
    // A request answered "cancelled" while the turn goes on was dismissed: the edit does not happen.
    // The reason goes before the final status: nothing may follow a tool call's end.
    if (answer.outcome.outcome !== 'selected' || !answer.outcome.optionId.startsWith('demo-allow')) {
      const why = answer.outcome.outcome === 'selected' ? 'Rejected by the user.' : 'The permission request was dismissed.';
      this.notify(s, { sessionUpdate: 'tool_call_content_chunk', toolCallId: id, content: { type: 'content', content: { type: 'text', text: why } } });
      this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed' });
      return;
    }
    // v2 has no client fs methods: the agent edits the file itself.
    writeFileSync(file, `${oldText ?? ''}${added}\n`);
    this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' });
  }

  /** With `format`, the command also formats demo-format.txt, and its tool call reports that change (formatRun.ts). */
  private async terminalTool(s: Session, n: number, signal: AbortSignal, format = false): Promise<void> {
    const id = `tool-${s.tag}${n}-run`;
    const terminalId = `term-${s.tag}${n}`;
    const output = 'Hello from the demo terminal\n';
    this.notify(s, {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      name: 'shell',
      title: 'Run echo',
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command: 'echo', args: ['Hello from the demo terminal'] },
      content: [{ type: 'terminal', terminalId }],
    });
    this.notify(s, { sessionUpdate: 'terminal_update', terminalId, command: 'echo "Hello from the demo terminal"', cwd: s.cwd });
    await this.pause(signal);
    this.notify(s, { sessionUpdate: 'terminal_output_chunk', terminalId, data: b64(output) });
    this.notify(s, { sessionUpdate: 'terminal_update', terminalId, exitStatus: { exitCode: 0, signal: null } });
    const formatted = format ? runFormatter(s.cwd) : null;
    if (formatted) this.notify(s, { sessionUpdate: 'tool_call_content_chunk', toolCallId: id, content: formatted });
    this.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', rawOutput: { output, exitCode: 0 } });
  }
}
