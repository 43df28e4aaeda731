/** Whether a program can be started by name: an absolute path that exists, or a name found on PATH. */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The files, in the order the platform's shell tries them, that `program` may name. */
export function pathCandidates(program: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform, cwd = '.'): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const pathExt = (pathVar(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e);
  // Windows finds `npx` as npx.cmd through PATHEXT, never as the extensionless `npx` beside it (a POSIX
  // shell script npm installs too): a name as given only when it has an extension, as cmd.exe does.
  const withExts = (base: string): string[] => {
    if (platform !== 'win32') return [base];
    const ext = p.extname(base).toLowerCase();
    if (ext === '') return pathExt.map((e) => base + e);
    return pathExt.some((e) => e.toLowerCase() === ext) ? [base] : [base, ...pathExt.map((e) => base + e)];
  };
  if (p.isAbsolute(program) || program.includes('/') || (platform === 'win32' && program.includes('\\'))) return withExts(p.resolve(cwd, program));
  const dirs = (pathVar(env, 'PATH') ?? '').split(p.delimiter).filter((d) => d);
  return dirs.flatMap((dir) => withExts(p.join(dir, program)));
}

/** PATH is `Path` in a Windows environment copied into a plain object. */
function pathVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** What a candidate file is on this machine; injected so each platform's rule runs in the tests. */
export interface FileProbe {
  readonly isFile: (p: string) => boolean;
  readonly isExecutable: (p: string) => boolean;
}

const hostProbe: FileProbe = {
  isFile: (p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  },
  isExecutable: (p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
};

/** What `program` would run, by the same rule as a spawn (resolveCommand). */
export async function findOnPath(
  program: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  probe: FileProbe = hostProbe,
): Promise<string | null> {
  return resolveCommand(program, env, undefined, platform, probe) ?? null;
}

/**
 * The file `program` runs (synchronous: a spawn is synchronous), or undefined. Windows runs any file
 * PATHEXT names (there is no execute bit); POSIX needs the execute bit.
 */
export function resolveCommand(program: string, env: NodeJS.ProcessEnv, cwd: string | undefined, platform: NodeJS.Platform, probe: FileProbe = hostProbe): string | undefined {
  return pathCandidates(program, env, platform, cwd).find((c) => probe.isFile(c) && (platform === 'win32' || probe.isExecutable(c)));
}
