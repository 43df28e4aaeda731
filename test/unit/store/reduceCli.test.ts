// `cli reduce`: prints the conformance output format; --state carries the complete store across runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../../src/node/cli/reduce';
import { AgentMethods, ClientMethods } from '../../../src/common/protocol/methods';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = process.stdout.write.bind(process.stdout);
  const e = process.stderr.write.bind(process.stderr);
  process.stdout.write = (s: string | Uint8Array) => ((out += String(s)), true);
  process.stderr.write = (s: string | Uint8Array) => ((err += String(s)), true);
  try {
    return { code: await main(args), out, err };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

const line = (dir: string, msg: unknown) => JSON.stringify({ dir, msg });
const newSession = [
  line('client->agent', { jsonrpc: '2.0', id: 1, method: AgentMethods.sessionNew, params: { cwd: '/ws', mcpServers: [] } }),
  line('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } }),
];
const chunk = (t: string) =>
  line('agent->client', {
    jsonrpc: '2.0',
    method: ClientMethods.sessionUpdate,
    params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t }, messageId: 'm' } },
  });

test('reduce prints sessions and diagnostics; --state continues where the last run stopped', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reduce-test-'));
  try {
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    const state = path.join(dir, 'state.json');
    writeFileSync(a, [...newSession, chunk('A'), '{"dir":"note","text":"x"}', 'not json'].join('\n') + '\n');
    writeFileSync(b, chunk('B') + '\n');
    const first = await run(['--state', state, a]);
    assert.equal(first.code, 0, first.err);
    assert.ok(existsSync(state));
    const one = JSON.parse(first.out) as { sessions: { entries: { key: string; content: unknown }[] }[]; diagnostics: { severity: string; line: number }[] };
    assert.deepEqual(
      one.diagnostics.map((d) => [d.severity, d.line]),
      [['error', 5]],
    );
    const second = await run(['--state', state, b]);
    const two = JSON.parse(second.out) as typeof one;
    assert.equal(two.sessions[0]?.entries.length, 1);
    assert.equal(two.sessions[0]?.entries[0]?.key, one.sessions[0]?.entries[0]?.key);
    assert.deepEqual(two.sessions[0]?.entries[0]?.content, [{ type: 'text', text: 'AB' }]);
    assert.equal(two.diagnostics.length, 1, 'diagnostics are part of the saved state');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('reduce reports usage errors with exit code 2', async () => {
  assert.equal((await run([])).code, 2);
  assert.equal((await run(['--bogus', 'x'])).code, 2);
  const missing = await run([path.join(os.tmpdir(), 'definitely-missing.jsonl')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read/);
});
