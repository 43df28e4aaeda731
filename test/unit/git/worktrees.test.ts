// The worktree module against real temporary repositories: every case git can put a user in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeRepo, sh, tempDir, write } from '../helpers/gitRepo';
import { hostGit, git, GitMissingError, safetyFlags } from '../../../src/node/git/gitRun';
import { probeRepo } from '../../../src/node/git/repoProbe';
import {
  applyToCheckout,
  baseText,
  commitWorktree,
  createWorktree,
  diffTrees,
  discardWorktree,
  whatDiscardLoses,
  worktreeFiles,
  worktreeState,
  worktreeTree,
} from '../../../src/node/git/worktrees';
import { probeNotes } from '../../../src/common/worktrees/worktreeInfo';

const host = hostGit;
const storage = () => tempDir('wt-storage-');

test('probe: not a repository, a bare one, one with no commit, and no git at all', async () => {
  const plain = tempDir('wt-plain-');
  assert.equal((await probeRepo(host, plain)).kind, 'not-repo');
  const bare = tempDir('wt-bare-');
  sh(bare, 'init', '-q', '--bare');
  const b = await probeRepo(host, bare);
  assert.equal(b.kind, 'bare');
  assert.match(b.message, /bare repository/);
  const empty = tempDir('wt-empty-');
  sh(empty, 'init', '-q');
  assert.equal((await probeRepo(host, empty)).kind, 'no-commit');
  const none = await probeRepo({ ...host, git: path.join(plain, 'no-such-git') }, plain);
  assert.equal(none.kind, 'no-git');
  await assert.rejects(git({ ...host, git: path.join(plain, 'no-such-git') }, ['status'], { cwd: plain }), GitMissingError);
});

test('probe: branch, detached HEAD, staged and untracked changes, submodules, from a subfolder', async () => {
  const repo = makeRepo({ 'a.txt': 'one\n', 'sub/b.txt': 'two\n' });
  let p = await probeRepo(host, path.join(repo, 'sub'));
  assert.equal(p.kind, 'repo');
  if (p.kind !== 'repo') return;
  assert.equal(p.top, repo);
  assert.equal(p.branch, 'main');
  assert.equal(p.dirty, false);
  sh(repo, 'checkout', '-q', '--detach');
  write(repo, { 'a.txt': 'changed\n', 'new.txt': 'new\n' });
  sh(repo, 'add', 'a.txt');
  writeFileSync(path.join(repo, '.gitmodules'), '[submodule "lib"]\n\tpath = vendor/lib\n\turl = ../lib\n');
  p = await probeRepo(host, repo);
  assert.equal(p.kind, 'repo');
  if (p.kind !== 'repo') return;
  assert.equal(p.branch, null);
  assert.equal(p.dirtyIndex, true);
  assert.equal(p.dirty, true);
  assert.deepEqual(p.submodules, ['vendor/lib']);
  const notes = probeNotes(p).join(' ');
  assert.match(notes, /detached/);
  assert.match(notes, /Staged changes/);
  assert.match(notes, /vendor\/lib/);
});

test('a worktree from HEAD on a branch named after the chat, outside the checkout; its diff, commit and discard', async () => {
  const repo = makeRepo({ 'a.txt': 'one\ntwo\n', 'keep.txt': 'keep\n' });
  const parent = storage();
  const w = await createWorktree(host, { repo, parent, chatId: 'chat-1', title: 'Fix the Login bug!', carry: false });
  assert.equal(w.branch, 'acp/fix-the-login-bug');
  assert.ok(w.path.startsWith(parent));
  assert.equal(w.base, sh(repo, 'rev-parse', 'HEAD').trim());
  assert.equal(readFileSync(path.join(w.path, 'a.txt'), 'utf8'), 'one\ntwo\n');
  assert.equal(await worktreeState(host, w), 'ok');
  // A second chat of the same title gets its own branch and folder.
  const w2 = await createWorktree(host, { repo, parent, chatId: 'chat-1', title: 'Fix the Login bug!', carry: false });
  assert.equal(w2.branch, 'acp/fix-the-login-bug-2');
  assert.notEqual(w2.path, w.path);

  write(w.path, { 'a.txt': 'one\nTWO\nthree\n', 'dir/new.txt': 'n\n' });
  rmSync(path.join(w.path, 'keep.txt'));
  const files = await worktreeFiles(host, w);
  assert.deepEqual(
    files.map((f) => [f.path, f.added, f.removed]),
    [
      ['a.txt', 2, 1],
      ['dir/new.txt', 1, 0],
      ['keep.txt', 0, 1],
    ],
  );
  // The user's checkout is untouched by the chat's work.
  assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'one\ntwo\n');
  assert.equal(await baseText(host, w, 'a.txt'), 'one\ntwo\n');
  assert.equal(await baseText(host, w, 'dir/new.txt'), null);

  // Diff between two chats' worktrees, and against the base.
  write(w2.path, { 'a.txt': 'one\nzwei\n' });
  const between = await diffTrees(host, repo, await worktreeTree(host, w), await worktreeTree(host, w2));
  assert.match(between, /-TWO/);
  assert.match(between, /\+zwei/);

  const sha = await commitWorktree(host, w, 'the chat’s work');
  assert.match(sha ?? '', /^[0-9a-f]{40}$/);
  assert.equal(sh(repo, 'log', '-1', '--format=%s', w.branch).trim(), 'the chat’s work');
  assert.equal(await commitWorktree(host, w, 'again'), null);
  // Changes still measure from the base after a commit.
  assert.equal((await worktreeFiles(host, w)).length, 3);
  assert.deepEqual(await whatDiscardLoses(host, w), { files: await worktreeFiles(host, w), commits: 1 });

  await discardWorktree(host, w);
  assert.equal(existsSync(w.path), false);
  assert.equal(sh(repo, 'branch', '--list', w.branch).trim(), '');
  assert.equal(sh(repo, 'status', '--porcelain').trim(), '');
});

test('Apply: the change lands in the working tree (not the index); a conflict writes nothing and names the files', async () => {
  const repo = makeRepo({ 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  const w = await createWorktree(host, { repo, parent: storage(), chatId: 'c2', title: 'apply', carry: false });
  write(w.path, { 'a.txt': 'one\nTWO\n', 'b.txt': 'B\n', 'fresh.txt': 'fresh\n' });
  writeFileSync(path.join(w.path, 'bin.dat'), Buffer.from([0, 1, 2, 255]));

  // The user edited b.txt meanwhile and made a fresh.txt of their own: both named, nothing written.
  write(repo, { 'b.txt': 'mine\n', 'fresh.txt': 'mine\n' });
  const refused = await applyToCheckout(host, w);
  assert.equal(refused.applied, false);
  if (refused.applied) return;
  assert.deepEqual([...refused.conflicts].sort(), ['b.txt', 'fresh.txt']);
  assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'one\ntwo\n');
  assert.equal(existsSync(path.join(repo, 'bin.dat')), false);

  write(repo, { 'b.txt': 'b\n' });
  rmSync(path.join(repo, 'fresh.txt'));
  const done = await applyToCheckout(host, w);
  assert.equal(done.applied, true);
  if (!done.applied) return;
  assert.deepEqual([...done.files].sort(), ['a.txt', 'b.txt', 'bin.dat', 'fresh.txt']);
  assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'one\nTWO\n');
  assert.deepEqual([...readFileSync(path.join(repo, 'bin.dat'))], [0, 1, 2, 255]);
  assert.equal(sh(repo, 'diff', '--cached', '--name-only').trim(), '', 'the user’s index is not touched');
});

test('carrying uncommitted changes: staged, unstaged and untracked arrive; the base is their commit, so Apply adds only the chat’s work', async () => {
  const repo = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
  write(repo, { 'a.txt': 'one\nmine\n', 'b.txt': 'b staged\n', 'untracked.txt': 'u\n' });
  sh(repo, 'add', 'b.txt');
  const w = await createWorktree(host, { repo, parent: storage(), chatId: 'c3', title: 'carry', carry: true });
  assert.equal(w.carried, true);
  assert.notEqual(w.base, sh(repo, 'rev-parse', 'HEAD').trim());
  assert.equal(readFileSync(path.join(w.path, 'a.txt'), 'utf8'), 'one\nmine\n');
  assert.equal(readFileSync(path.join(w.path, 'b.txt'), 'utf8'), 'b staged\n');
  assert.equal(readFileSync(path.join(w.path, 'untracked.txt'), 'utf8'), 'u\n');
  assert.deepEqual(await worktreeFiles(host, w), []);
  write(w.path, { 'a.txt': 'one\nmine\nagent\n' });
  const r = await applyToCheckout(host, w);
  assert.equal(r.applied, true);
  assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'one\nmine\nagent\n');
  // Without carrying, the worktree is HEAD alone.
  const clean = await createWorktree(host, { repo, parent: storage(), chatId: 'c4', title: 'clean', carry: false });
  assert.equal(clean.carried, false);
  assert.equal(readFileSync(path.join(clean.path, 'a.txt'), 'utf8'), 'one\n');
  assert.equal(existsSync(path.join(clean.path, 'untracked.txt')), false);
});

test('a worktree removed from outside is reported missing (not recreated), and Discard still cleans up the branch', async () => {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  const w = await createWorktree(host, { repo, parent: storage(), chatId: 'c5', title: 'gone', carry: false });
  rmSync(w.path, { recursive: true, force: true });
  assert.equal(await worktreeState(host, w), 'missing');
  assert.equal(existsSync(w.path), false);
  const w2 = await createWorktree(host, { repo, parent: storage(), chatId: 'c6', title: 'removed by git', carry: false });
  sh(repo, 'worktree', 'remove', '--force', w2.path);
  assert.equal(await worktreeState(host, w2), 'missing');
  await discardWorktree(host, w);
  assert.equal(sh(repo, 'branch', '--list', w.branch).trim(), '');
  assert.equal(await worktreeState(host, { ...w, repo: path.join(repo, 'nope') }), 'repo-missing');
});

test('the repository’s hooks never run for our commands (commit, worktree add), and the safety flags are there', async () => {
  const repo = makeRepo({ 'a.txt': 'a\n' });
  const marker = path.join(tempDir('wt-hook-'), 'ran');
  for (const hook of ['pre-commit', 'post-commit', 'post-checkout', 'commit-msg']) {
    const file = path.join(repo, '.git', 'hooks', hook);
    writeFileSync(file, `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
    chmodSync(file, 0o755);
  }
  sh(repo, 'config', 'core.hooksPath', path.join(repo, '.git', 'hooks'));
  write(repo, { 'a.txt': 'changed\n' });
  const w = await createWorktree(host, { repo, parent: storage(), chatId: 'c7', title: 'hooks', carry: true });
  write(w.path, { 'b.txt': 'b\n' });
  await commitWorktree(host, w, 'no hooks');
  assert.equal(existsSync(marker), false, 'a hook ran');
  // The same hooks do run for a plain git commit (the test would catch nothing otherwise).
  sh(repo, 'commit', '-qam', 'plain');
  assert.equal(existsSync(marker), true);
  assert.deepEqual(safetyFlags({ platform: 'win32', execPath: 'C:\\node\\node.exe' }), [
    '-c',
    'core.hooksPath=C:\\node\\node.exe\\no-hooks',
    '-c',
    'core.fsmonitor=false',
    '-c',
    'core.longpaths=true',
  ]);
});
