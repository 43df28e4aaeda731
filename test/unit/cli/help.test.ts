import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli';

const run = (...args: string[]) => runCli(args);

test('--help lists reduce and run and exits 0; no command is a usage error', () => {
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^\s+reduce \[--state FILE\] CAPTURE\.jsonl/m);
  assert.match(help.stdout, /^\s+run \[--cwd DIR\]/m);
  assert.equal(run().status, 2);
  const unknown = run('frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  assert.equal(run('reduce', '--help').status, 0);
});
