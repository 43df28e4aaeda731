import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PanelFeed, PanelSource } from '../../../src/common/webview/panelFeed';
import { MAX_TEXT_DELAY_MS, TEXT_WORTH_POSTING } from '../../../src/common/webview/patchBatcher';
import type { HostToWebview } from '../../../src/common/webview/contract';
import type { MessageEntry } from '../../../src/common/store/model';
import type { StoreDelta } from '../../../src/common/store';
import { EMPTY_PANEL } from '../../../src/common/webview/emptyPanel';
import { WireEncoder } from '../../../src/common/webview/wireEncoder';
import { WireDecoder } from '../../../src/common/webview/wireDecoder';
import { toViewEntry } from '../../../src/common/webview/viewEntry';

const stats = { chunks: 1, upserts: 0, bytes: 1, firstSeen: 0, lastSeen: 0, lines: [] };
const msg = (key: string, text: string): MessageEntry => ({
  kind: 'agent_message',
  key,
  messageId: null,
  content: [{ type: 'text', text }],
  meta: null,
  provenance: 'live',
  stats,
});

function feedWithClock() {
  const posts: HostToWebview[] = [];
  let clock = 1000;
  const feed = new PanelFeed(
    (m) => posts.push(m),
    () => clock,
  );
  return { feed, posts, advance: (ms: number) => (clock += ms) };
}

test('a little streamed text waits for more or for the maximum delay; then one patch goes out', () => {
  const { feed, posts, advance } = feedWithClock();
  feed.snapshot([msg('a', '')], EMPTY_PANEL);
  assert.equal(posts.length, 1);
  assert.equal(posts[0]?.type, 'snapshot');
  assert.ok(feed.changed([{ type: 'entryUpdated', sessionId: 's', index: 0, entry: msg('a', 'hi'), appendedText: 'hi' }]));
  assert.equal(feed.frame(), true, 'two characters are not worth a post yet');
  advance(MAX_TEXT_DELAY_MS - 1);
  assert.equal(feed.frame(), true);
  advance(1);
  assert.equal(feed.frame(), false, 'posted once the oldest change waited long enough');
  assert.deepEqual(posts.slice(1), [{ type: 'patch', ops: [{ op: 'appendText', h: 0, text: 'hi' }] }]);
  // Nothing pending: a frame posts nothing.
  assert.equal(feed.frame(), false);
  assert.equal(posts.length, 2);
});

test('enough text, or anything structural, goes out on the next frame', () => {
  const { feed, posts } = feedWithClock();
  feed.snapshot([], EMPTY_PANEL);
  const text = 'x'.repeat(TEXT_WORTH_POSTING);
  feed.changed([{ type: 'entryInserted', sessionId: 's', index: 0, entry: msg('a', text) }]);
  assert.equal(feed.frame(), false);
  feed.changed([{ type: 'panel', fields: { turn: 'busy' } }]);
  assert.equal(feed.frame(), false);
  assert.deepEqual(
    posts.slice(1).map((p) => (p.type === 'patch' ? p.ops.map((o) => o.op) : p.type)),
    [['insert'], ['panel']],
  );
});

test('a reset stops the batch: the caller posts a snapshot, which drops what was pending', () => {
  const { feed, posts } = feedWithClock();
  feed.snapshot([], EMPTY_PANEL);
  assert.equal(
    feed.changed([
      { type: 'entryInserted', sessionId: 's', index: 0, entry: msg('a', 'x') },
      { type: 'reset' },
      { type: 'entryInserted', sessionId: 's', index: 1, entry: msg('b', 'y') },
    ]),
    false,
  );
  feed.snapshot([msg('a', 'x'), msg('b', 'y')], EMPTY_PANEL);
  assert.equal(feed.pending, false);
  feed.flush();
  assert.deepEqual(
    posts.map((p) => p.type),
    ['snapshot', 'snapshot'],
  );
});

test('a dropped batch is never posted (the webview is hidden; its next snapshot has it)', () => {
  const { feed, posts } = feedWithClock();
  feed.snapshot([], EMPTY_PANEL);
  feed.changed([{ type: 'entryInserted', sessionId: 's', index: 0, entry: msg('a', 'x') }]);
  feed.drop();
  feed.flush();
  assert.equal(posts.length, 1);
});

test('PanelSource: store deltas of the shown session, indexes after an earlier transcript', () => {
  const source = new PanelSource();
  const heard: unknown[] = [];
  source.onDidChange((c) => heard.push(...c));
  const changes: StoreDelta[] = [
    { type: 'entryInserted', sessionId: 's', index: 0, entry: msg('a', 'x') },
    { type: 'entryInserted', sessionId: 'other', index: 0, entry: msg('b', 'y') },
    { type: 'diagnostic', diagnostic: { severity: 'warning', message: 'odd' } },
  ];
  const diagnostics = source.storeChanged(changes, 's', undefined, 3);
  assert.deepEqual(heard, [{ type: 'entryInserted', sessionId: 's', index: 3, entry: msg('a', 'x') }]);
  assert.deepEqual(diagnostics, [{ severity: 'warning', message: 'odd' }]);
  source.storeChanged([changes[1]!], 's', undefined);
  assert.equal(heard.length, 1, 'nothing for another session: no event');
  source.reset();
  assert.deepEqual(heard.at(-1), { type: 'reset' });
  source.dispose();
});

test('WireEncoder numbers handles as the webview decoder does, and its keyed ops decode back', () => {
  const enc = new WireEncoder();
  const dec = new WireDecoder();
  const older = [msg('o0', 'zero'), msg('o1', 'one')];
  const newest = [msg('n0', 'two')];
  enc.snapshot(newest, older.length);
  dec.snapshot(
    newest.map((e) => enc.entryOp({ op: 'replace', entry: toViewEntry(e) })).map((o) => (o.op === 'replace' ? o.entry : assert.fail())),
    older.length,
  );
  enc.older(older, 0);
  dec.older(
    older.map((e) => enc.entryOp({ op: 'replace', entry: toViewEntry(e) })).map((o) => (o.op === 'replace' ? o.entry : assert.fail())),
    0,
  );
  assert.deepEqual([enc.handleOf('o0'), enc.handleOf('o1'), enc.handleOf('n0'), enc.handleOf('gone')], [0, 1, 2, -1]);
  const ins = enc.entryOp({ op: 'insert', entry: toViewEntry(msg('n1', 'three')) });
  assert.deepEqual(Object.keys(ins).sort(), ['entry', 'op'], 'an insert at the end leaves its index out');
  assert.ok(ins.op === 'insert');
  assert.deepEqual(dec.entryOp(ins), { op: 'insert', index: 3, entry: toViewEntry(msg('n1', 'three')) });
  const app = enc.entryOp({ op: 'appendText', key: 'o1', text: '!' });
  assert.ok(app.op === 'appendText');
  assert.deepEqual(dec.entryOp(app), { op: 'appendText', key: 'o1', text: '!' });
  const fields = enc.entryOp({ op: 'fields', key: 'n1', patch: { set: { content: [{ type: 'text', text: 'x' }] } } });
  assert.ok(fields.op === 'fields');
  assert.deepEqual(fields.patch, { set: { content: ['x'] } }, 'content encoded by the entry kind');
  assert.deepEqual(dec.entryOp(fields), { op: 'fields', key: 'n1', patch: { set: { content: [{ type: 'text', text: 'x' }] } } });
});
