/** Starts a planned command (spawnPlan.ts) on this machine: the one place agent and terminal commands reach `spawn`. */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { resolveCommand } from '../findOnPath';
import { planSpawn, type SpawnPlan, type SpawnPlatform, type SpawnRequest } from './spawnPlan';

export function hostPlatform(): SpawnPlatform {
  return process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux';
}

export function planHere(req: SpawnRequest, env: NodeJS.ProcessEnv, cwd: string | undefined): SpawnPlan {
  const comspec = env.ComSpec ?? env.COMSPEC ?? process.env.ComSpec;
  const platform = hostPlatform();
  return planSpawn(req, { platform, resolve: (c) => resolveCommand(c, env, cwd, platform), ...(comspec ? { comspec } : {}) });
}

export interface SpawnOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly stdio: StdioOptions;
  /** Lead a new process group (so the group can be ended as one); POSIX only, see supervisionFor. */
  readonly ownGroup: boolean;
}

export function spawnPlanned(plan: SpawnPlan, o: SpawnOptions): ChildProcess {
  return spawn(plan.file, [...plan.args], {
    cwd: o.cwd,
    env: o.env,
    stdio: o.stdio,
    // Asked for only where groups exist (POSIX): on Windows `detached` would give the child a console of its own.
    detached: o.ownGroup,
    windowsHide: plan.windowsHide,
    windowsVerbatimArguments: plan.windowsVerbatimArguments,
  });
}
