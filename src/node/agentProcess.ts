/**
 * One agent subprocess. Owns the child: stdio pipes, a ring buffer of its last stderr lines (for
 * error messages), `onExit`, and a kill of its whole process group on `dispose()` (once).
 * The ACP connection on top of its stdio is owned by whoever creates the AcpClient.
 *
 * The agent is started through the spawn plan and supervised (process/supervised.ts): on POSIX under a
 * watchdog (watchdog.ts) that leads its process group, so when the agent exits by itself, or this
 * process goes away however it goes, the whole group is ended and no agent nor any of its children
 * outlive us; on Windows its tree is ended with taskkill (process/processTree.ts). `started` settles once the agent's command has started, or
 * rejects with a plain reason (e.g. "command not found") instead of a later write error.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Emitter, type Event } from '../common/util/lifecycle';
import { StderrTail } from './process/stderrTail';
import { Supervised } from './process/supervised';

export interface AgentSpawnOptions {
  command: string;
  args?: readonly string[];
  /** Added to (and overriding) the parent's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Each stderr line as it arrives. */
  onStderrLine?: (line: string) => void;
  /** How many stderr lines to keep for error messages (default 20). */
  stderrLines?: number;
  /** Between SIGTERM and SIGKILL when the group is ended (default 1500 ms). */
  graceMs?: number;
}

export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when the process could not be started (e.g. "command not found: foo (ENOENT)"). */
  readonly error?: string;
  /** The system error code when it could not be started (ENOENT, EACCES, ...). */
  readonly errno?: string;
}

export class AgentProcess {
  private readonly proc: Supervised;
  private readonly child: ChildProcess;
  private readonly tail: StderrTail;
  private exitInfo: AgentExit | undefined;
  private disposed = false;
  private readonly exitEmitter = new Emitter<AgentExit>();
  readonly onExit: Event<AgentExit> = this.exitEmitter.event;
  readonly exited: Promise<AgentExit>;

  /** Resolves when the agent's command is running; rejects (with the reason) when it cannot start. */
  readonly started: Promise<void>;
  /** The agent's own pid (under a watchdog, `pid` is the watchdog's, the group's id). */
  private agentPidValue: number | undefined;

  constructor(opts: AgentSpawnOptions) {
    this.tail = new StderrTail(opts.stderrLines ?? 20, (line) => opts.onStderrLine?.(line));
    const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
    let onStarted: () => void = () => undefined;
    let onNotStarted: (e: Error) => void = () => undefined;
    this.started = new Promise<void>((resolve, reject) => {
      onStarted = resolve;
      onNotStarted = reject;
    });
    this.started.catch(() => undefined); // callers that never await it must not see an unhandled rejection
    let finish: (exit: AgentExit) => void = () => undefined;
    this.exited = new Promise((resolve) => {
      finish = (exit: AgentExit) => {
        if (this.exitInfo) return;
        this.tail.end();
        this.exitInfo = exit;
        if (exit.error) onNotStarted(new Error(exit.error));
        else onStarted(); // it ran (and already ended): what went wrong is in the exit status
        resolve(exit);
        this.exitEmitter.fire(exit);
      };
    });
    const notStarted = (code: string | null | undefined, message: string) =>
      finish({ code: null, signal: null, error: startError(opts.command, code ?? undefined, message), ...(code ? { errno: code } : {}) });
    this.proc = new Supervised(
      { command: opts.command, args: opts.args ?? [] },
      {
        env,
        cwd: opts.cwd,
        stdin: 'pipe',
        graceMs: opts.graceMs ?? 1500,
        endTreeOnExit: true,
        onReport: (r) => {
          if (r.type === 'spawned') {
            this.agentPidValue = r.pid;
            onStarted();
          } else if (r.type === 'error') notStarted(r.code, r.message);
          else finish({ code: r.code, signal: r.signal });
        },
      },
    );
    this.child = this.proc.child;
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => this.tail.push(chunk));
    // A write to a dead agent's stdin raises EPIPE on the stream; the close is reported via onExit.
    this.child.stdin?.on('error', () => undefined);
    this.child.on('exit', (code, signal) => finish({ code, signal }));
    this.child.on('error', (err: NodeJS.ErrnoException) => notStarted(err.code, err.message));
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }
  get stdout(): Readable {
    return this.child.stdout!;
  }
  /** The id of the agent's process tree (the watchdog's pid, the group's id, on POSIX). */
  get pid(): number | undefined {
    return this.child.pid;
  }
  /** The agent command's own pid, once it started. */
  get agentPid(): number | undefined {
    return this.agentPidValue;
  }
  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }
  get stderrTail(): readonly string[] {
    return this.tail.lines;
  }

  /** "exited with code 1; stderr: …" — for error messages when the connection drops. */
  describe(): string | undefined {
    const parts: string[] = [];
    const e = this.exitInfo;
    if (e?.error) parts.push(`could not start the agent: ${e.error}`);
    else if (e) parts.push(e.signal ? `agent killed by ${e.signal}` : `agent exited with code ${e.code}`);
    const last = this.tail.quote(5);
    if (last) parts.push(`last stderr: ${last}`);
    return parts.length ? parts.join('; ') : undefined;
  }

  /** Close stdin, SIGTERM the process group, SIGKILL it if still alive after `graceMs`. Idempotent. */
  dispose(graceMs = 1500): void {
    if (this.disposed) return;
    this.disposed = true;
    this.child.stdin?.end();
    // Closing the watchdog's pipe tells it to end the group too (it outlives us if we die right here).
    this.proc.letGo();
    if (this.exitInfo && (this.child.exitCode !== null || this.child.signalCode !== null)) return this.exitEmitter.dispose();
    this.signal('SIGTERM');
    const timer = setTimeout(() => {
      if (!this.exitInfo) this.signal('SIGKILL');
    }, graceMs);
    timer.unref();
    void this.exited.then(() => {
      clearTimeout(timer);
      this.exitEmitter.dispose();
    });
  }

  private signal(sig: NodeJS.Signals): void {
    this.proc.end(sig);
  }
}

/** "command not found: foo (ENOENT)" rather than "spawn foo ENOENT". */
function startError(command: string, code: string | undefined, message: string): string {
  if (code === 'ENOENT') return `command not found: ${command} (ENOENT)`;
  if (code === 'EACCES') return `permission denied: ${command} is not executable (EACCES)`;
  return code ? `${message} (${code})` : message;
}
