/**
 * The one door to the real `git` for the worktree feature: argument arrays (never a shell), no terminal
 * prompts, messages in plain C locale (our parsers read them), and every command run with the repository's
 * hooks and fsmonitor switched off, so a repository's own code never runs because of us without the user's
 * consent. Nothing here pushes or fetches: the module has no remote command at all.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What a git command left behind. */
export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Git is not installed, or not on PATH (`spawn git ENOENT`). */
export class GitMissingError extends Error {
  constructor() {
    super('git was not found on PATH: worktree chats need git installed');
  }
}

/** A git command that failed; `stderr` is git's own words (shown to the user as text). */
class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(' ')} failed (${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
  }
}

export interface GitRunOptions {
  readonly cwd: string;
  /** Written to git's stdin (a patch for `git apply`). */
  readonly input?: string | Buffer;
  /** Extra environment (an index file, a committer): added to ours. */
  readonly env?: Readonly<Record<string, string>>;
  /** Exit codes that are answers, not failures (`diff --quiet` says 1 for "differs"). */
  readonly ok?: readonly number[];
}

/** How git runs on this platform; injected so the Windows flags are tested on Linux. */
export interface GitHost {
  readonly platform: NodeJS.Platform;
  /** The git executable (default `git`, looked up on PATH by the OS). */
  readonly git?: string;
  /** A file that exists (this process's executable): on Windows, hooks are pointed beneath it, where no folder can be. */
  readonly execPath: string;
}

export const hostGit: GitHost = { platform: process.platform, execPath: process.execPath };

/**
 * The `-c` flags every command gets: hooks point at a folder that cannot exist (so `commit`, `checkout` and
 * `worktree add` run none), fsmonitor off (a repository's config could name a program there), and on
 * Windows long paths on (worktrees live deep in the extension's storage).
 */
export function safetyFlags(host: GitHost): string[] {
  // A path beneath a file cannot be a folder, so no hook can be found there (Windows has no /dev/null).
  const hooks = host.platform === 'win32' ? `${host.execPath}\\no-hooks` : '/dev/null/no-hooks';
  return ['-c', `core.hooksPath=${hooks}`, '-c', 'core.fsmonitor=false', ...(host.platform === 'win32' ? ['-c', 'core.longpaths=true'] : [])];
}

/** Runs `git <args>`; rejects with GitMissingError or GitError, resolves with the output otherwise. */
export function git(host: GitHost, args: readonly string[], o: GitRunOptions): Promise<GitResult> {
  const full = [...safetyFlags(host), ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      host.git ?? 'git',
      full,
      {
        cwd: o.cwd,
        encoding: 'buffer',
        maxBuffer: 1024 * 1024 * 1024,
        windowsHide: true,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', LANGUAGE: 'C', ...o.env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          // Node says ENOENT both for a missing program and a missing working folder.
          return reject(existsSync(o.cwd) ? new GitMissingError() : new Error(`the folder ${o.cwd} does not exist`));
        }
        const result = { code, stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8') };
        if (code === 0 || o.ok?.includes(code)) resolve(result);
        else reject(new GitError(args, result));
      },
    );
    if (o.input !== undefined) child.stdin?.end(o.input);
    else child.stdin?.end();
  });
}
