import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { parseRunArgs, run } from '../../../src/node/cli/run';
import type { RunOptions } from '../../../src/node/cli/run';
import { runCli } from '../helpers/cli';

const root = path.resolve(import.meta.dirname, '../../..');
const ws = mkdtempSync(path.join(tmpdir(), 'cli-run-'));
writeFileSync(path.join(ws, 'notes.txt'), 'hello\n');
// The demo agent as a real subprocess, bundled from the current sources (what dist/demo-agent.js is).
const demoJs = path.join(ws, '.demo-agent.js');
before(async () => {
  await build({
    entryPoints: [path.join(root, 'src/node/demoAgent/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: demoJs,
    logLevel: 'error',
  });
});
const demo = [process.execPath, demoJs];
after(() => rmSync(ws, { recursive: true, force: true }));

function opts(over: Partial<RunOptions>): RunOptions {
  const parsed = parseRunArgs(['--cwd', ws, '--prompt', 'x', '--', 'agent']);
  assert.ok(typeof parsed !== 'string');
  return { ...parsed, graceMs: 0, ...over };
}

describe('cli run', () => {
  it('parses its arguments and refuses bad ones', () => {
    const o = parseRunArgs(['--approve', 'none', '--protocol', '2', '--mode', 'code', '--prompt', 'a', '--prompt', 'b', '--', 'agent', '--flag']);
    assert.ok(typeof o !== 'string');
    assert.equal(o.approve, 'none');
    assert.equal(o.protocol, 2);
    assert.deepEqual(o.prompts, ['a', 'b']);
    assert.deepEqual(o.agent, ['agent', '--flag']);
    assert.match(String(parseRunArgs(['--prompt', 'a'])), /missing agent command/);
    assert.match(String(parseRunArgs(['--', 'agent'])), /--prompt is required/);
    assert.match(String(parseRunArgs(['--approve', 'some', '--prompt', 'a', '--', 'x'])), /all or none/);
    assert.match(String(parseRunArgs(['--frobnicate', '--prompt', 'a', '--', 'x'])), /Unknown option '--frobnicate'/);
    assert.match(String(parseRunArgs(['--prompt', '--', 'x'])), /missing agent command|argument missing/);
  });

  it('passes everything after -- to the agent, even --help', () => {
    const o = parseRunArgs(['--prompt', 'hi', '--', 'agent', '--help', '--', '-x']);
    assert.ok(typeof o !== 'string');
    assert.deepEqual(o.agent, ['agent', '--help', '--', '-x']);
    const cli = runCli(['run', '--cwd', ws, '--prompt', 'hi', '--timeout', '20', '--', process.execPath, '-e', 'process.exit(7)', '--help']);
    assert.doesNotMatch(cli.stdout, /^run \[--cwd DIR\]/m, 'our usage is not printed');
    assert.notEqual(cli.status, 0, 'the agent ran (and closed without answering)');
  });

  it('reads relative paths where the user typed them, not in --cwd', () => {
    const from = path.dirname(demoJs);
    const o = parseRunArgs(['--cwd', 'sub', '--capture', 'c.jsonl', '--prompt', 'x', '--', 'node', `./${path.basename(demoJs)}`, 'acp', './missing.js'], from);
    assert.ok(typeof o !== 'string');
    assert.equal(o.cwd, path.join(from, 'sub'));
    assert.equal(o.capture, path.join(from, 'c.jsonl'));
    assert.deepEqual(o.agent, ['node', demoJs, 'acp', './missing.js'], 'an existing file is made absolute; a plain word or a missing path is left alone');
  });

  it('drives the demo agent through an edit + terminal turn, writing the capture', async () => {
    const capture = path.join(ws, 'cap.jsonl');
    let out = '';
    let err = '';
    const code = await run(
      opts({ capture, agent: demo, mode: 'code', prompts: ['edit and run please', '/help'] }),
      (s) => (out += s),
      (s) => (err += s),
    );
    assert.equal(code, 0, err);
    assert.match(out, /Hello from the ACP Chat demo agent\./);
    assert.match(out, /\[permission\] Edit demo-edit\.txt -> Allow once \(allow_once\)/);
    assert.match(out, /\[tool\] Run echo \(completed\)/);
    assert.match(out, /\[thought\] /);
    assert.equal((out.match(/\[stop\] end_turn/g) ?? []).length, 2);
    assert.match(readFileSync(path.join(ws, 'demo-edit.txt'), 'utf8'), /Edited by/);
    const records = readFileSync(capture, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { dir: string; msg?: { method?: string } });
    const methods = records.filter((r) => r.dir !== 'note').map((r) => r.msg?.method);
    for (const m of [
      'initialize',
      'session/new',
      'session/set_mode',
      'session/prompt',
      'session/update',
      'session/request_permission',
      'fs/write_text_file',
      'terminal/create',
      'terminal/release',
    ]) {
      assert.ok(methods.includes(m), `capture lacks ${m}`);
    }
  });

  it('rejects by kind with --approve none', async () => {
    let out = '';
    const code = await run(
      opts({ agent: demo, approve: 'none', prompts: ['permission test'] }),
      (s) => (out += s),
      () => undefined,
    );
    assert.equal(code, 0);
    assert.match(out, /-> Reject \(reject_once\)/);
    // The store's status for a tool call whose permission was refused (the panel's too), not the agent's `failed`.
    assert.match(out, /\[tool\] Edit demo-edit\.txt \(rejected\)/);
  });

  it('exits 3 with a clear message when the agent crashes', async () => {
    let err = '';
    const crash = [process.execPath, '-e', 'process.stdin.once("data", () => { console.error("agent fell over"); process.exit(7); })'];
    const code = await run(
      opts({ agent: crash }),
      () => undefined,
      (s) => (err += s),
    );
    assert.equal(code, 3);
    assert.match(err, /initialize/);
    assert.match(err, /code 7/);
  });

  it('exits 3 when the agent dies while a grandchild keeps its stdout open', async () => {
    let err = '';
    const script = 'require("child_process").spawn("sleep", ["30"], { stdio: ["ignore", "inherit", "ignore"] }); process.stdin.once("data", () => process.exit(4))';
    const code = await run(
      opts({ agent: [process.execPath, '-e', script] }),
      () => undefined,
      (s) => (err += s),
    );
    assert.equal(code, 3);
    assert.match(err, /code 4/);
  });
});
