/**
 * Ending a process and everything it started, on each platform.
 *
 * POSIX: the command leads its own process group (under the watchdog), so one signal to the negative
 * pid reaches the whole group, including children that moved to the background. Windows has no
 * groups to signal: `taskkill /T /F /PID` ends the process and the tree of processes it created.
 * Windows also has no watchdog, so trees still running when this process exits are ended from its
 * `exit` handler (a crash that skips that handler leaves them: the README says so).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { SpawnPlatform } from './spawnPlan';
import { hostPlatform } from './spawn';

export type TreeKill =
  | { readonly kind: 'group'; readonly pgid: number; readonly signal: NodeJS.Signals }
  | { readonly kind: 'command'; readonly file: string; readonly args: readonly string[] };

/** How to end the tree led by `pid` on `platform` (pure: unit-tested for every platform). */
export function treeKillPlan(platform: SpawnPlatform, pid: number, signal: NodeJS.Signals): TreeKill {
  // taskkill cannot ask a console program to stop: /F is the only way that always works.
  if (platform === 'win32') return { kind: 'command', file: 'taskkill', args: ['/T', '/F', '/PID', String(pid)] };
  return { kind: 'group', pgid: pid, signal };
}

/** Ends the tree led by `pid` now. `fallback` is tried when the group cannot be signalled. */
export function killTree(pid: number, signal: NodeJS.Signals, fallback?: () => void): void {
  const plan = treeKillPlan(hostPlatform(), pid, signal);
  if (plan.kind === 'group') {
    try {
      process.kill(-plan.pgid, plan.signal);
    } catch {
      fallback?.();
    }
    return;
  }
  const p = spawn(plan.file, [...plan.args], { stdio: 'ignore', windowsHide: true });
  p.on('error', () => fallback?.());
}

const liveTrees = new Set<number>();
let exitHookSet = false;

/** Windows: remembers a tree to end when this process exits (POSIX trees are the watchdog's). */
export function trackTree(pid: number): void {
  if (hostPlatform() !== 'win32') return;
  liveTrees.add(pid);
  if (exitHookSet) return;
  exitHookSet = true;
  process.on('exit', () => {
    for (const p of liveTrees) {
      const plan = treeKillPlan('win32', p, 'SIGKILL');
      if (plan.kind === 'command') spawnSync(plan.file, [...plan.args], { stdio: 'ignore', windowsHide: true });
    }
  });
}

export function untrackTree(pid: number): void {
  liveTrees.delete(pid);
}
