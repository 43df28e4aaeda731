/** Whether a program can be started by name: an absolute path that exists, or a name found on PATH. */
import { accessSync, constants, statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

/** The files, in the order the platform's shell tries them, that `program` may name. */
export function pathCandidates(program: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform, cwd = '.'): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  // Windows finds `npx` as npx.cmd through PATHEXT.
  const exts = platform === 'win32' ? ['', ...(pathVar(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e)] : [''];
  const withExts = (base: string) => (platform === 'win32' && p.extname(base) !== '' && exts.some((e) => e.toLowerCase() === p.extname(base).toLowerCase()) ? [base] : exts.map((e) => base + e));
  if (p.isAbsolute(program) || program.includes('/') || (platform === 'win32' && program.includes('\\'))) return withExts(p.resolve(cwd, program));
  const dirs = (pathVar(env, 'PATH') ?? '').split(p.delimiter).filter((d) => d);
  return dirs.flatMap((dir) => withExts(p.join(dir, program)));
}

/** PATH is `Path` in a Windows environment copied into a plain object. */
function pathVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

export async function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const executable = async (p: string) => access(p, platform === 'win32' ? constants.F_OK : constants.X_OK).then(() => true, () => false);
  for (const candidate of pathCandidates(program, env, platform)) if (await executable(candidate)) return candidate;
  return null;
}

/** The file `program` runs on this machine (synchronous: a spawn is synchronous), or undefined. */
export function resolveCommand(program: string, env: NodeJS.ProcessEnv, cwd: string | undefined): string | undefined {
  const win = process.platform === 'win32';
  for (const candidate of pathCandidates(program, env, process.platform, cwd)) {
    try {
      if (!statSync(candidate).isFile()) continue;
      if (!win) accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}
