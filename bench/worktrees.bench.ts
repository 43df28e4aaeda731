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

const short = process.env.BENCH_SHORT === '1';
const FILES = short ? 2_000 : 50_000;
const CHANGED = short ? 50 : 500;
const ROUNDS = short ? 2 : 5;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
Object.assign(process.env, env);
const git = (cwd: string, args: string[], input?: string) => execFileSync('git', args, { cwd, env, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** Runs `a` and `b` once each per round, alternating which goes first; their times in two lists. */
async function interleaved(a: () => Promise<unknown>, b: () => Promise<unknown>, before: () => void = () => undefined): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const which of r % 2 === 0 ? [0, 1] : [1, 0]) {
      before();
      if (which === 0) ta.push(await time(a));
      else tb.push(await time(b));
    }
  }
  return [ta, tb];
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
  const [ours, alone] = await interleaved(
    async () => {
      const p = await probeRepo(hostGit, repo);
      if (p.kind !== 'repo') throw new Error(p.message);
      await createWorktree(hostGit, { repo: p.top, parent, chatId: `c${n++}`, title: `bench ${n}`, carry: false });
    },
    async () => git(repo, ['worktree', 'add', '-q', '-b', `plain-${n++}`, path.join(parent, `p${n}`), 'HEAD']),
  );

  // One worktree with a CHANGED-file change (edits, and every tenth a new file), applied again and again to a clean checkout.
  const w = await createWorktree(hostGit, { repo, parent, chatId: 'apply', title: 'apply', carry: false });
  for (let i = 0; i < CHANGED; i++) {
    const file = i % 10 === 9 ? path.join(w.path, `new${i}.txt`) : path.join(w.path, `d${i % 100}`, `f${i}.txt`);
    writeFileSync(file, `file ${i}\nline two changed\nline three\nand a fourth\n`);
  }
  const [applyOurs, applyAlone] = await interleaved(
    async () => {
      const done = await applyToCheckout(hostGit, w);
      if (!done.applied || done.files.length !== CHANGED) throw new Error(`applied ${JSON.stringify(done).slice(0, 300)}`);
    },
    async () => {
      git(w.path, ['add', '-A']);
      git(repo, ['apply', '--binary', '-'], git(w.path, ['diff', '--cached', '--binary', w.base]));
    },
    () => {
      git(repo, ['checkout', '-q', '--', '.']);
      git(repo, ['clean', '-qfd']);
    },
  );
  rmSync(root, { recursive: true, force: true });
  console.log(`worktree for ${FILES} files: ours ${median(ours).toFixed(0)} ms vs git worktree add ${median(alone).toFixed(0)} ms; apply of ${CHANGED} files: ours ${median(applyOurs).toFixed(0)} ms vs the git commands ${median(applyAlone).toFixed(0)} ms`);
  console.log(JSON.stringify({ 'worktrees.createOverGit': +(median(ours) / median(alone)).toFixed(2), 'worktrees.applyOverGit': +(median(applyOurs) / median(applyAlone)).toFixed(2) }));
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
