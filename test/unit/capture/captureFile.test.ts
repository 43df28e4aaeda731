import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CaptureFile, listCaptures, pruneCaptures, readCaptureRecords } from '../../../src/node/capture/captureFile';

test('writes one {seq,t_ms,dir,msg} line per message, in order', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cap-'));
  const c = CaptureFile.create(dir, 'my agent/1', 5, () => assert.fail('no error expected'));
  c.write('client->agent', { jsonrpc: '2.0', id: 1, method: 'initialize' });
  c.write('agent->client', { jsonrpc: '2.0', id: 1, result: {} });
  assert.match(path.basename(c.path), /-my_agent_1\.jsonl$/);
  const lines = readFileSync(c.path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.seq, l.dir, l.msg.id]),
    [
      [1, 'client->agent', 1],
      [2, 'agent->client', 1],
    ],
  );
  assert.equal(typeof lines[0].t_ms, 'number');
  assert.equal(c.lines, 2);
});

test('old captures beyond the limit are pruned, newest kept', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cap-'));
  for (let i = 0; i < 5; i++) {
    const f = path.join(dir, `old-${i}.jsonl`);
    writeFileSync(f, '');
    utimesSync(f, 1000 + i, 1000 + i);
  }
  writeFileSync(path.join(dir, 'notes.txt'), 'kept');
  assert.deepEqual(
    pruneCaptures(dir, 2)
      .map((f) => path.basename(f))
      .sort(),
    ['old-0.jsonl', 'old-1.jsonl', 'old-2.jsonl'],
  );
  assert.deepEqual(readdirSync(dir).sort(), ['notes.txt', 'old-3.jsonl', 'old-4.jsonl']);
  assert.deepEqual(
    listCaptures(dir).map((f) => path.basename(f)),
    ['old-4.jsonl', 'old-3.jsonl'],
  );
  assert.deepEqual(listCaptures(path.join(dir, 'missing')), []);
});

test('a write failure into a missing directory is reported once and never throws', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cap-'));
  const errors: string[] = [];
  const c = CaptureFile.at(path.join(dir, 'sub', 'x.jsonl'), (m) => errors.push(m));
  c.write('note', {});
  // Replace the folder under the writer with a file, as a deleted storage folder would break it.
  rmSync(path.join(dir, 'sub'), { recursive: true, force: true });
  writeFileSync(path.join(dir, 'sub'), 'a file where the folder was');
  c.write('note', {});
  c.write('note', {});
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? '', /capture disabled/);
});

test('records are found again by the seq the session gave them, across capture files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cap-'));
  const a = CaptureFile.create(dir, 'demo', 5, () => undefined);
  a.write('client->agent', { id: 1 }, 10);
  a.write('agent->client', { id: 1, result: {} }, 11);
  writeFileSync(a.path, readFileSync(a.path, 'utf8') + '{"seq":12,"dir":"agent->cl'); // torn by a crash
  const other = CaptureFile.create(dir, 'other', 5, () => undefined);
  other.write('client->agent', { id: 'x' }, 10);
  const found = readCaptureRecords(dir, 'demo', new Set([11, 10, 12]));
  assert.deepEqual(
    found.map((r) => [r.seq, r.dir]),
    [
      [10, 'client->agent'],
      [11, 'agent->client'],
    ],
  );
});
