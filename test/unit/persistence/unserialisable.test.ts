// Issue 11, item 7: a message that cannot be serialised again (nesting too deep for JSON.stringify)
// costs neither the capture nor the journal their consistency: the capture keeps the raw line or notes
// the loss, the journal refuses that one record with a clear error and keeps every other.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CaptureFile } from '../../../src/node/capture/captureFile';
import { StoreJournal } from '../../../src/node/persistence/journal';

const deep = (n: number): unknown => {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
};
const chunk = (text: string) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
});

test('the capture records the raw line of a message it could not serialise, or a note in its place; it never throws', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-unser-'));
  const c = CaptureFile.at(path.join(dir, 'c.jsonl'), (m) => assert.fail(m));
  const msg = { jsonrpc: '2.0', method: 'x', params: { v: deep(20000) } };
  c.write('agent->client', msg, undefined, '{"jsonrpc":"2.0","method":"x","params":{"v":[[]]}}');
  c.write('agent->client', msg); // no raw line: a note instead
  c.write('agent->client', chunk('after'));
  const lines = readFileSync(c.path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { seq: number; dir: string; msg: { method?: string; text?: string } });
  assert.deepEqual(
    lines.map((l) => [l.seq, l.dir]),
    [
      [1, 'agent->client'],
      [2, 'note'],
      [3, 'agent->client'],
    ],
  );
  assert.equal(lines[0]!.msg.method, 'x');
  assert.equal(lines[1]!.msg.text, 'message not recorded');
});

test('the journal refuses an unserialisable record with a clear error, uses no seq for it, and keeps the rest', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-unser-'));
  const { store, journal } = await StoreJournal.open(dir, 'j');
  journal.ingest(store, 'agent->client', chunk('one '), 1);
  assert.throws(
    () => journal.append('agent->client', { jsonrpc: '2.0', method: 'x', params: { v: deep(20000) } }, [], 2),
    /message 2 could not be saved \(it will be missing after a reload\)/,
  );
  journal.ingest(store, 'agent->client', chunk('two'), 3);
  await journal.dispose();
  const reopened = await StoreJournal.open(dir, 'j');
  assert.deepEqual(reopened.diagnostics, []);
  const text = reopened.store
    .sessions()
    .flatMap((s) => s.entries.flatMap((e) => ('content' in e ? (e.content as unknown as { text?: string }[]).map((b) => b.text ?? '') : [])))
    .join('');
  assert.equal(text, 'one two');
  await reopened.journal.dispose();
});
