/**
 * A real `terminal/*` host on child_process (DIGEST §12.2), used by the CLI and the VS Code side.
 *
 * - `command` with no `args` and a space in it runs through the shell: agents often send a whole
 *   command line as `command`.
 * - Output keeps at most `outputByteLimit` bytes (capped at `maxOutputBytes`), dropping from the start
 *   and never splitting a UTF-8 character (so it may keep slightly less than the limit). Chunks are kept
 *   as they come and joined only when asked, so a flood costs time linear in its size.
 * - The working directory is resolved against `defaultCwd` and passed to `admitCwd` first (the
 *   workspace boundary: the CLI refuses outside `--cwd`, the extension asks the user).
 * - All terminals of one host together keep at most `totalOutputBytes`: each reserves its limit from
 *   that budget when created and gives it back when released; a create beyond it gets a smaller limit,
 *   or an error once nothing is left.
 * - `kill` stops the process but the id stays valid; `release` kills if needed and forgets the id.
 * - Each command runs supervised (process/supervised.ts): kill/release/dispose end it and everything
 *   it started, including background jobs still running after the command itself exited, and they end
 *   with this process however it goes (on POSIX; see processTree.ts for Windows).
 */
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { randomBytes } from 'node:crypto';
import { ErrorCodes } from '../common/protocol/methods';
import type { CreateTerminalParams, CreateTerminalResult, TerminalExitStatus, TerminalOutputResult, TerminalParams } from '../common/protocol/requests';
import type { TerminalHost } from './acp/handlers';
import { rpcError } from './transport/connection';
import { Supervised } from './process/supervised';

/** Without a limit from the agent we still bound memory. */
const DEFAULT_LIMIT = 1024 * 1024;
/** The most output a terminal keeps whatever the agent asks for. */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** The most output all terminals of one host keep together. */
const TOTAL_OUTPUT_BYTES = 64 * 1024 * 1024;
/**
 * After the command exits, how long output still in the pipes may take to arrive before the exit is
 * reported (only when something it left in the background holds the pipes open).
 */
const DRAIN_MS = 200;

/** Drop bytes from the start so at most `limit` remain, starting on a UTF-8 character boundary. */
export function trimUtf8Start(buf: Buffer, limit: number): Buffer {
  if (buf.length <= limit) return buf;
  let start = buf.length - limit;
  // Continuation bytes look like 10xxxxxx; skip them so the kept text starts at a character.
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  return buf.subarray(start);
}

/**
 * The newest `limit` bytes of a stream. Appending drops whole chunks that fall out of the window, so
 * each byte is copied at most once on the way in; `read` joins what is left.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  /** Index of the oldest chunk still kept (dropped ones are compacted away now and then). */
  private head = 0;
  private size = 0;
  private dropped = false;

  constructor(readonly limit: number) {}

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.head < this.chunks.length - 1 && this.size - this.chunks[this.head]!.length >= this.limit) {
      this.size -= this.chunks[this.head++]!.length;
      this.dropped = true;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
    // A single chunk far over the limit: keep only its tail now, so memory stays near the limit.
    if (this.head === this.chunks.length - 1 && this.size > this.limit * 2) {
      this.chunks = [Buffer.from(chunk.subarray(chunk.length - this.limit))];
      this.head = 0;
      this.size = this.limit;
      this.dropped = true;
    }
  }

  /** Bytes held now: at most about the limit plus one chunk. */
  get held(): number {
    return this.size;
  }

  read(): { text: string; truncated: boolean } {
    const live = this.chunks.slice(this.head);
    const all = live.length === 1 ? live[0]! : Buffer.concat(live, this.size);
    // Keep the joined buffer: the next read does not pay for the join again.
    this.chunks = this.size === 0 ? [] : [all];
    this.head = 0;
    const kept = trimUtf8Start(all, this.limit);
    return { text: kept.toString('utf8'), truncated: this.dropped || kept.length < all.length };
  }
}

interface Terminal {
  readonly sessionId: string;
  readonly proc: Supervised;
  readonly output: OutputTail;
  exit: TerminalExitStatus | undefined;
  readonly exited: Promise<TerminalExitStatus>;
  /** Its share of the host's output budget. */
  readonly limit: number;
}

export interface NodeTerminalHostOptions {
  /** Used when `terminal/create` has no `cwd`, and to resolve a relative one. */
  defaultCwd: string;
  /**
   * The workspace boundary for the working directory (already absolute): resolves to let the command
   * start, throws (a JSON-RPC error saying why) to refuse it. Without it every directory is allowed.
   */
  admitCwd?: (cwd: string, sessionId: string) => Promise<void>;
  /** Caps the agent's `outputByteLimit` (default MAX_OUTPUT_BYTES). */
  maxOutputBytes?: number;
  /** Caps the output all terminals keep together (default TOTAL_OUTPUT_BYTES). */
  totalOutputBytes?: number;
  /** Called with every chunk of output (for live display), with the session that created the terminal (a subagent's is its own). */
  onOutput?: (terminalId: string, text: string, sessionId: string) => void;
  /** Called once when the command exits. */
  onExit?: (terminalId: string, status: TerminalExitStatus, sessionId: string) => void;
}

export class NodeTerminalHost implements TerminalHost {
  private readonly terminals = new Map<string, Terminal>();
  private seq = 0;
  /** Output bytes promised to live terminals, out of `totalOutputBytes`. */
  private reserved = 0;
  /**
   * Ids are unique across hosts, not only within one: a chat's saved terminal views (and its transcript's
   * tool cards) keep the ids of an earlier window's terminals, which a new window's must not reuse.
   */
  private readonly idPrefix = `term-${randomBytes(4).toString('hex')}-`;

  constructor(private readonly options: NodeTerminalHostOptions) {}

  async create(p: CreateTerminalParams): Promise<CreateTerminalResult> {
    const cwd = path.resolve(this.options.defaultCwd, p.cwd ?? '.');
    await this.options.admitCwd?.(cwd, p.sessionId);
    const max = this.options.maxOutputBytes ?? MAX_OUTPUT_BYTES;
    const left = (this.options.totalOutputBytes ?? TOTAL_OUTPUT_BYTES) - this.reserved;
    if (left <= 0) throw rpcError(ErrorCodes.invalidRequest, 'too much terminal output is held: release terminals that are no longer needed');
    const limit = Math.min(p.outputByteLimit ?? DEFAULT_LIMIT, max, left);
    const terminalId = `${this.idPrefix}${++this.seq}`;
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of p.env ?? []) env[e.name] = e.value;
    const args = p.args ?? [];
    let resolveExit: (s: TerminalExitStatus) => void = () => undefined;
    const exited = new Promise<TerminalExitStatus>((resolve) => (resolveExit = resolve));
    // One decoder per terminal: a multi-byte character split across two chunks is decoded whole.
    const decoder = new StringDecoder('utf8');
    const output = new OutputTail(limit);
    const onData = (chunk: Buffer) => {
      output.append(chunk);
      const text = decoder.write(chunk);
      if (text) this.options.onOutput?.(terminalId, text, p.sessionId);
    };
    let exit: TerminalExitStatus | undefined;
    let t: Terminal | undefined;
    const finish = (status: TerminalExitStatus) => {
      if (!t || t.exit) return;
      t.exit = status;
      const rest = decoder.end();
      if (rest) this.options.onOutput?.(terminalId, rest, p.sessionId);
      this.options.onExit?.(terminalId, status, p.sessionId);
      resolveExit(status);
    };
    // The exit is reported once the output has arrived: both pipes closed, or a background job holds them.
    let openPipes = 2;
    const settle = () => {
      if (!exit) return;
      if (openPipes === 0) finish(exit);
      else setTimeout(() => exit && finish(exit), DRAIN_MS).unref();
    };
    let proc: Supervised;
    try {
      proc = new Supervised(
        { command: p.command, args, shellLine: args.length === 0 && /\s/.test(p.command.trim()) },
        {
          env,
          cwd,
          stdin: 'ignore',
          graceMs: 500,
          endTreeOnExit: false,
          onReport: (r) => {
            if (r.type === 'exit') exit = { exitCode: r.code, signal: r.signal };
            else if (r.type === 'error') {
              onData(Buffer.from(`${r.message}\n`));
              exit = { exitCode: 127, signal: null };
            }
            settle();
          },
        },
      );
    } catch (e) {
      throw rpcError(ErrorCodes.invalidParams, e instanceof Error ? e.message : String(e));
    }
    for (const stream of [proc.child.stdout, proc.child.stderr]) {
      stream?.on('data', onData);
      stream?.on('close', () => {
        openPipes--;
        settle();
      });
    }
    // The supervisor itself ended (killed with its tree): whatever the command's status was, it is over.
    proc.child.on('exit', (code, signal) => {
      exit ??= { exitCode: code, signal: signal ?? null };
      settle();
    });
    proc.child.on('error', (err) => {
      onData(Buffer.from(`${err.message}\n`));
      exit ??= { exitCode: 127, signal: null };
      settle();
    });
    t = { sessionId: p.sessionId, proc, output, exit: undefined, exited, limit };
    this.reserved += limit;
    this.terminals.set(terminalId, t);
    return { terminalId };
  }

  async output(p: TerminalParams): Promise<TerminalOutputResult> {
    const t = this.get(p.terminalId);
    const { text, truncated } = t.output.read();
    return { output: text, truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
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
    this.get(p.terminalId).proc.end('SIGKILL');
  }

  async release(p: TerminalParams): Promise<void> {
    this.forget(p.terminalId, this.get(p.terminalId));
  }

  /** Kill and forget the terminals of one session (the agent should release them, but may not). */
  releaseSession(sessionId: string): void {
    for (const [id, t] of this.terminals) {
      if (t.sessionId === sessionId) this.forget(id, t);
    }
  }

  /** Kill every terminal still running (agent exited, extension disposed). */
  dispose(): void {
    for (const [id, t] of this.terminals) this.forget(id, t);
  }

  private forget(id: string, t: Terminal): void {
    t.proc.end('SIGKILL');
    this.terminals.delete(id);
    this.reserved -= t.limit;
  }

  private get(id: string): Terminal {
    const t = this.terminals.get(id);
    // Ids are per host, not per session; an agent asking about another session's terminal gets the same answer as for an unknown one.
    if (!t) throw rpcError(ErrorCodes.resourceNotFound, `unknown terminal ${id}`);
    return t;
  }
}
