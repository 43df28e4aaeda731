// The wire form of entries (wire.ts): lossless (the webview decodes exactly the entry the host projected),
// smaller (defaults and text wrappers left out), and handles that name entries the same way on both sides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../../src/common/store';
import { toViewEntry, type ViewEntry } from '../../../src/common/webview/viewEntry';
import { decodeEntry, decodePatch, encodeEntry, encodePatch } from '../../../src/common/webview/wire';
import { WireDecoder } from '../../../src/common/webview/wireDecoder';
import { EMPTY_PANEL } from '../../../src/common/webview/emptyPanel';
import { snapshotMessages, SNAPSHOT_NEWEST } from '../../../src/common/webview/snapshot';
import type { MessageEntry } from '../../../src/common/store/model';

/** Through JSON, as postMessage would carry it. */
const posted = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function recordedEntries(): ViewEntry[] {
  const dir = path.join(__dirname, '../../fixtures/transcripts');
  const out: ViewEntry[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
    const store = new MessageStore();
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as { dir: string; msg: unknown };
      if (r.dir === 'client->agent' || r.dir === 'agent->client') store.ingest(r.dir, r.msg);
    }
    for (const s of store.sessions()) out.push(...s.entries.map(toViewEntry));
  }
  return out;
}

test('every recorded entry decodes to exactly what the host projected, in fewer bytes', () => {
  const entries = recordedEntries();
  assert.ok(entries.length > 40);
  let before = 0;
  let after = 0;
  for (const v of entries) {
    const w = posted(encodeEntry(v));
    assert.deepEqual(decodeEntry(w), posted(v));
    before += JSON.stringify(v).length;
    after += JSON.stringify(w).length;
  }
  assert.ok(after < before * 0.85, `${after} wire bytes vs ${before}`);
});

test('only bare text becomes a string: annotations, _meta and other blocks stay objects', () => {
  const v: ViewEntry = {
    kind: 'agent_message',
    key: 'k',
    messageId: 'm',
    provenance: 'replay',
    content: [
      { type: 'text', text: 'plain' },
      { type: 'text', text: 'noted', annotations: { priority: 1 } },
      { type: 'text', text: 'meta', _meta: { a: 1 } },
      { type: 'image', data: 'AA', mimeType: 'image/png' },
    ],
  };
  const w = encodeEntry(v);
  assert.deepEqual(w, { kind: 'agent_message', key: 'k', messageId: 'm', provenance: 'replay', content: ['plain', v.content[1], v.content[2], v.content[3]] });
  assert.deepEqual(decodeEntry(posted(w)), v);
  // A tool call's text is wrapped once more; its defaults are left out.
  const t: ViewEntry = {
    kind: 'tool_call',
    key: 't',
    toolCallId: 'c',
    title: '',
    name: null,
    toolKind: 'other',
    status: 'pending',
    provenance: 'live',
    locations: [],
    content: [
      { type: 'content', content: { type: 'text', text: 'out' } },
      { type: 'diff', path: '/a', oldText: null, newText: 'b' },
    ],
  };
  const tw = encodeEntry(t);
  assert.deepEqual(tw, { kind: 'tool_call', key: 't', toolCallId: 'c', content: ['out', t.content[1]] });
  assert.deepEqual(decodeEntry(posted(tw)), t);
  // Patches carry content the same way.
  const p = { set: { status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'x' } }] }, append: { locations: [{ path: '/a' }] } };
  const pw = encodePatch('tool_call', p);
  assert.deepEqual(pw.set?.['content'], ['x']);
  assert.deepEqual(decodePatch('tool_call', posted(pw)), p);
});

test('the decoder numbers a snapshot sent newest first like the batcher does, and resolves handles to keys', () => {
  const stats = { chunks: 1, upserts: 0, bytes: 1, firstSeen: 0, lastSeen: 0, lines: [] };
  const n = SNAPSHOT_NEWEST + 30;
  const entries: MessageEntry[] = Array.from({ length: n }, (_, i) => ({
    kind: 'agent_message',
    key: `k${i}`,
    messageId: null,
    content: [{ type: 'text', text: `${i}` }],
    meta: null,
    provenance: 'live',
    stats,
  }));
  const [snap, older] = posted(snapshotMessages(entries, EMPTY_PANEL));
  assert.ok(snap?.type === 'snapshot' && older?.type === 'older');
  const d = new WireDecoder();
  assert.deepEqual(
    d.snapshot(snap.entries, snap.olderCount ?? 0).map((e) => e.key),
    entries.slice(30).map((e) => e.key),
  );
  assert.deepEqual(d.entryOp({ op: 'appendText', h: 40, text: 'x' }), { op: 'appendText', key: 'k40', text: 'x' });
  assert.throws(() => d.entryOp({ op: 'appendText', h: 3, text: 'x' }), /handle 3/, 'not sent yet');
  d.older(older.entries, older.olderCount);
  assert.deepEqual(d.entryOp({ op: 'appendText', h: 3, text: 'x' }), { op: 'appendText', key: 'k3', text: 'x' });
  const ins = d.entryOp({ op: 'insert', entry: { kind: 'user_message', key: 'new', content: ['hi'], provenance: 'local' } });
  assert.deepEqual(ins, { op: 'insert', index: n, entry: { kind: 'user_message', key: 'new', messageId: null, content: [{ type: 'text', text: 'hi' }], provenance: 'local' } });
  assert.deepEqual(d.entryOp({ op: 'fields', h: n, patch: { append: { content: ['!'] } } }), {
    op: 'fields',
    key: 'new',
    patch: { append: { content: [{ type: 'text', text: '!' }] } },
  });
  assert.throws(() => d.entryOp({ op: 'appendText', h: -1, text: 'x' }), /handle -1/);
});
