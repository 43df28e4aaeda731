// `cli check`: argument parsing, a capture file (text and --json), and the live script against the demo
// agent (no findings, v1 and v2) and a deliberately misbehaving agent (its findings, escaped output).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { check, parseCheckArgs } from '../../../src/node/cli/check';
import type { CheckOptions } from '../../../src/node/cli/check';

const root = path.resolve(import.meta.dirname, '../../..');
const ws = mkdtempSync(path.join(tmpdir(), 'cli-check-'));
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
after(() => rmSync(ws, { recursive: true, force: true }));
const misbehaving = path.join(root, 'test/fixtures/agents/misbehaving-agent.mjs');

function opts(args: string[]): CheckOptions {
  const o = parseCheckArgs(args);
  assert.ok(typeof o !== 'string', String(o));
  return o;
}
async function runCheck(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await check(
    opts(args),
    (s) => (out += s),
    (s) => (err += s),
  );
  return { code, out, err };
}
interface JsonReport {
  violations: { rule: string; severity: string; line: number; message: string }[];
  summary: { errors: number; warnings: number; rules: Record<string, number>; probes?: { feature: string; advertised: boolean | null; outcome: string }[] };
}

describe('cli check', () => {
  it('parses its arguments and refuses bad ones', () => {
    assert.equal(opts(['--json', 'cap.jsonl']).file, path.resolve('cap.jsonl'));
    const live = opts(['--protocol', '2', '--timeout', '5', '--', 'agent', '--acp']);
    assert.deepEqual([live.protocol, live.timeoutSec, live.agent], [2, 5, ['agent', '--acp']]);
    assert.match(String(parseCheckArgs([])), /capture file, or -- AGENT_CMD/);
    assert.match(String(parseCheckArgs(['a', 'b'])), /one capture file/);
    assert.match(String(parseCheckArgs(['--protocol', '3', '--', 'x'])), /1 or 2/);
    assert.match(String(parseCheckArgs(['--protocol', '2', 'cap.jsonl'])), /live check/);
    assert.match(String(parseCheckArgs(['cap.jsonl', '--', 'x'])), /not both/);
    assert.match(String(parseCheckArgs(['--bogus', 'x'])), /bogus/);
    assert.match(String(parseCheckArgs(['--'])), /missing agent command/);
  });

  it('checks a capture file: findings with their line, exit 1 on an error, --json shape', async () => {
    const file = path.join(ws, 'bad.jsonl');
    const lines = [
      { dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } } },
      { dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } } },
      { dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'craft/drainMidTurnQueue\u001b[2J', params: {} } },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot a record\n');
    const text = await runCheck([file]);
    assert.equal(text.code, 1);
    assert.match(text.out, /line 3 {2}error {4}unknown-method: "craft\/drainMidTurnQueue\\u001b\[2J" is not an ACP method/);
    assert.doesNotMatch(text.out, /\u001b/);
    assert.match(text.err, /skipped 1 line\(s\) that are not capture records: 4/);
    const json = await runCheck(['--json', file]);
    const report = JSON.parse(json.out) as JsonReport;
    assert.deepEqual(
      report.violations.map((v) => [v.rule, v.severity, v.line]),
      [['unknown-method', 'error', 3]],
    );
    assert.deepEqual([report.summary.errors, report.summary.warnings, report.summary.rules], [1, 0, { 'unknown-method': 1 }]);
  });

  it('exits 0 on a clean capture and 2 on a missing or empty one', async () => {
    assert.equal((await runCheck([path.join(root, 'test/fixtures/transcripts/sdk-example-agent.jsonl')])).code, 0);
    assert.equal((await runCheck([path.join(ws, 'missing.jsonl')])).code, 2);
    const empty = path.join(ws, 'empty.jsonl');
    writeFileSync(empty, '\n');
    assert.equal((await runCheck([empty])).code, 2);
  });

  it('the demo agent passes the live check (v1) with no findings', async () => {
    const capture = path.join(ws, 'demo-check.jsonl');
    const r = await runCheck(['--json', '--capture', capture, '--', process.execPath, demoJs]);
    const report = JSON.parse(r.out) as JsonReport;
    assert.deepEqual(report.violations, []);
    assert.equal(r.code, 0, r.out);
    const probes = Object.fromEntries((report.summary.probes ?? []).map((p) => [p.feature, p.outcome]));
    assert.equal(probes['session/cancel'], 'stopReason cancelled');
    for (const f of ['session/set_mode', 'session/set_config_option', 'session/load', 'session/resume', 'session/list', 'session/close']) assert.equal(probes[f], 'supported', f);
    // The capture is a {dir, msg} capture the file check accepts, with the same verdict.
    const methods = readFileSync(capture, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { msg?: { method?: string } }).msg?.method);
    for (const m of ['initialize', 'session/new', 'session/prompt', 'session/cancel', 'session/load']) assert.ok(methods.includes(m), m);
    assert.equal((await runCheck([capture])).code, 0);
  });

  it('the demo agent passes the live check in the v2 draft too, with no findings', async () => {
    const capture = path.join(ws, 'demo-check-v2.jsonl');
    const r = await runCheck(['--json', '--protocol', '2', '--capture', capture, '--', process.execPath, demoJs]);
    const report = JSON.parse(r.out) as JsonReport & { summary: { protocolVersion: number } };
    assert.deepEqual(report.violations, []);
    assert.equal(report.summary.protocolVersion, 2);
    assert.equal(r.code, 0, r.out);
    const probes = Object.fromEntries((report.summary.probes ?? []).map((p) => [p.feature, p.outcome]));
    assert.equal(probes['session/cancel'], 'stopReason cancelled');
    assert.equal(probes['session/resume'], 'supported');
    // The recorded v2 capture checks the same from the file (the version comes from its initialize).
    const lines = readFileSync(capture, 'utf8');
    assert.match(lines, /"sessionUpdate":"state_update"/);
    assert.equal((await runCheck([capture])).code, 0);
  });

  it('reports what a misbehaving agent does, with its stdout banner escaped', async () => {
    const r = await runCheck(['--', process.execPath, misbehaving]);
    assert.equal(r.code, 1);
    for (const rule of ['stdout-not-json', 'session-update-early', 'unknown-method', 'stop-reason-invalid', 'update-after-turn-end'])
      assert.match(r.out, new RegExp(`  ${rule}: `), rule);
    assert.doesNotMatch(r.out, /\u001b/);
    assert.match(r.out, /session\/resume +advertised no +method not found/);
  });
});
