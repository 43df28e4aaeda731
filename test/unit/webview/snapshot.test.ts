// A long transcript goes to the webview newest first: a snapshot of the newest entries, then older parts
// walking back to the first entry, which together are the whole transcript in order, each entry once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageEntry } from '../../../src/common/store/model';
import { EMPTY_PANEL } from '../../../src/common/webview/emptyPanel';
import { OLDER_CHUNK, SNAPSHOT_NEWEST, snapshotMessages } from '../../../src/common/webview/snapshot';

const stats = { chunks: 1, upserts: 0, bytes: 1, firstSeen: 0, lastSeen: 0, lines: [] };
const entries = (n: number): MessageEntry[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'user_message', key: `k${i}`, messageId: null, content: [{ type: 'text', text: `${i}` }], meta: null, provenance: 'live', stats }));

test('a short transcript is one snapshot', () => {
  const m = snapshotMessages(entries(3), EMPTY_PANEL);
  assert.equal(m.length, 1);
  assert.ok(m[0]?.type === 'snapshot' && m[0].entries.length === 3 && m[0].olderCount === undefined);
});

test('a long one: the newest first, then older parts that rebuild it in order', () => {
  const n = SNAPSHOT_NEWEST + 2 * OLDER_CHUNK + 7;
  const m = snapshotMessages(entries(n), EMPTY_PANEL);
  const [first, ...rest] = m;
  assert.ok(first?.type === 'snapshot');
  assert.equal(first.entries.length, SNAPSHOT_NEWEST);
  assert.equal(first.olderCount, n - SNAPSHOT_NEWEST);
  let keys = first.entries.map((e) => e.key);
  let expectedOlder = first.olderCount ?? 0;
  for (const o of rest) {
    assert.ok(o.type === 'older');
    assert.equal(o.olderCount, expectedOlder - o.entries.length);
    expectedOlder = o.olderCount;
    keys = [...o.entries.map((e) => e.key), ...keys];
  }
  assert.equal(expectedOlder, 0);
  assert.deepEqual(
    keys,
    entries(n).map((e) => e.key),
  );
});
