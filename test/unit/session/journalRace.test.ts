// Regression: records appended while a journal write is in flight must not be lost (a streamed turn
// appends a message every few milliseconds, so writes and appends always overlap).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StoreJournal } from '../../../src/node/persistence/journal';

test('appends during an in-flight write all reach the file, in order', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'journal-'));
  const { journal } = await StoreJournal.open(dir, 'race');
  const n = 500;
  const flushes: Promise<void>[] = [];
  for (let i = 1; i <= n; i++) {
    journal.append('agent->client', { jsonrpc: '2.0', method: 'note', params: { i } });
    if (i % 7 === 0) flushes.push(journal.flush()); // start writes while more appends arrive
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  await Promise.all(flushes);
  await journal.dispose();
  const seen = readFileSync(path.join(dir, 'race.journal.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { msg: { params: { i: number } } }).msg.params.i);
  assert.equal(seen.length, n);
  assert.deepEqual(
    seen,
    Array.from({ length: n }, (_, i) => i + 1),
  );
});
