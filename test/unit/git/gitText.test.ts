import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appliedFiles, applyConflicts, branchNameFor, listedWorktrees, parseNumstat, worktreeFolderName } from '../../../src/common/worktrees/gitText';
import { zWorktreeInfo } from '../../../src/common/worktrees/worktreeInfo';

test('branch names from chat titles meet git’s rules and never collide', () => {
  const none = () => false;
  assert.equal(branchNameFor('Fix the Login bug!', none), 'acp/fix-the-login-bug');
  assert.equal(branchNameFor('../../.git/HEAD.lock', none), 'acp/git-head-lock');
  assert.equal(branchNameFor('—', none), 'acp/chat');
  assert.equal(branchNameFor('Café déjà vu', none), 'acp/cafe-deja-vu');
  assert.equal(branchNameFor('x'.repeat(100), none).length, 'acp/'.length + 40);
  const taken = new Set(['acp/chat', 'acp/chat-2']);
  assert.equal(
    branchNameFor('', (n) => taken.has(n)),
    'acp/chat-3',
  );
});

test('worktree folder names are short and plain (Windows paths)', () => {
  assert.equal(worktreeFolderName('a1b2-c3'), 'a1b2-c3');
  assert.equal(worktreeFolderName('..\\..\\x:y'), 'xy');
  assert.equal(worktreeFolderName('/'), 'chat');
  assert.equal(worktreeFolderName('z'.repeat(80)).length, 24);
});

test('numstat -z: plain, binary and renamed files', () => {
  const out = '2\t1\ta.txt\0-\t-\tbin.dat\0' + '0\t0\t\0old name.txt\0new name.txt\0' + '1\t0\tdir/tab\there.txt\0';
  assert.deepEqual(parseNumstat(out), [
    { path: 'a.txt', added: 2, removed: 1 },
    { path: 'bin.dat', added: null, removed: null },
    { path: 'new name.txt', from: 'old name.txt', added: 0, removed: 0 },
    { path: 'dir/tab\there.txt', added: 1, removed: 0 },
  ]);
  assert.deepEqual(parseNumstat(''), []);
});

test('the files a failed git apply --check names', () => {
  const stderr = [
    'error: patch failed: src/a.ts:12',
    'error: src/a.ts: patch does not apply',
    'error: new.txt: already exists in working directory',
    'error: gone.txt: No such file or directory',
    'warning: something else',
  ].join('\n');
  assert.deepEqual(applyConflicts(stderr), ['src/a.ts', 'new.txt', 'gone.txt']);
});

test('worktree list --porcelain, and the saved record is checked', () => {
  assert.deepEqual(listedWorktrees('worktree /r\nHEAD abc\nbranch refs/heads/main\n\nworktree C:/s/wt/x\nHEAD def\ndetached\n'), ['/r', 'C:/s/wt/x']);
  const ok = { repo: '/r', path: '/s/x', branch: 'acp/x', base: 'a'.repeat(40), carried: true };
  assert.equal(zWorktreeInfo.safeParse(ok).success, true);
  assert.equal(zWorktreeInfo.safeParse({ ...ok, base: 'HEAD; rm -rf /' }).success, false);
});

test('the files git apply -v applied, quoted names unquoted', () => {
  const stderr = 'Checking patch a.txt...\nApplied patch a.txt cleanly.\nApplied patch "caf\\303\\251 \\"x\\".txt" cleanly.\n';
  assert.deepEqual(appliedFiles(stderr), ['a.txt', 'café "x".txt']);
});

test('what Discard loses is named: folder, branch, commits and files', async () => {
  const { lossText, fileLines } = await import('../../../src/common/worktrees/worktreeText');
  const info = { repo: '/r', path: '/s/wt/x', branch: 'acp/x', base: 'a'.repeat(40), carried: false };
  const text = lossText(info, {
    files: [
      { path: 'a.txt', added: 2, removed: 1 },
      { path: 'b.bin', added: null, removed: null },
    ],
    commits: 1,
  });
  assert.match(text, /\/s\/wt\/x and the branch acp\/x/);
  assert.match(text, /1 commit on the branch is lost/);
  assert.match(text, /a\.txt \(\+2 −1\)/);
  assert.match(text, /b\.bin \(binary\)/);
  assert.match(lossText(info, { files: [], commits: 0 }), /holds no changes/);
  assert.equal(fileLines([{ path: 'n', from: 'o', added: 0, removed: 0 }])[0]!.label, 'o → n');
});
