/**
 * What kind of folder a chat would make a worktree from, asked of git itself: no git, not a repository, a
 * bare repository, no commit yet, or a repository with its HEAD (detached or not), whether it has changes
 * (staged or not) and its submodules. Each case gets a sentence the user reads.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RepoProbe } from '../../common/worktrees/worktreeInfo';
import { git, GitMissingError, type GitHost } from './gitRun';

/** A path as git printed it (`C:/x` on Windows), in the platform's own spelling. */
export function nativePath(host: GitHost, p: string): string {
  return host.platform === 'win32' ? path.win32.normalize(p) : path.posix.normalize(p);
}

export async function probeRepo(host: GitHost, dir: string): Promise<RepoProbe> {
  let bare: string;
  try {
    const r = await git(host, ['rev-parse', '--is-bare-repository'], { cwd: dir, ok: [128] });
    if (r.code !== 0) return { kind: 'not-repo', message: `${dir} is not in a git repository: a worktree chat needs one.` };
    bare = r.stdout.trim();
  } catch (e) {
    if (e instanceof GitMissingError) return { kind: 'no-git', message: e.message };
    throw e;
  }
  if (bare === 'true') return { kind: 'bare', message: `${dir} is a bare repository (no checkout): a worktree chat needs a checkout to work from.` };
  const top = await git(host, ['rev-parse', '--show-toplevel'], { cwd: dir, ok: [128] });
  if (top.code !== 0 || top.stdout.trim() === '') return { kind: 'not-repo', message: `${dir} is inside a repository's git folder, not its checkout.` };
  const head = (await git(host, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd: dir, ok: [1, 128] })).stdout.trim();
  if (head === '') return { kind: 'no-commit', message: 'The repository has no commit yet: a worktree starts from a commit, so commit once first.' };
  const branch = (await git(host, ['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: dir, ok: [1] })).stdout.trim() || null;
  const status = (await git(host, ['status', '--porcelain=v1', '-z', '--ignore-submodules=all', '--untracked-files=normal'], { cwd: dir })).stdout;
  const entries = status.split('\0').filter((e) => e.length >= 3);
  const repoTop = nativePath(host, top.stdout.trim());
  return {
    kind: 'repo',
    top: repoTop,
    head,
    branch,
    dirtyIndex: entries.some((e) => e[0] !== ' ' && e[0] !== '?'),
    dirty: entries.length > 0,
    submodules: await submodulePaths(host, repoTop),
  };
}

async function submodulePaths(host: GitHost, top: string): Promise<string[]> {
  if (!existsSync(path.join(top, '.gitmodules'))) return [];
  const r = await git(host, ['config', '-f', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'], { cwd: top, ok: [1] });
  return r.stdout
    .split('\n')
    .map((l) => l.slice(l.indexOf(' ') + 1).trim())
    .filter((l) => l !== '');
}
