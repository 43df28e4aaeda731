/**
 * `cli run`: drive any ACP agent headlessly with the same client code as the extension.
 * Spawns the agent, initialize -> session/new -> (set mode) -> one turn per --prompt, prints the
 * transcript as it streams, answers permission requests by policy (by option kind), serves fs and
 * terminals from this machine, and records every message to --capture.
 *
 * Exit codes: 0 every turn finished; 1 protocol failure (error reply, invalid message); 2 usage;
 * 3 the agent exited or closed the connection; 4 timeout.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import type { ProtocolVersion } from '../../common/protocol/methods';
import { AcpClient } from '../acp/client';
import { AcpClosedError } from '../acp/errors';
import { cwdFiles, cwdGate, nodeReadTextFile, nodeWriteTextFile, policyPermission } from '../acp/nodeHandlers';
import type { ApprovePolicy } from '../acp/nodeHandlers';
import { AgentProcess } from '../agentProcess';
import { RemoteEndpoint } from './remoteEndpoint';
import { NodeTerminalHost } from '../terminals';
import { CaptureFile } from '../capture/captureFile';
import { TranscriptPrinter } from './printer';
import { MessageStore } from '../../common/store';
import { settleAfterRead } from '../../common/store/chunkRun';
import { parse, resolveAgentCommand, splitAtDashDash } from './args';
import { terminalSafe } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { cliElicitation, parseAnswersFile, type AskLine, type ElicitFallback } from './elicit';
import { runWorktrees, splitAgents } from './runWorktrees';
import { coalescedWrites } from './coalescedWrites';

export const usage = [
  'run [--cwd DIR] [--approve all|none] [--capture FILE] [--protocol 1|2] [--mode ID] [--auth METHOD]',
  '    [--timeout SEC] [--grace MS] [--allow-outside-cwd] [--allow-config-writes] [--elicit decline|cancel] [--elicit-answers FILE]',
  '    [--verbose] [--worktrees [--worktree-dir DIR]] --prompt TEXT [--prompt TEXT2 ...] (-- AGENT_CMD [ARGS...] [-- AGENT2_CMD ...] | --url URL)',
  '    run turns against an ACP agent and print the transcript (exit 0 on success); everything after --',
  '    goes to the agent; relative paths are read where you run this command, the agent runs in --cwd;',
  "    the agent's fs/* and terminals are served only inside --cwd unless --allow-outside-cwd; writing what",
  '    configures VS Code, git or ACP Chat (.vscode/, .git/, *.code-workspace) needs --allow-config-writes;',
  "    the agent's questions (elicitation) are asked on a terminal, else answered from --elicit-answers",
  '    (a JSON object keyed by property name, checked against each form) or with --elicit (default decline);',
  '    --worktrees: --cwd must be in a git repository; each agent (every further -- starts another, 1 to 6)',
  '    runs in a git worktree of its own (from HEAD, on a branch acp/run-…, under --worktree-dir, default the',
  '    temp folder), all at once; each transcript is printed when it ends, then a comparison table; the',
  '    worktrees are kept for you to apply or remove (git hooks are not run; nothing is pushed)',
  '    --url reaches an agent over WebSocket (wss://) or Streamable HTTP (https://; ws:// and http:// only to',
  '    this machine), with the token of the ACP_CHAT_TOKEN environment variable as Authorization: Bearer',
].join('\n');

export interface RunOptions {
  cwd: string;
  approve: ApprovePolicy;
  capture: string | undefined;
  protocol: ProtocolVersion;
  mode: string | undefined;
  auth: string | undefined;
  timeoutSec: number;
  graceMs: number;
  verbose: boolean;
  /** Serve fs/* and terminals outside --cwd too (by default they are refused there). */
  allowOutsideCwd: boolean;
  /** Let the agent write what configures VS Code, git or ACP Chat inside --cwd (refused by default, whatever allowOutsideCwd says). */
  allowConfigWrites: boolean;
  prompts: string[];
  agent: string[];
  /** An agent reached by URL instead of a command (`--url`). */
  url?: string;
  /** How questions are answered when neither the answers file nor a terminal can. */
  elicit: ElicitFallback;
  /** The `--elicit-answers` object. */
  elicitAnswers: Readonly<Record<string, unknown>> | undefined;
  /** Asks the user a line at a terminal; absent when not interactive. */
  ask?: AskLine;
  /** `--worktrees`: every agent (`agents`, split at each further `--`) in a git worktree of its own (runWorktrees.ts). */
  worktrees?: { readonly dir: string | undefined; readonly agents: readonly string[][] };
}

const runOptions = {
  cwd: { type: 'string' },
  approve: { type: 'string', default: 'all' },
  capture: { type: 'string' },
  protocol: { type: 'string', default: '1' },
  mode: { type: 'string' },
  auth: { type: 'string' },
  timeout: { type: 'string', default: '600' },
  grace: { type: 'string', default: '300' },
  verbose: { type: 'boolean', default: false },
  'allow-outside-cwd': { type: 'boolean', default: false },
  'allow-config-writes': { type: 'boolean', default: false },
  prompt: { type: 'string', multiple: true },
  elicit: { type: 'string', default: 'decline' },
  'elicit-answers': { type: 'string' },
  worktrees: { type: 'boolean', default: false },
  'worktree-dir': { type: 'string' },
  url: { type: 'string' },
} as const;

/** Parses `run`'s arguments; `from` is where the user typed them (relative paths are read from there). */
export function parseRunArgs(args: readonly string[], from = process.cwd()): RunOptions | string {
  const { own, rest } = splitAtDashDash(args);
  const r = parse(own, runOptions, false);
  if (typeof r === 'string') return r;
  const v = r.values;
  if (v.url !== undefined && rest !== undefined) return 'give --url or -- AGENT_CMD, not both';
  if (v.url === undefined && (rest === undefined || rest.length === 0)) return 'missing agent command after -- (or --url URL)';
  if (v.approve !== 'all' && v.approve !== 'none') return `--approve must be all or none, not ${v.approve}`;
  if (v.protocol !== '1' && v.protocol !== '2') return `--protocol must be 1 or 2, not ${v.protocol}`;
  const timeoutSec = Number(v.timeout);
  if (!(timeoutSec > 0)) return `--timeout must be a positive number, not ${v.timeout}`;
  const graceMs = Number(v.grace);
  if (!(graceMs >= 0)) return `--grace must be a number of ms, not ${v.grace}`;
  const prompts = v.prompt ?? [];
  if (prompts.length === 0) return 'at least one --prompt is required';
  if (v.elicit !== 'decline' && v.elicit !== 'cancel') return `--elicit must be decline or cancel, not ${v.elicit}`;
  let elicitAnswers: Record<string, unknown> | undefined;
  if (v['elicit-answers'] !== undefined) {
    const file = path.resolve(from, v['elicit-answers']);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      return `--elicit-answers ${file}: ${errorText(e)}`;
    }
    const answers = parseAnswersFile(text);
    if (typeof answers === 'string') return `--elicit-answers ${file} ${answers}`;
    elicitAnswers = answers;
  }
  if (v.worktrees && v.url !== undefined) return '--worktrees runs agent commands (each after --), not --url';
  const agents = v.worktrees ? splitAgents(rest ?? []).map((a) => resolveAgentCommand(a, from)) : [];
  if (v.worktrees && (agents.length < 1 || agents.length > 6 || agents.some((a) => a.length === 0))) return '--worktrees takes 1 to 6 agent commands, each after --';
  if (!v.worktrees && v['worktree-dir'] !== undefined) return '--worktree-dir needs --worktrees';
  return {
    ...(v.worktrees ? { worktrees: { dir: v['worktree-dir'] === undefined ? undefined : path.resolve(from, v['worktree-dir']), agents } } : {}),
    cwd: path.resolve(from, v.cwd ?? '.'),
    approve: v.approve,
    capture: v.capture === undefined ? undefined : path.resolve(from, v.capture),
    protocol: v.protocol === '2' ? PROTOCOL_V2 : PROTOCOL_V1,
    mode: v.mode,
    auth: v.auth,
    timeoutSec,
    graceMs,
    verbose: v.verbose,
    allowOutsideCwd: v['allow-outside-cwd'],
    allowConfigWrites: v['allow-config-writes'],
    prompts,
    agent: rest === undefined ? [] : resolveAgentCommand(rest, from),
    ...(v.url !== undefined ? { url: v.url } : {}),
    elicit: v.elicit,
    elicitAnswers,
  };
}

export async function main(args: string[]): Promise<number> {
  const parsed = parseRunArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`run: ${parsed}\n\nusage: ${usage}\n`);
    return 2;
  }
  const stdout = coalescedWrites((s) => void process.stdout.write(s));
  // First Ctrl-C cancels the running turn (session/cancel); a second one ends the process as usual.
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    stdout.flush();
    process.stderr.write('\nrun: cancelling the turn (Ctrl-C again to quit)\n');
    interrupt.abort();
  });
  if (parsed.worktrees)
    return runWorktrees(
      parsed,
      (s) => process.stdout.write(s),
      (s) => process.stderr.write(s),
      run,
    );
  const terminal = process.stdin.isTTY && process.stdout.isTTY ? terminalAsk() : undefined;
  const ask: AskLine | undefined = terminal
    ? (question, signal) => {
        stdout.flush();
        return terminal(question, signal);
      }
    : undefined;
  try {
    return await run(
      { ...parsed, ...(ask ? { ask } : {}) },
      stdout.write,
      (s) => {
        stdout.flush();
        process.stderr.write(s);
      },
      interrupt.signal,
    );
  } finally {
    stdout.flush();
  }
}

/** One question at a time on the terminal; the question holds agent text, so it is made terminal-safe. */
function terminalAsk(): AskLine {
  return async (question, signal) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const ended = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
    try {
      return await Promise.race([rl.question(terminalSafe(question), { signal }), ended]);
    } catch {
      return null;
    } finally {
      rl.close();
    }
  };
}

export async function run(o: RunOptions, rawOut: (s: string) => void, rawErr: (s: string) => void, interrupt?: AbortSignal): Promise<number> {
  // Agent text reaches both streams (transcript, stderr lines, error messages): nothing printed may act on the terminal.
  const out = (s: string) => rawOut(terminalSafe(s));
  const err = (s: string) => rawErr(terminalSafe(s));
  let capture: CaptureFile | undefined;
  try {
    capture = o.capture ? CaptureFile.at(o.capture, (m) => err(`run: ${m}\n`)) : undefined;
  } catch (e) {
    err(`run: ${errorText(e)}\n`);
    return 2;
  }
  // The run's transcript is the store's, fed from the wire tap as the extension's is; the printer reads its deltas.
  const store = new MessageStore();
  const printer = new TranscriptPrinter(store, out, err);
  const printHeld = settleAfterRead(store, (changes) => printer.deltas(changes));
  const [command, ...agentArgs] = o.agent as [string, ...string[]];
  capture?.write('note', o.url !== undefined ? { text: 'connect', url: o.url.split(/[?#]/)[0], cwd: o.cwd } : { text: 'spawn', cmd: o.agent, cwd: o.cwd });
  const stderrLine = (line: string) => {
    if (o.verbose) err(`[agent stderr] ${line}\n`);
  };
  const agent = o.url !== undefined ? new RemoteEndpoint(o.url, stderrLine) : new AgentProcess({ command, args: agentArgs, cwd: o.cwd, onStderrLine: stderrLine });
  agent.onExit((e) => capture?.write('note', { text: 'agent exited', code: e.code, signal: e.signal, ...(e.error ? { error: e.error } : {}) }));
  const onRefused = (m: string) => printer.line(`[refused] ${m}`);
  const gate = cwdGate(o.cwd, o.allowOutsideCwd, onRefused);
  const files = cwdFiles(o.cwd, { outside: o.allowOutsideCwd, configWrites: o.allowConfigWrites }, onRefused);
  const terminals = new NodeTerminalHost({
    defaultCwd: o.cwd,
    admitCwd: async (dir) => {
      await gate('terminal', dir);
    },
  });
  const client = new AcpClient({
    input: agent.stdout,
    output: agent.stdin,
    clientInfo: { name: 'acp-chat-cli', title: 'ACP Chat CLI', version: '0.1.0' },
    protocolVersion: o.protocol,
    // The printer shows subagents under their parent (printer.ts), so agents may report them as sessions.
    subagents: true,
    // It prints compaction states and notices too (no config toggles: a run sets no options).
    session: { compaction: true, notices: true },
    handlers: {
      requestPermission: policyPermission(o.approve, (p, chosen) => {
        const title = p.toolCall.title ?? p.toolCall.toolCallId;
        printer.line(`[permission] ${title} -> ${chosen ? `${chosen.name} (${chosen.kind})` : 'cancelled (no matching option)'}`, p.sessionId);
      }),
      readTextFile: (p) => nodeReadTextFile(p, files),
      writeTextFile: (p) => nodeWriteTextFile(p, files),
      terminals,
      elicitation: cliElicitation({ fallback: o.elicit, answers: o.elicitAnswers, ask: o.ask }, (l) => printer.line(l)),
    },
    tap: (dir, msg, raw, checked) => {
      capture?.write(dir, msg, undefined, raw);
      // A text chunk continuing the open message may be held and joined with the rest of the read, as in
      // the extension (chunkRun.ts): one store step per read, not per chunk; printed once the read is over.
      printer.deltas(
        checked ? store.ingestChecked(dir, checked, undefined, true) : store.ingest(dir, msg),
        'method' in msg && typeof msg.method === 'string' ? msg.method : undefined,
      );
      printHeld();
    },
    onInvalidLine: (line) => {
      capture?.write('note', { text: 'skipped line from agent', reason: line.reason, raw: line.text });
      if (o.verbose) err(`[skipped] ${line.reason}: ${line.text.slice(0, 200)}\n`);
    },
    log: (level, message) => {
      if (o.verbose || level === 'error') err(`[client ${level}] ${message}\n`);
    },
    describeClose: () => agent.describe(),
    closeSettled: () => agent.exited,
  });
  // Normally stdout closes with the process and the client notices; but a grandchild can keep the
  // pipe open after the agent died, so an exit also ends the connection (after a moment to drain).
  agent.onExit(() => {
    setTimeout(() => {
      if (!client.isClosed) client.dispose('the agent process exited');
    }, 1000).unref();
  });

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    client.dispose(`timeout after ${o.timeoutSec}s`);
  }, o.timeoutSec * 1000);
  let code = 0;
  try {
    // A command that cannot start says so ("command not found: X (ENOENT)"), not a later write error.
    await agent.started;
    const init = await client.initialize();
    const info = init.agentInfo;
    printer.line(`[agent] ${info?.title ?? info?.name ?? 'unknown'} ${info?.version ?? ''} (protocol ${init.protocolVersion})`.trimEnd());
    if (o.auth) await client.authenticate(o.auth);
    const session = await client.withAuthRetry(
      () => client.newSession({ cwd: o.cwd, mcpServers: [] }),
      async (methods) => {
        err(`run: the agent requires authentication; methods: ${methods.map((m) => m.id).join(', ') || '(none)'}; pass --auth METHOD\n`);
        return undefined;
      },
    );
    printer.line(`[session] ${session.sessionId}`);
    printer.attach(session.sessionId);
    interrupt?.addEventListener('abort', () => client.cancel(session.sessionId), { once: true });
    if (o.mode) {
      await client.setMode(session.sessionId, o.mode);
      printer.line(`[mode] ${o.mode}`);
    }
    for (const text of o.prompts) {
      if (interrupt?.aborted) break;
      printer.line(`[user] ${text}`);
      const r = await client.prompt(session.sessionId, [{ type: 'text', text }]);
      printer.line(`[stop] ${r.stopReason}`);
    }
    // Late updates after the last answer are legal (§7.5): give them a moment to reach the capture.
    await new Promise((r) => setTimeout(r, o.graceMs));
  } catch (e) {
    const message = errorText(e);
    if (timedOut) {
      err(`run: timeout after ${o.timeoutSec}s\n`);
      code = 4;
    } else if (e instanceof AcpClosedError) {
      err(`run: ${message}\n`);
      code = 3;
    } else {
      err(`run: ${message}\n`);
      code = 1;
    }
    capture?.write('note', { text: 'run error', error: message });
  } finally {
    clearTimeout(timer);
    client.dispose();
    terminals.dispose();
    agent.dispose();
  }
  return code;
}
