// `cli export-v1`: a v2-draft capture becomes a v1 capture that `reduce` reads to the same transcript;
// what v1 cannot express fails loudly (exit 1, the capture line named, nothing written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageStore } from '../../../src/common/store';
import { runCli } from '../helpers/cli';

const run = (...args: string[]) => runCli(args);
const dir = mkdtempSync(path.join(tmpdir(), 'export-v1-'));

const line = (dir: string, msg: object) => JSON.stringify({ dir, msg: { jsonrpc: '2.0', ...msg } });
const update = (u: object) => line('agent->client', { method: 'session/update', params: { sessionId: 's', update: u } });
const v2Start = [
  line('client->agent', { id: 0, method: 'initialize', params: { protocolVersion: 2, info: { name: 't', version: '1' } } }),
  line('agent->client', { id: 0, result: { protocolVersion: 2 } }),
];

function write(name: string, lines: string[]): string {
  const f = path.join(dir, name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

test('a v2 capture exports to a v1 capture with the same transcript', () => {
  const f = write('ok.jsonl', [
    ...v2Start,
    update({ sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'Hello ' }] }),
    update({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'world' } }),
    update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'pending' }),
    update({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'content', content: { type: 'text', text: 'out' } } }),
  ]);
  const out = path.join(dir, 'ok.v1.jsonl');
  const r = run('export-v1', '--out', out, f);
  assert.equal(r.status, 0, r.stderr);
  const v1 = new MessageStore();
  readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .forEach((l, i) => v1.ingestLine(l, i + 1));
  assert.deepEqual(v1.diagnostics(), []);
  const s = v1.session('s');
  assert.equal(s?.protocolVersion, 1);
  const [msg, tool] = s?.entries ?? [];
  assert.ok(msg && msg.kind === 'agent_message' && tool && tool.kind === 'tool_call');
  assert.deepEqual(msg.content, [{ type: 'text', text: 'Hello world' }]);
  assert.deepEqual(tool.content, [{ type: 'content', content: { type: 'text', text: 'out' } }]);
});

test('what v1 cannot express fails with exit 1, the capture line, and no output file', () => {
  const f = write('bad.jsonl', [
    ...v2Start,
    update({ sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'a' }] }),
    update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/a.ts' }] }] }),
    update({ sessionUpdate: 'agent_message', messageId: 'm1', _meta: { x: 1 } }),
  ]);
  const out = path.join(dir, 'bad.v1.jsonl');
  const r = run('export-v1', '--out', out, f);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /v1 cannot express this capture \(2 problems\); nothing written/);
  assert.match(r.stderr, /line 4 .*v2 diff/);
  assert.match(r.stderr, /line 5 .*patch v1 cannot express/);
  assert.equal(existsSync(out), false);
});

test('a v1 capture is refused; a missing file is a usage error', () => {
  const f = write('v1.jsonl', [
    line('client->agent', { id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
    line('agent->client', { id: 0, result: { protocolVersion: 1 } }),
  ]);
  const r = run('export-v1', f);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /negotiated protocol 1, not the v2 draft/);
  assert.equal(run('export-v1').status, 2);
  assert.equal(run('export-v1', path.join(dir, 'nope.jsonl')).status, 2);
});
