/**
 * The host's side of the tree watchdog (treeWatchdog.ts), and which watchdog a platform gets.
 *
 * POSIX: each command runs under its own watchdog as the leader of a process group (watchdog.ts).
 * Windows has no groups: one tree watchdog per host tracks the trees of all its commands.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { SpawnPlatform } from './spawnPlan';
import { TREE_WATCHDOG_SOURCE, type TreeWatchdogConfig, type TreeWatchdogReport } from './treeWatchdog';

export type Supervision = { readonly kind: 'group' } | { readonly kind: 'tree'; readonly trees: TreeWatch };

/** `%SystemRoot%\System32\<name>`: system tools by absolute path, so no folder on PATH (or the cwd) can stand in. */
export function systemTool(env: NodeJS.ProcessEnv, relative: string): string {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'SYSTEMROOT');
  const root = (key === undefined ? undefined : env[key]) || 'C:\\Windows';
  return path.win32.join(root, 'System32', relative);
}

/** The tree watchdog's config on `platform`: Windows lists with PowerShell (CIM) and ends with taskkill. */
export function treeWatchdogConfig(platform: SpawnPlatform, env: NodeJS.ProcessEnv, hostPid: number): TreeWatchdogConfig {
  const win = platform === 'win32';
  return {
    hostPid,
    lister: win ? 'cim' : 'proc',
    killer: win ? 'taskkill' : 'signal',
    // A listing costs Windows tens of milliseconds of WMI work: often enough to see a tree's processes, rarely enough to cost nothing.
    intervalMs: win ? 2000 : 250,
    powershell: systemTool(env, 'WindowsPowerShell\\v1.0\\powershell.exe'),
    taskkill: systemTool(env, 'taskkill.exe'),
  };
}

let shared: TreeWatch | undefined;

/** How commands are supervised on `platform`: by process group (POSIX) or by this host's tree watchdog (Windows). */
export function supervisionFor(platform: SpawnPlatform): Supervision {
  if (platform !== 'win32') return { kind: 'group' };
  shared ??= new TreeWatch(treeWatchdogConfig(platform, process.env, process.pid));
  return { kind: 'tree', trees: shared };
}

/** One tree watchdog, started on first use; it outlives this process to end what it tracks. */
export class TreeWatch {
  private child: ChildProcess | undefined;
  private failed = false;
  private readonly listeners = new Set<(r: TreeWatchdogReport) => void>();

  constructor(readonly config: TreeWatchdogConfig) {}

  track(pid: number): void {
    this.send({ type: 'track', pid });
  }
  /** The root exited: its pid may be reused, so it is never adopted again (what it left still is ended). */
  exited(pid: number): void {
    this.send({ type: 'exited', pid });
  }
  /** Ends the tree now: the root if it still runs, and every recorded descendant still alive. */
  end(pid: number): void {
    this.send({ type: 'end', pid });
  }
  /** Whether the watchdog could not be started or was lost (the caller then ends what it can itself). */
  get unavailable(): boolean {
    return this.failed;
  }

  onReport(listener: (r: TreeWatchdogReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private send(m: { type: string; pid: number }): void {
    const child = this.start();
    if (!child?.stdin?.writable) return;
    child.stdin.write(`${JSON.stringify(m)}\n`);
  }

  private start(): ChildProcess | undefined {
    if (this.child || this.failed) return this.child;
    const child = spawn(process.execPath, ['-e', TREE_WATCHDOG_SOURCE, JSON.stringify(this.config)], {
      stdio: ['pipe', 'pipe', 'ignore'],
      // Out of our console and (POSIX) our group: whatever ends this host must not end its watchdog.
      detached: true,
      windowsHide: true,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    this.child = child;
    const lost = () => {
      this.failed = true;
      this.child = undefined;
    };
    child.on('error', lost);
    child.on('exit', lost);
    child.stdin?.on('error', () => undefined);
    let buf = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const r = JSON.parse(line) as TreeWatchdogReport;
          for (const l of this.listeners) l(r);
        } catch {
          // not a report
        }
      }
    });
    // Neither the watchdog nor its pipes keep this process alive: it is there for when we are gone.
    child.unref();
    for (const s of [child.stdin, child.stdout]) (s as (Readable & { unref?: () => void }) | null)?.unref?.();
    return child;
  }
}
