/**
 * One agent subprocess. Owns the child: stdio pipes, a ring buffer of its last stderr lines (for
 * error messages), `onExit`, and a kill of its whole process group on `dispose()` (once).
 * The ACP connection on top of its stdio is owned by whoever creates the AcpClient.
 *
 * On POSIX the agent runs under a watchdog (watchdog.ts) that leads its process group: when the agent
 * exits by itself, or this process goes away however it goes, the whole group is ended, so no agent
 * and none of its children outlive us. `started` settles once the agent's command has started, or
 * rejects with a plain reason (e.g. "command not found") instead of a later write error.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Emitter, type Event } from '../common/util/lifecycle';
import { WATCHDOG_SOURCE, type WatchdogConfig, type WatchdogReport } from './watchdog';

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
  private readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private partial = '';
  private exitInfo: AgentExit | undefined;
  private disposed = false;
  private readonly exitEmitter = new Emitter<AgentExit>();
  readonly onExit: Event<AgentExit> = this.exitEmitter.event;
  readonly exited: Promise<AgentExit>;

  /** Resolves when the agent's command is running; rejects (with the reason) when it cannot start. */
  readonly started: Promise<void>;
  /** The agent's own pid (under a watchdog, `pid` is the watchdog's, the group's id). */
  private agentPidValue: number | undefined;

  constructor(private readonly opts: AgentSpawnOptions) {
    const max = opts.stderrLines ?? 20;
    const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
    const watched = process.platform !== 'win32';
    if (watched) {
      const config: WatchdogConfig = { graceMs: opts.graceMs ?? 1500, keepElectronRunAsNode: env.ELECTRON_RUN_AS_NODE !== undefined };
      this.child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, JSON.stringify(config), opts.command, ...(opts.args ?? [])], {
        cwd: opts.cwd,
        env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        // Own process group (led by the watchdog), so ending the group stops all the agent started.
        detached: true,
      });
    } else {
      this.child = spawn(opts.command, [...(opts.args ?? [])], { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    }
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.partial += chunk;
      const lines = this.partial.split('\n');
      this.partial = lines.pop() ?? '';
      for (const raw of lines) this.addLine(raw.replace(/\r$/, ''), max);
    });
    // A write to a dead agent's stdin raises EPIPE on the stream; the close is reported via onExit.
    this.child.stdin?.on('error', () => undefined);
    let onStarted: () => void = () => undefined;
    let onNotStarted: (e: Error) => void = () => undefined;
    this.started = new Promise<void>((resolve, reject) => {
      onStarted = resolve;
      onNotStarted = reject;
    });
    this.started.catch(() => undefined); // callers that never await it must not see an unhandled rejection
    this.exited = new Promise((resolve) => {
      const finish = (exit: AgentExit) => {
        if (this.exitInfo) return;
        if (this.partial) this.addLine(this.partial, max);
        this.partial = '';
        this.exitInfo = exit;
        if (exit.error) onNotStarted(new Error(exit.error));
        else onStarted(); // it ran (and already ended): what went wrong is in the exit status
        resolve(exit);
        this.exitEmitter.fire(exit);
      };
      const notStarted = (code: string | null | undefined, message: string) =>
        finish({ code: null, signal: null, error: startError(opts.command, code ?? undefined, message), ...(code ? { errno: code } : {}) });
      this.child.on('exit', (code, signal) => finish({ code, signal }));
      this.child.on('error', (err: NodeJS.ErrnoException) => notStarted(err.code, err.message));
      if (!watched) this.child.on('spawn', () => onStarted());
      else this.listenToWatchdog((r) => {
        if (r.type === 'spawned') {
          this.agentPidValue = r.pid;
          onStarted();
        } else if (r.type === 'error') notStarted(r.code, r.message);
        else finish({ code: r.code, signal: r.signal });
      });
    });
  }

  /** The watchdog's reports on fd 3. The pipe stays open for our whole life: its close ends the group. */
  private listenToWatchdog(onReport: (r: WatchdogReport) => void): void {
    const pipe = this.child.stdio[3] as Readable | undefined;
    if (!pipe) return;
    let buf = '';
    pipe.setEncoding('utf8');
    pipe.on('error', () => undefined);
    pipe.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          onReport(JSON.parse(line) as WatchdogReport);
        } catch {
          // not a report: ignore
        }
      }
    });
    // This pipe must not keep a CLI alive on its own; the child process handle does while it runs.
    (pipe as Readable & { unref?: () => void }).unref?.();
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }
  get stdout(): Readable {
    return this.child.stdout!;
  }
  /** The id of the agent's process group (the watchdog's pid on POSIX). */
  get pid(): number | undefined {
    return this.child.pid;
  }
  /** The agent command's own pid, once it started. */
  get agentPid(): number | undefined {
    return this.agentPidValue ?? (process.platform === 'win32' ? this.child.pid : undefined);
  }
  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }
  get stderrTail(): readonly string[] {
    return this.tail;
  }

  /** "exited with code 1; stderr: …" — for error messages when the connection drops. */
  describe(): string | undefined {
    const parts: string[] = [];
    const e = this.exitInfo;
    if (e?.error) parts.push(`could not start the agent: ${e.error}`);
    else if (e) parts.push(e.signal ? `agent killed by ${e.signal}` : `agent exited with code ${e.code}`);
    const last = this.tail.slice(-5).join(' | ');
    if (last) parts.push(`last stderr: ${last}`);
    return parts.length ? parts.join('; ') : undefined;
  }

  /** Close stdin, SIGTERM the process group, SIGKILL it if still alive after `graceMs`. Idempotent. */
  dispose(graceMs = 1500): void {
    if (this.disposed) return;
    this.disposed = true;
    this.child.stdin?.end();
    // Closing the watchdog's pipe tells it to end the group too (it outlives us if we die right here).
    (this.child.stdio[3] as Readable | undefined)?.destroy();
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
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig);
    } catch {
      this.child.kill(sig);
    }
  }

  private addLine(line: string, max: number): void {
    this.opts.onStderrLine?.(line);
    this.tail.push(line);
    if (this.tail.length > max) this.tail.shift();
  }
}

/** "command not found: foo (ENOENT)" rather than "spawn foo ENOENT". */
function startError(command: string, code: string | undefined, message: string): string {
  if (code === 'ENOENT') return `command not found: ${command} (ENOENT)`;
  if (code === 'EACCES') return `permission denied: ${command} is not executable (EACCES)`;
  return code ? `${message} (${code})` : message;
}
