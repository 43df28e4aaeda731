/**
 * Ending a process and everything it started, now, on each platform.
 *
 * POSIX: the command leads its own process group (under the watchdog), so one signal to the negative
 * pid reaches the whole group, including children that moved to the background. Windows has no
 * groups to signal: `taskkill /T /F /PID` ends the process and the tree of processes it created (the
 * tree watchdog, treeWatchdog.ts, also ends what was orphaned; this is for when it cannot be reached).
 */
import { spawn } from 'node:child_process';
import type { SpawnPlatform } from './spawnPlan';
import { systemTool } from './treeWatch';

export type TreeKill =
  { readonly kind: 'group'; readonly pgid: number; readonly signal: NodeJS.Signals } | { readonly kind: 'command'; readonly file: string; readonly args: readonly string[] };

/** How to end the tree led by `pid` on `platform` (pure: unit-tested for every platform). */
export function treeKillPlan(platform: SpawnPlatform, pid: number, signal: NodeJS.Signals, env: NodeJS.ProcessEnv): TreeKill {
  // taskkill cannot ask a console program to stop: /F is the only way that always works.
  if (platform === 'win32') return { kind: 'command', file: systemTool(env, 'taskkill.exe'), args: ['/T', '/F', '/PID', String(pid)] };
  return { kind: 'group', pgid: pid, signal };
}

/** Ends the tree led by `pid` now, as `treeKillPlan` says. `fallback` is tried when that fails. */
export function killTree(platform: SpawnPlatform, pid: number, signal: NodeJS.Signals, fallback?: () => void): void {
  const plan = treeKillPlan(platform, pid, signal, process.env);
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
