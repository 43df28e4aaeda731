// Worktree chats against the same git commands alone, interleaved in one run (the order alternates each round).
//   worktrees.createOverGit — probing the repository and making a chat's worktree (probeRepo +
//                             createWorktree) / `git worktree add -b` alone, on a repository of 50,000 files
//   worktrees.applyOverGit  — Apply of a 500-file change (applyToCheckout) / the same git commands alone:
//                             `git add -A` in the worktree, `git diff --cached --binary BASE` piped to `git apply`
// BENCH_SHORT=1: 2,000 files and a 50-file change, two rounds (to check that it runs; the figures need the full run).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hostGit } from '../src/node/git/gitRun';
import { probeRepo } from '../src/node/git/repoProbe';
import { applyToCheckout, createWorktree } from '../src/node/git/worktrees';
import { interleavedRounds, median, ratioFigure } from './lib/rounds';

const short = process.env.BENCH_SHORT === '1';
const FILES = short ? 2_000 : 50_000;
const CHANGED = short ? 50 : 500;
const ROUNDS = short ? 2 : 5;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
Object.assign(process.env, env);
const git = (cwd: string, args: string[], input?: string) => execFileSync('git', args, { cwd, env, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
async function time(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wt-bench-')));
  const repo = path.join(root, 'repo');
  const parent = path.join(root, 'worktrees');
  mkdirSync(repo);
  git(repo, ['init', '-q', '-b', 'main']);
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(repo, `d${i % 100}`);
    if (i < 100) mkdirSync(dir);
    writeFileSync(path.join(dir, `f${i}.txt`), `file ${i}\nline two\nline three\n`);
  }
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'files']);

  let n = 0;
  const create = await interleavedRounds(ROUNDS, {
    ours: () =>
      time(async () => {
        const p = await probeRepo(hostGit, repo);
        if (p.kind !== 'repo') throw new Error(p.message);
        await createWorktree(hostGit, { repo: p.top, head: p.head, parent, chatId: `c${n++}`, title: `bench ${n}`, carry: false });
      }),
    alone: () => time(() => git(repo, ['worktree', 'add', '-q', '-b', `plain-${n++}`, path.join(parent, `p${n}`), 'HEAD'])),
  });

  // One worktree with a CHANGED-file change (edits, and every tenth a new file), applied again and again to a clean checkout.
  const w = await createWorktree(hostGit, { repo, parent, chatId: 'apply', title: 'apply', carry: false });
  for (let i = 0; i < CHANGED; i++) {
    const file = i % 10 === 9 ? path.join(w.path, `new${i}.txt`) : path.join(w.path, `d${i % 100}`, `f${i}.txt`);
    writeFileSync(file, `file ${i}\nline two changed\nline three\nand a fourth\n`);
  }
  // Each step starts from a clean checkout (the reset is not timed).
  const reset = () => {
    git(repo, ['checkout', '-q', '--', '.']);
    git(repo, ['clean', '-qfd']);
  };
  const apply = await interleavedRounds(ROUNDS, {
    ours: () => (
      reset(),
      time(async () => {
        const done = await applyToCheckout(hostGit, w);
        if (!done.applied || done.files.length !== CHANGED) throw new Error(`applied ${JSON.stringify(done).slice(0, 300)}`);
      })
    ),
    alone: () => (
      reset(),
      time(() => {
        git(w.path, ['add', '-A']);
        git(repo, ['apply', '--binary', '-'], git(w.path, ['diff', '--cached', '--binary', w.base]));
      })
    ),
  });
  reset();
  rmSync(root, { recursive: true, force: true });
  console.log(
    `worktree for ${FILES} files: ours ${median(create.ours).toFixed(0)} ms vs git worktree add ${median(create.alone).toFixed(0)} ms; apply of ${CHANGED} files: ours ${median(apply.ours).toFixed(0)} ms vs the git commands ${median(apply.alone).toFixed(0)} ms`,
  );
  // Issue 43's goals: each within 1.5x the same git commands alone.
  console.log(
    JSON.stringify({
      ...ratioFigure('worktrees.createOverGit', create.ours, create.alone),
      'worktrees.createOverGit.goal': '<= 1.5',
      ...ratioFigure('worktrees.applyOverGit', apply.ours, apply.alone),
      'worktrees.applyOverGit.goal': '<= 1.5',
    }),
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
