/**
 * How an agent's or a terminal's command is started, decided in one place for every platform.
 *
 * POSIX runs the command as given (PATH lookup is the kernel's `execvp`). Windows needs more: Node does
 * not resolve `PATHEXT` for `spawn`, and refuses `.cmd`/`.bat` files without a shell, yet `npx`, `uvx`,
 * `gemini` and most agents installed by npm are `.cmd` shims. So a bare name is resolved the way cmd.exe
 * would (PATH x PATHEXT); an `.exe`/`.com` runs directly (Node quotes its arguments); anything else runs
 * through `cmd.exe /d /s /c` with every argument quoted and caret-escaped by cross-spawn's quoting, escaped
 * twice because a batch file's `%*` parses its arguments again. No argument is ever interpreted by cmd.exe.
 * Console windows are always hidden.
 *
 * Pure: the platform and the PATH lookup are injected, so every platform's plan is unit-tested here.
 */
import path from 'node:path';
import { argument as quoteArgument } from 'cross-spawn/lib/util/escape';

export type SpawnPlatform = 'win32' | 'darwin' | 'linux';

export interface SpawnRequest {
  readonly command: string;
  readonly args: readonly string[];
  /** `command` is a whole command line for the platform's shell (an agent's `terminal/create` without args). */
  readonly shellLine?: boolean;
}

export interface SpawnHost {
  readonly platform: SpawnPlatform;
  /** The file a command name runs (PATH, and PATHEXT on Windows), or undefined when there is none. */
  readonly resolve: (command: string) => string | undefined;
  /** cmd.exe's path on Windows (`%ComSpec%`). */
  readonly comspec?: string;
}

export interface SpawnPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** The arguments are already quoted for cmd.exe: Node must pass them on as they are. */
  readonly windowsVerbatimArguments: boolean;
  readonly windowsHide: true;
  /** How it runs, for logs and tests. */
  readonly via: 'direct' | 'cmd' | 'shell';
}

/** Thrown for an argument no quoting can carry through cmd.exe unchanged. */
export class UnsafeArgumentError extends Error {}

const DIRECT_ON_WINDOWS = /\.(?:exe|com)$/i;
/** cmd.exe ends a command line at these; they cannot be quoted. */
const UNQUOTABLE = /[\r\n\0]/;

export function planSpawn(req: SpawnRequest, ctx: SpawnHost): SpawnPlan {
  const win = ctx.platform === 'win32';
  const comspec = ctx.comspec ?? 'cmd.exe';
  if (req.shellLine) {
    // The agent sent a command line on purpose: the platform's shell interprets it, as a terminal would.
    return win
      ? { file: comspec, args: ['/d', '/s', '/c', `"${req.command}"`], windowsVerbatimArguments: true, windowsHide: true, via: 'shell' }
      : { file: '/bin/sh', args: ['-c', req.command], windowsVerbatimArguments: false, windowsHide: true, via: 'shell' };
  }
  if (!win) return { file: req.command, args: [...req.args], windowsVerbatimArguments: false, windowsHide: true, via: 'direct' };
  const file = ctx.resolve(req.command);
  // Not found: started as given, so the error is Node's plain ENOENT ("command not found"), not cmd's text.
  if (file === undefined || DIRECT_ON_WINDOWS.test(file)) {
    return { file: file ?? req.command, args: [...req.args], windowsVerbatimArguments: false, windowsHide: true, via: 'direct' };
  }
  const bad = req.args.find((a) => UNQUOTABLE.test(a));
  if (bad !== undefined)
    throw new UnsafeArgumentError(`cannot pass an argument with a line break or NUL to ${path.win32.basename(file)} on Windows: ${JSON.stringify(bad.slice(0, 80))}`);
  // The program in plain quotes (a Windows path holds no `"`), as cmd.exe's own completion writes it.
  const line = [`"${path.win32.normalize(file)}"`, ...req.args.map((a) => quoteArgument(a, true))].join(' ');
  return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true, windowsHide: true, via: 'cmd' };
}
