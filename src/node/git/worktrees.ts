/**
 * A chat's git worktree, every step done by git itself (`gitRun.ts`: no shell, no hooks, no push): made
 * with `git worktree add` from HEAD on a new branch (optionally carrying the user's uncommitted changes as
 * a first commit, which becomes the base the chat's changes are measured from), its diff against that
 * base, Apply of that diff to the user's checkout (checked first: on a conflict nothing is written and the
 * files are named), Commit on its branch, and Discard (worktree and branch removed).
 */
import { copyFile, mkdir, realpath } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { appliedFiles, applyConflicts, branchNameFor, listedWorktrees, parseNumstat, worktreeFolderName, type FileStat, BRANCH_PREFIX } from '../../common/worktrees/gitText';
import { samePath, pathStyle } from '../../common/pathBoundary';
import type { WorktreeInfo } from '../../common/worktrees/worktreeInfo';
import { git, type GitHost } from './gitRun';
import { nativePath } from './repoProbe';

/** Who our own bookkeeping commit (carried changes) is by: not the user, who did not write it as a commit. */
const CARRY_IDENTITY = { GIT_AUTHOR_NAME: 'ACP Chat', GIT_AUTHOR_EMAIL: 'acp-chat@localhost', GIT_COMMITTER_NAME: 'ACP Chat', GIT_COMMITTER_EMAIL: 'acp-chat@localhost' };

/** Options every diff we make shares: no external diff program or textconv (a repository's config could name one). */
const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=all', '--no-color', '--no-renames'];

export interface CreateWorktree {
  /** The repository's top folder (`probeRepo`'s `top`). */
  readonly repo: string;
  /** Where worktrees go: a folder in the extension's storage, never inside the workspace. */
  readonly parent: string;
  readonly chatId: string;
  /** Names the branch. */
  readonly title: string;
  /** Carry the checkout's uncommitted changes (staged, unstaged and untracked) over. */
  readonly carry: boolean;
  /** `repo`'s HEAD commit when the caller just probed it (probeRepo's `head`): one git process fewer. */
  readonly head?: string;
}

export async function createWorktree(host: GitHost, c: CreateWorktree): Promise<WorktreeInfo> {
  const head = c.head ?? (await git(host, ['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: c.repo })).stdout.trim();
  const refs = await git(host, ['for-each-ref', '--format=%(refname:short)', `refs/heads/${BRANCH_PREFIX}`], { cwd: c.repo });
  const taken = new Set(refs.stdout.split('\n').filter((l) => l !== ''));
  const branch = branchNameFor(c.title, (n) => taken.has(n));
  let dir = path.join(c.parent, worktreeFolderName(c.chatId));
  for (let n = 2; existsSync(dir); n++) dir = path.join(c.parent, `${worktreeFolderName(c.chatId)}-${n}`);
  await mkdir(c.parent, { recursive: true });
  await git(host, ['worktree', 'add', '-q', '-b', branch, dir, head], { cwd: c.repo });
  const carried = c.carry ? await carryChanges(host, c.repo, dir) : false;
  const base = carried ? (await git(host, ['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim() : head;
  return { repo: c.repo, path: dir, branch, base, carried };
}

/** Copies the checkout's uncommitted work into the new worktree and commits it there; false when there was none. */
async function carryChanges(host: GitHost, repo: string, dir: string): Promise<boolean> {
  const patch = (await git(host, ['diff', '--binary', ...DIFF_FLAGS, 'HEAD'], { cwd: repo })).stdout;
  if (patch !== '') await git(host, ['apply', '--binary', '--whitespace=nowarn', '-'], { cwd: dir, input: patch });
  const untracked = (await git(host, ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: repo })).stdout.split('\0').filter((f) => f !== '');
  for (const f of untracked) {
    await mkdir(path.dirname(path.join(dir, f)), { recursive: true });
    await copyFile(path.join(repo, f), path.join(dir, f));
  }
  if (patch === '' && untracked.length === 0) return false;
  await git(host, ['add', '-A'], { cwd: dir });
  await git(host, ['commit', '-q', '--no-verify', '--allow-empty', '-m', `Uncommitted changes carried over from ${repo}`], { cwd: dir, env: CARRY_IDENTITY });
  return true;
}

/** Stages everything in the worktree (its index is the chat's own), so new files are part of the diff. */
async function stageAll(host: GitHost, w: WorktreeInfo): Promise<void> {
  await git(host, ['add', '-A'], { cwd: w.path });
}

/** The files the chat changed against its base, with their line counts. */
export async function worktreeFiles(host: GitHost, w: WorktreeInfo): Promise<FileStat[]> {
  await stageAll(host, w);
  return parseNumstat((await git(host, ['diff', '--cached', '--numstat', '-z', ...DIFF_FLAGS, w.base], { cwd: w.path })).stdout);
}

/** The chat's whole change against its base as a patch (`--binary`, so binary files apply too). */
async function worktreePatch(host: GitHost, w: WorktreeInfo): Promise<string> {
  await stageAll(host, w);
  return (await git(host, ['diff', '--cached', '--binary', ...DIFF_FLAGS, w.base], { cwd: w.path })).stdout;
}

/** The worktree's current content as a tree object (in the shared object store), for diffs between chats. */
export async function worktreeTree(host: GitHost, w: WorktreeInfo): Promise<string> {
  await stageAll(host, w);
  return (await git(host, ['write-tree'], { cwd: w.path })).stdout.trim();
}

/** The diff between two trees or commits of one repository (two chats, or a chat and its base), as text. */
export async function diffTrees(host: GitHost, repo: string, a: string, b: string): Promise<string> {
  return (await git(host, ['diff', ...DIFF_FLAGS, a, b], { cwd: repo })).stdout;
}

/** A file's text at the base commit (null: it did not exist there). */
export async function baseText(host: GitHost, w: WorktreeInfo, file: string): Promise<string | null> {
  const r = await git(host, ['cat-file', 'blob', `${w.base}:${file.split(path.sep).join('/')}`], { cwd: w.path, ok: [128] });
  return r.code === 0 ? r.stdout : null;
}

export type ApplyResult =
  { readonly applied: true; readonly files: readonly string[] } | { readonly applied: false; readonly conflicts: readonly string[]; readonly message: string };

/**
 * Applies the chat's change to the user's working tree (not their index). `git apply` (without `--reject`)
 * checks every file's part before it writes any, so it is its own check: when one file does not take its
 * part, nothing is written and the files are named. One process, not a `--check` and then the same work again.
 */
export async function applyToCheckout(host: GitHost, w: WorktreeInfo, target: string = w.repo): Promise<ApplyResult> {
  const patch = await worktreePatch(host, w);
  if (patch === '') return { applied: true, files: [] };
  const r = await git(host, ['apply', '-v', '--binary', '--whitespace=nowarn', '-'], { cwd: target, input: patch, ok: [1, 128] });
  if (r.code !== 0) return { applied: false, conflicts: applyConflicts(r.stderr), message: r.stderr.trim() };
  return { applied: true, files: appliedFiles(r.stderr) };
}

/** Commits everything in the worktree on its branch (the user's git identity); null when there was nothing to commit. */
export async function commitWorktree(host: GitHost, w: WorktreeInfo, message: string): Promise<string | null> {
  await stageAll(host, w);
  const changed = await git(host, ['diff', '--cached', '--quiet', '--ignore-submodules=all'], { cwd: w.path, ok: [1] });
  if (changed.code === 0) return null;
  await git(host, ['commit', '-q', '--no-verify', '-m', message], { cwd: w.path });
  return (await git(host, ['rev-parse', 'HEAD'], { cwd: w.path })).stdout.trim();
}

/** What Discard loses: uncommitted files and the commits on the branch past its base. */
export async function whatDiscardLoses(host: GitHost, w: WorktreeInfo): Promise<{ files: FileStat[]; commits: number }> {
  const files = existsSync(w.path) ? await worktreeFiles(host, w) : [];
  const count = await git(host, ['rev-list', '--count', `${w.base}..refs/heads/${w.branch}`], { cwd: w.repo, ok: [128] });
  return { files, commits: count.code === 0 ? Number(count.stdout.trim()) || 0 : 0 };
}

/** Removes the worktree (also one already deleted from disk) and its branch. */
export async function discardWorktree(host: GitHost, w: WorktreeInfo): Promise<void> {
  if (existsSync(w.path)) await git(host, ['worktree', 'remove', '--force', '--force', w.path], { cwd: w.repo, ok: [128] });
  await git(host, ['worktree', 'prune'], { cwd: w.repo });
  await git(host, ['branch', '-D', '-q', w.branch], { cwd: w.repo, ok: [1] });
}

/** `ok`: usable; `missing`: removed from outside (folder gone, or git no longer lists it); `repo-missing`: the checkout is gone. */
export async function worktreeState(host: GitHost, w: WorktreeInfo): Promise<'ok' | 'missing' | 'repo-missing'> {
  if (!existsSync(w.repo)) return 'repo-missing';
  if (!existsSync(w.path)) return 'missing';
  const list = await git(host, ['worktree', 'list', '--porcelain'], { cwd: w.repo, ok: [128] });
  const style = pathStyle(host.platform);
  // git keeps the real path it was given; ours may go through a symlink (macOS's /tmp).
  const mine = [w.path, await realpath(w.path)];
  return listedWorktrees(list.stdout).some((p) => mine.some((m) => samePath(nativePath(host, p), m, style))) ? 'ok' : 'missing';
}
