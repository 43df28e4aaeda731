/**
 * The demo turn's tool calls, one function per step: read a workspace file, an edit behind a permission
 * request, an edit the agent makes itself and reports as a fragment diff (as Claude Code does), and a
 * terminal run. Apart from agent.ts because each is a self-contained script over the few things a step
 * may use (`ToolIo`); the turn (agent.ts) decides which run and in what order.
 */
import type { SessionSetup } from './setup';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { ClientMethods } from '../../common/protocol/methods';
import { zCreateTerminalResult, zRequestPermissionResult, zTerminalExitStatus, zTerminalOutputResult, type ClientCapabilities } from '../../common/protocol/requests';
import type { DemoFault } from './faults';

export type Update = { sessionUpdate: string } & Record<string, unknown>;

export interface Session {
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
  /** What the client sent when it opened the session (setup.ts). */
  setup?: SessionSetup;
  archived?: boolean;
}

/** What a step may use: the session's updates, the paced pause, requests to the client. */
export interface ToolIo {
  /** Sends an update; `record` keeps it in the history session/load replays. */
  notify(s: Session, update: Update, record?: boolean): void;
  /** The pace between updates; throws once the turn is cancelled. */
  pause(signal: AbortSignal): Promise<void>;
  request<S extends z.ZodType>(method: string, params: object, schema: S, signal: AbortSignal): Promise<z.output<S>>;
  caps(): ClientCapabilities;
  fault(): DemoFault | undefined;
  crash(): void;
  /** `terminal/release`, whatever its answer. */
  release(sessionId: string, terminalId: string): Promise<void>;
}

export async function readTool(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
  const id = `tool-${s.tag}${n}-read`;
  const file = firstFile(s.cwd);
  io.notify(
    s,
    {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: `Read ${path.basename(file)}`,
      kind: 'read',
      status: 'pending',
      locations: [{ path: file, line: 1 }],
      rawInput: { path: file },
    },
    true,
  );
  await io.pause(signal);
  io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' }, true);
  let preview: string;
  try {
    preview = readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n');
  } catch {
    preview = '(no readable file in the workspace)';
  }
  await io.pause(signal);
  io.notify(
    s,
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: '```\n' + preview + '\n```' } }],
    },
    true,
  );
}

/** ACP_DEMO_EDIT=disk: the permitted edit is written by the agent itself (as Claude Code writes its edits), not through fs/write_text_file. */
const EDIT_ON_DISK = process.env.ACP_DEMO_EDIT === 'disk';

export async function editTool(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
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
  io.notify(s, { sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit demo-edit.txt', kind: 'edit', status: 'pending', content: [diff], locations: [{ path: file }] }, true);
  if (io.fault() === 'crash-mid-permission') setImmediate(() => io.crash());
  const answer = await io.request(
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
    io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: why } }] }, true);
    return;
  }
  io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' }, true);
  if (EDIT_ON_DISK) {
    writeFileSync(file, newText);
    io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' }, true);
  } else if (io.caps().fs?.writeTextFile) {
    await io.request(ClientMethods.fsWriteTextFile, { sessionId: s.id, path: file, content: newText }, z.unknown(), signal);
    io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' }, true);
  } else {
    io.notify(
      s,
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'The client cannot write files (no fs.writeTextFile capability).' } }],
      },
      true,
    );
  }
}

/**
 * An edit the agent makes on disk itself (no fs/write_text_file, no permission), reported the way
 * Claude Code's Edit tool reports one: a diff of the replaced fragment only, not the whole file.
 */
export async function selfEditTool(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
  const id = `tool-${s.tag}${n}-self`;
  const file = path.join(s.cwd, 'demo-self.txt');
  io.notify(s, { sessionUpdate: 'tool_call', toolCallId: id, title: 'Change demo-self.txt', kind: 'edit', status: 'in_progress', locations: [{ path: file }] }, true);
  await io.pause(signal);
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
  const diff =
    before !== null && last !== undefined
      ? { type: 'diff', path: file, oldText: last, newText: `${last}\n${added}` }
      : { type: 'diff', path: file, oldText: null, newText: `${added}\n` };
  const after =
    before !== null && last !== undefined ? before.slice(0, before.lastIndexOf(last)) + diff.newText + before.slice(before.lastIndexOf(last) + last.length) : diff.newText;
  writeFileSync(file, after);
  io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', content: [diff] }, true);
}

export async function terminalTool(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
  const id = `tool-${s.tag}${n}-run`;
  io.notify(
    s,
    { sessionUpdate: 'tool_call', toolCallId: id, title: 'Run echo', kind: 'execute', status: 'pending', rawInput: { command: 'echo', args: ['Hello from the demo terminal'] } },
    true,
  );
  if (!io.caps().terminal) {
    io.notify(
      s,
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'The client has no terminal capability.' } }],
      },
      true,
    );
    return;
  }
  const { terminalId } = await io.request(
    ClientMethods.terminalCreate,
    { sessionId: s.id, command: 'echo', args: ['Hello from the demo terminal'], cwd: s.cwd, outputByteLimit: 4096 },
    zCreateTerminalResult,
    signal,
  );
  try {
    io.notify(s, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', content: [{ type: 'terminal', terminalId }] }, true);
    const exit = await io.request(ClientMethods.terminalWaitForExit, { sessionId: s.id, terminalId }, zTerminalExitStatus, signal);
    const out = await io.request(ClientMethods.terminalOutput, { sessionId: s.id, terminalId }, zTerminalOutputResult, signal);
    io.notify(
      s,
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: exit.exitCode === 0 ? 'completed' : 'failed',
        rawOutput: { output: out.output, exitCode: exit.exitCode ?? null },
      },
      true,
    );
  } finally {
    await io.release(s.id, terminalId);
  }
}

function firstFile(cwd: string): string {
  try {
    const names = readdirSync(cwd)
      .filter((f) => !f.startsWith('.'))
      .sort();
    for (const name of names) {
      const p = path.join(cwd, name);
      if (statSync(p).isFile()) return p;
    }
  } catch {
    // An unreadable cwd still gets a tool call, pointing at a file that is not there.
  }
  return path.join(cwd, 'README.md');
}
