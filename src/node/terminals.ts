/**
 * A real `terminal/*` host on child_process (DIGEST §12.2), used by the CLI and the VS Code side.
 *
 * - `command` with no `args` and a space in it runs through the shell: agents often send a whole
 *   command line as `command`.
 * - Output keeps at most `outputByteLimit` bytes, dropping from the start and never splitting a
 *   UTF-8 character (so it may keep slightly less than the limit).
 * - `kill` stops the process but the id stays valid; `release` kills if needed and forgets the id.
 * - Each command runs in its own process group so kill/release/dispose stop its children too.
 */
import { StringDecoder } from 'node:string_decoder';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { ErrorCodes } from '../common/protocol/methods';
import type {
  CreateTerminalParams,
  CreateTerminalResult,
  TerminalExitStatus,
  TerminalOutputResult,
  TerminalParams,
} from '../common/protocol/requests';
import type { TerminalHost } from './acp/handlers';
import { rpcError } from './transport/connection';

/** Without a limit from the agent we still bound memory. */
const DEFAULT_LIMIT = 1024 * 1024;

/** Drop bytes from the start so at most `limit` remain, starting on a UTF-8 character boundary. */
export function trimUtf8Start(buf: Buffer, limit: number): Buffer {
  if (buf.length <= limit) return buf;
  let start = buf.length - limit;
  // Continuation bytes look like 10xxxxxx; skip them so the kept text starts at a character.
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  return buf.subarray(start);
}

interface Terminal {
  readonly sessionId: string;
  readonly proc: ChildProcess;
  readonly limit: number;
  output: Buffer;
  truncated: boolean;
  exit: TerminalExitStatus | undefined;
  readonly exited: Promise<TerminalExitStatus>;
}

export interface NodeTerminalHostOptions {
  /** Used when `terminal/create` has no `cwd`. */
  defaultCwd: string;
  /** Called with every chunk of output (for live display). */
  onOutput?: (terminalId: string, text: string) => void;
  /** Called once when the command exits. */
  onExit?: (terminalId: string, status: TerminalExitStatus) => void;
}

export class NodeTerminalHost implements TerminalHost {
  private readonly terminals = new Map<string, Terminal>();
  private seq = 0;

  constructor(private readonly options: NodeTerminalHostOptions) {}

  async create(p: CreateTerminalParams): Promise<CreateTerminalResult> {
    const terminalId = `term-${++this.seq}`;
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of p.env ?? []) env[e.name] = e.value;
    const args = p.args ?? [];
    const useShell = args.length === 0 && /\s/.test(p.command.trim());
    const proc = spawn(p.command, args, {
      cwd: p.cwd ?? this.options.defaultCwd,
      env,
      shell: useShell,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let resolveExit: (s: TerminalExitStatus) => void = () => undefined;
    const exited = new Promise<TerminalExitStatus>((resolve) => (resolveExit = resolve));
    const t: Terminal = { sessionId: p.sessionId, proc, limit: p.outputByteLimit ?? DEFAULT_LIMIT, output: Buffer.alloc(0), truncated: false, exit: undefined, exited };
    // One decoder per terminal: a multi-byte character split across two chunks is decoded whole.
    const decoder = new StringDecoder('utf8');
    const onData = (chunk: Buffer) => {
      const next = Buffer.concat([t.output, chunk]);
      const kept = trimUtf8Start(next, t.limit);
      if (kept.length < next.length) t.truncated = true;
      t.output = kept;
      const text = decoder.write(chunk);
      if (text) this.options.onOutput?.(terminalId, text);
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    const finish = (status: TerminalExitStatus) => {
      if (t.exit) return;
      t.exit = status;
      const rest = decoder.end();
      if (rest) this.options.onOutput?.(terminalId, rest);
      this.options.onExit?.(terminalId, status);
      resolveExit(status);
    };
    proc.on('close', (code, signal) => finish({ exitCode: code, signal: signal ?? null }));
    proc.on('error', (err) => {
      onData(Buffer.from(`${err.message}\n`));
      finish({ exitCode: 127, signal: null });
    });
    this.terminals.set(terminalId, t);
    return { terminalId };
  }

  async output(p: TerminalParams): Promise<TerminalOutputResult> {
    const t = this.get(p.terminalId);
    return { output: t.output.toString('utf8'), truncated: t.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(p: TerminalParams, signal: AbortSignal): Promise<TerminalExitStatus> {
    const t = this.get(p.terminalId);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new Error('wait_for_exit cancelled'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void t.exited.then((s) => {
        signal.removeEventListener('abort', onAbort);
        resolve(s);
      });
    });
  }

  async kill(p: TerminalParams): Promise<void> {
    killTree(this.get(p.terminalId));
  }

  async release(p: TerminalParams): Promise<void> {
    const t = this.get(p.terminalId);
    killTree(t);
    this.terminals.delete(p.terminalId);
  }

  /** Kill and forget the terminals of one session (the agent should release them, but may not). */
  releaseSession(sessionId: string): void {
    for (const [id, t] of this.terminals) {
      if (t.sessionId !== sessionId) continue;
      killTree(t);
      this.terminals.delete(id);
    }
  }

  /** Kill every terminal still running (agent exited, extension disposed). */
  dispose(): void {
    for (const t of this.terminals.values()) killTree(t);
    this.terminals.clear();
  }

  private get(id: string): Terminal {
    const t = this.terminals.get(id);
    // Ids are per host, not per session; an agent asking about another session's terminal gets the same answer as for an unknown one.
    if (!t) throw rpcError(ErrorCodes.resourceNotFound, `unknown terminal ${id}`);
    return t;
  }
}

function killTree(t: Terminal): void {
  if (t.exit || t.proc.pid === undefined) return;
  try {
    process.kill(-t.proc.pid, 'SIGKILL');
  } catch {
    t.proc.kill('SIGKILL');
  }
}
