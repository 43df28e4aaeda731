/** --capture and --state against what a file system can hold: directories, deep values, newer, unreadable, shared. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunArgs, run } from '../../../src/node/cli/run';
import { loadState } from '../../../src/node/cli/stateFile';
import { runCli } from '../helpers/cli';

const dir = mkdtempSync(path.join(tmpdir(), 'cli-state-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli(args);

const chunk = JSON.stringify({
  dir: 'agent->client',
  msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } },
});
const capture = path.join(dir, 'c.jsonl');
writeFileSync(capture, chunk + '\n');

describe('CLI state and capture files', () => {
  it('--capture naming a directory is a clear error, no stack trace', async () => {
    const target = path.join(dir, 'a-dir');
    mkdirSync(target);
    const parsed = parseRunArgs(['--cwd', dir, '--capture', target, '--prompt', 'go', '--', process.execPath, '-e', '']);
    assert.ok(typeof parsed !== 'string');
    let err = '';
    const code = await run(
      { ...parsed, graceMs: 0 },
      () => undefined,
      (s) => (err += s),
    );
    assert.equal(code, 2);
    assert.match(err, /the capture file .*a-dir is a directory: name a file to write/);
    assert.doesNotMatch(err, /\n\s+at /);
  });

  it('reduce and check of a capture with a 100,000-deep value: a clear error, not a stack overflow, not clean', () => {
    const deep = path.join(dir, 'deep.jsonl');
    writeFileSync(deep, chunk.replace('"text":"x"}', `"text":"x","deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) + '\n');
    const reduced = cli('reduce', deep);
    assert.doesNotMatch(reduced.stderr, /RangeError|\n\s+at /);
    assert.match(reduced.stdout, /nests deeper than 256 levels/);
    const checked = cli('check', deep);
    assert.equal(checked.status, 2);
    assert.match(checked.stderr, /line\(s\) 1 nest deeper than 256 levels and cannot be checked/);
    assert.doesNotMatch(checked.stdout, /0 errors/);
  });

  it('a state file from a newer version is refused and left untouched', () => {
    const state = path.join(dir, 'newer.json');
    const text = JSON.stringify({ format: 'acp-chat-store', version: 99, sessions: [] });
    writeFileSync(state, text);
    const r = cli('reduce', '--state', state, capture);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is from a newer version \(format 99; this one reads 1\): it is left as it is/);
    assert.equal(readFileSync(state, 'utf8'), text);
    assert.equal(existsSync(`${state}.lock`), false);
  });

  it('a state file with an unreadable part is kept beside before it is rewritten, and the user is told', () => {
    const state = path.join(dir, 'partly.json');
    writeFileSync(state, JSON.stringify({ version: 1, nonsense: true }));
    const original = readFileSync(state, 'utf8');
    const r = cli('reduce', '--state', state, capture);
    assert.equal(r.status, 0, r.stderr);
    const m = /the original is kept as (\S+)\n/.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.equal(readFileSync(m[1]!, 'utf8'), original);
    assert.notEqual(readFileSync(state, 'utf8'), original);
  });

  it('a second writer is refused while the first holds the state file; a stale lock is taken over', () => {
    const state = path.join(dir, 'shared.json');
    const first = loadState(state);
    const r = cli('reduce', '--state', state, capture);
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`is in use by process ${process.pid}`));
    first.release();
    // A lock left by a process that is gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(`${state}.lock`, dead);
    assert.equal(cli('reduce', '--state', state, capture).status, 0);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('shared.json.')),
      [],
    );
  });
});
