/**
 * One command started for a chat (an agent or a terminal) with the guarantee that it and everything it
 * starts end with us: on POSIX under the watchdog (watchdog.ts) as the leader of its own process group,
 * on Windows directly, its tree ended by pid (processTree.ts). Either way the owner hears the same
 * reports: `spawned` (with the command's pid), `error` (it could not start) and `exit` (its status).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { WATCHDOG_SOURCE, type WatchdogConfig, type WatchdogReport } from '../watchdog';
import { killTree, trackTree, untrackTree } from './processTree';
import { hostPlatform, planHere, spawnPlanned } from './spawn';
import type { SpawnRequest } from './spawnPlan';

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
}

export class Supervised {
  readonly child: ChildProcess;
  readonly watched = hostPlatform() !== 'win32';
  private ended = false;

  /** Throws when the command cannot be planned (an argument Windows cannot pass safely). */
  constructor(req: SpawnRequest, o: SupervisedOptions) {
    const plan = planHere(req, o.env, o.cwd);
    if (this.watched) {
      const config: WatchdogConfig = { graceMs: o.graceMs, keepElectronRunAsNode: o.env.ELECTRON_RUN_AS_NODE !== undefined, endGroupOnExit: o.endTreeOnExit, treeToken: randomBytes(8).toString('hex') };
      this.child = spawnPlanned(
        { file: process.execPath, args: ['-e', WATCHDOG_SOURCE, JSON.stringify(config), plan.file, ...plan.args], windowsHide: true, windowsVerbatimArguments: false, via: 'direct' },
        // Own process group (led by the watchdog), so ending the group stops all the command started.
        { env: { ...o.env, ELECTRON_RUN_AS_NODE: '1' }, cwd: o.cwd, stdio: [o.stdin, 'pipe', 'pipe', 'pipe'], ownGroup: true },
      );
      this.listenToWatchdog((r) => {
        // What the command left in the background must not keep this process alive (it ends with us).
        if (r.type !== 'spawned') this.child.unref();
        o.onReport(r);
      });
    } else {
      this.child = spawnPlanned(plan, { env: o.env, cwd: o.cwd, stdio: [o.stdin, 'pipe', 'pipe'], ownGroup: false });
      this.child.on('spawn', () => {
        if (this.child.pid !== undefined) trackTree(this.child.pid);
        o.onReport({ type: 'spawned', pid: this.child.pid ?? 0 });
      });
      this.child.on('error', (e: NodeJS.ErrnoException) => o.onReport({ type: 'error', code: e.code ?? null, message: e.message }));
      this.child.on('exit', (code, signal) => o.onReport({ type: 'exit', code, signal }));
    }
    // Once the tree's root is reaped its id may be reused: never signal it again. (On Windows the
    // tree is found from its root, so what the command left running after it exited cannot be.)
    this.child.on('exit', () => {
      this.ended = true;
      if (this.child.pid !== undefined) untrackTree(this.child.pid);
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
   * group id stays ours until the watchdog (our child) has been reaped.
   */
  end(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined || this.ended) return;
    // The watchdog also finds what left the group; if it cannot be told, the group is signalled directly.
    const pipe = this.child.stdio[3] as Writable | undefined;
    if (this.watched && pipe?.writable) {
      pipe.write(`${JSON.stringify({ type: 'end', signal })}\n`);
      return;
    }
    killTree(pid, signal, () => this.child.kill(signal));
  }

  /** Tells the watchdog we are done: it ends the group itself (also what happens when we die). */
  letGo(): void {
    (this.child.stdio[3] as Readable | undefined)?.destroy();
  }
}
