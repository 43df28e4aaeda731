/**
 * One command started for a chat (an agent or a terminal) with the guarantee that it and everything it
 * starts end with us: on POSIX under the watchdog (watchdog.ts) as the leader of its own process group,
 * on Windows directly, its tree tracked by the host's tree watchdog (treeWatchdog.ts). Either way the
 * owner hears the same reports: `spawned` (with the command's pid), `error` (it could not start) and
 * `exit` (its status).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { CMD_ENV_PREFIX, WATCHDOG_SOURCE, type WatchdogConfig, type WatchdogReport } from '../watchdog';
import { killTree } from './processTree';
import { hostPlatform, planHere, spawnPlanned } from './spawn';
import type { SpawnRequest } from './spawnPlan';
import { supervisionFor, type Supervision } from './treeWatch';

export interface SupervisedOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Agents talk over stdin; terminals get none. */
  readonly stdin: 'pipe' | 'ignore';
  /** Between SIGTERM and SIGKILL when the watchdog ends the group. */
  readonly graceMs: number;
  /** Whether the command's own exit ends what it left running (agents: yes; terminals: on kill/release). */
  readonly endTreeOnExit: boolean;
  readonly onReport: (r: WatchdogReport) => void;
  /** How the tree is kept (default: this platform's way); injected to run the Windows way on Linux. */
  readonly supervision?: Supervision;
}

/**
 * The watchdog's environment: ours (it is our helper, a Node process), never the command's, which may be an
 * agent's terminal `env` (NODE_OPTIONS, LD_PRELOAD…). What the command's differs by is handed over as inert
 * `ACP_CHAT_CMD_ENV_<n>` = JSON `[name, value | null]` variables the watchdog applies to the command only.
 */
function watchdogEnv(command: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith(CMD_ENV_PREFIX)) env[k] = v;
  env.ELECTRON_RUN_AS_NODE = '1';
  const delta: [string, string | null][] = [];
  for (const [k, v] of Object.entries(command)) if (v !== undefined && env[k] !== v) delta.push([k, v]);
  for (const k of Object.keys(env)) if (command[k] === undefined) delta.push([k, null]);
  delta.forEach((d, i) => (env[`${CMD_ENV_PREFIX}${i}`] = JSON.stringify(d)));
  return env;
}

export class Supervised {
  readonly child: ChildProcess;
  private readonly supervision: Supervision;
  private ended = false;

  /** Throws when the command cannot be planned (an argument Windows cannot pass safely). */
  constructor(req: SpawnRequest, o: SupervisedOptions) {
    const plan = planHere(req, o.env, o.cwd);
    this.supervision = o.supervision ?? supervisionFor(hostPlatform());
    if (this.supervision.kind === 'group') {
      const config: WatchdogConfig = {
        graceMs: o.graceMs,
        keepElectronRunAsNode: o.env.ELECTRON_RUN_AS_NODE !== undefined,
        endGroupOnExit: o.endTreeOnExit,
        treeToken: randomBytes(8).toString('hex'),
      };
      this.child = spawnPlanned(
        {
          file: process.execPath,
          args: ['-e', WATCHDOG_SOURCE, JSON.stringify(config), plan.file, ...plan.args],
          windowsHide: true,
          windowsVerbatimArguments: false,
          via: 'direct',
        },
        // Own process group (led by the watchdog), so ending the group stops all the command started.
        { env: watchdogEnv(o.env), cwd: o.cwd, stdio: [o.stdin, 'pipe', 'pipe', 'pipe'], ownGroup: true },
      );
      this.listenToWatchdog((r) => {
        // What the command left in the background must not keep this process alive (it ends with us).
        if (r.type !== 'spawned') this.child.unref();
        o.onReport(r);
      });
    } else {
      const trees = this.supervision.trees;
      this.child = spawnPlanned(plan, { env: o.env, cwd: o.cwd, stdio: [o.stdin, 'pipe', 'pipe'], ownGroup: false });
      this.child.on('spawn', () => {
        if (this.child.pid !== undefined) trees.track(this.child.pid);
        o.onReport({ type: 'spawned', pid: this.child.pid ?? 0 });
      });
      this.child.on('error', (e: NodeJS.ErrnoException) => o.onReport({ type: 'error', code: e.code ?? null, message: e.message }));
      this.child.on('exit', (code, signal) => {
        const pid = this.child.pid;
        if (pid !== undefined) {
          trees.exited(pid);
          // What an agent left running ends with it; a terminal's background jobs wait for kill/release.
          if (o.endTreeOnExit) trees.end(pid);
        }
        o.onReport({ type: 'exit', code, signal });
      });
    }
    // Once the tree's root is reaped its id may be reused: never signal it again.
    this.child.on('exit', () => {
      this.ended = true;
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

  get stdin(): Writable | null {
    return this.child.stdin;
  }
  /** The id of the tree: the watchdog's pid (the group's id) on POSIX, the command's on Windows. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Ends the whole tree now, starting with `signal` (Windows: always forcibly). Safe to call again: the
   * group id stays ours until the watchdog (our child) has been reaped; the tree watchdog verifies every
   * pid it ends, and also ends what a root that already exited left running.
   */
  end(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (this.supervision.kind === 'tree') {
      const trees = this.supervision.trees;
      if (!trees.unavailable) return trees.end(pid);
      if (this.ended) return;
      // No watchdog to ask: the root and the tree still hanging from it.
      if (trees.config.killer === 'taskkill') killTree('win32', pid, signal, () => this.child.kill(signal));
      else this.child.kill(signal);
      return;
    }
    if (this.ended) return;
    // The watchdog also finds what left the group; if it cannot be told, the group is signalled directly
    // (group supervision is POSIX's: the plan is the same for every POSIX platform).
    const pipe = this.child.stdio[3] as Writable | undefined;
    if (pipe?.writable) {
      pipe.write(`${JSON.stringify({ type: 'end', signal })}\n`);
      return;
    }
    killTree('linux', pid, signal, () => this.child.kill(signal));
  }

  /** Tells the watchdog we are done: it ends the tree itself (also what happens when we die). */
  letGo(): void {
    if (this.supervision.kind === 'tree') this.end('SIGKILL');
    else (this.child.stdio[3] as Readable | undefined)?.destroy();
  }
}
