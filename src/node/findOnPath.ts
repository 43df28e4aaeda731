/** Whether a program can be started by name: an absolute path that exists, or a name found on PATH. */
import { access, constants } from 'node:fs/promises';
import path from 'node:path';

export async function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const executable = async (p: string) => access(p, platform === 'win32' ? constants.F_OK : constants.X_OK).then(() => true, () => false);
  if (path.isAbsolute(program) || program.includes('/') || (platform === 'win32' && program.includes('\\'))) return (await executable(program)) ? program : null;
  // Windows finds `npx` as npx.cmd through PATHEXT.
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e)] : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, program + ext);
      if (await executable(candidate)) return candidate;
    }
  }
  return null;
}
