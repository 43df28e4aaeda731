// `run --worktrees` headless: two demo agents (one editing through fs/write_text_file, one on disk itself)
// in worktrees of one real repository, a comparison table, and the user's checkout untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { makeRepo, tempDir } from '../helpers/gitRepo';
import { parseRunArgs, run } from '../../../src/node/cli/run';
import { answerFromTranscript, runWorktrees, splitAgents } from '../../../src/node/cli/runWorktrees';

const root = path.resolve(__dirname, '../../..');

test('arguments: each further -- starts another agent; 1 to 6 of them; --worktree-dir needs --worktrees', () => {
  assert.deepEqual(splitAgents(['a', '-x', '--', 'b', '--', 'c']), [['a', '-x'], ['b'], ['c']]);
  const o = parseRunArgs(['--worktrees', '--prompt', 'hi', '--', 'node', 'a.js', '--', 'node', 'b.js'], '/w');
  assert.ok(typeof o !== 'string');
  assert.deepEqual(o.worktrees?.agents, [
    ['node', 'a.js'],
    ['node', 'b.js'],
  ]);
  assert.match(String(parseRunArgs(['--worktrees', '--prompt', 'hi', '--', 'a', '--'], '/w')), /1 to 6/);
  assert.match(String(parseRunArgs(['--worktree-dir', 'x', '--prompt', 'hi', '--', 'a'], '/w')), /needs --worktrees/);
  assert.equal(answerFromTranscript('[user] q\nThe answer\n[stop] end_turn\n'), 'The answer');
});

test('two demo agents, each in its own worktree, compared in a table; the checkout is untouched', async () => {
  const repo = makeRepo({ 'demo-edit.txt': 'shared\n', 'README.md': '# r\n' });
  const demoJs = path.join(tempDir('wt-demo-'), 'demo-agent.js');
  await build({
    entryPoints: [path.join(root, 'src/node/demoAgent/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: demoJs,
    logLevel: 'error',
  });
  const dir = tempDir('wt-runs-');
  const o = parseRunArgs(
    [
      '--worktrees',
      '--worktree-dir',
      dir,
      '--cwd',
      repo,
      '--grace',
      '0',
      '--timeout',
      '60',
      '--prompt',
      'please edit, and change it yourself',
      '--',
      process.execPath,
      demoJs,
      '--',
      process.execPath,
      demoJs,
    ],
    root,
  );
  assert.ok(typeof o !== 'string', String(o));
  let out = '';
  let errText = '';
  const code = await runWorktrees(
    o,
    (s) => (out += s),
    (s) => (errText += s),
    run,
  );
  assert.equal(code, 0, out + errText);
  const table = out.slice(out.lastIndexOf('#  agent'));
  assert.match(table, /^#\s+agent\s+state\s+time\s+files/m);
  const rows = table.split('\n').filter((l) => /^[12] /.test(l));
  assert.equal(rows.length, 2, table);
  for (const r of rows) assert.match(r, /node demo-agent\.js\s+done\s+\S+\s+2\s+\d+\s+\d+/);
  assert.equal(readFileSync(path.join(repo, 'demo-edit.txt'), 'utf8'), 'shared\n', 'the checkout is untouched');
  assert.equal(existsSync(path.join(repo, 'demo-self.txt')), false);
  const wts = [...out.matchAll(/worktree (\S+), branch (acp\/run-\S+)\)/g)].map((m) => m[1]!);
  assert.equal(wts.length, 2);
  for (const w of wts) assert.match(readFileSync(path.join(w, 'demo-edit.txt'), 'utf8'), /Edited by the ACP Chat demo agent/);
});
