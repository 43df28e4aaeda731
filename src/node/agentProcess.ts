/**
 * One agent subprocess. Owns the child: stdio pipes, a ring buffer of its last stderr lines (for
 * error messages), `onExit`, and a kill of its whole process group on `dispose()` (once).
 * The ACP connection on top of its stdio is owned by whoever creates the AcpClient.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Emitter, type Event } from '../common/util/lifecycle';

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
}

export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when the process could not be started (e.g. ENOENT). */
  readonly error?: string;
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

  constructor(private readonly opts: AgentSpawnOptions) {
    const max = opts.stderrLines ?? 20;
    this.child = spawn(opts.command, [...(opts.args ?? [])], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group, so dispose() also stops what the agent spawned.
      detached: true,
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.partial += chunk;
      const lines = this.partial.split('\n');
      this.partial = lines.pop() ?? '';
      for (const raw of lines) this.addLine(raw.replace(/\r$/, ''), max);
    });
    // A write to a dead agent's stdin raises EPIPE on the stream; the close is reported via onExit.
    this.child.stdin?.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      const finish = (exit: AgentExit) => {
        if (this.exitInfo) return;
        if (this.partial) this.addLine(this.partial, max);
        this.partial = '';
        this.exitInfo = exit;
        resolve(exit);
        this.exitEmitter.fire(exit);
      };
      this.child.on('exit', (code, signal) => finish({ code, signal }));
      this.child.on('error', (err) => finish({ code: null, signal: null, error: err.message }));
    });
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }
  get stdout(): Readable {
    return this.child.stdout!;
  }
  get pid(): number | undefined {
    return this.child.pid;
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
    if (e?.error) parts.push(`could not start ${this.opts.command}: ${e.error}`);
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
    if (this.exitInfo) return this.exitEmitter.dispose();
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
