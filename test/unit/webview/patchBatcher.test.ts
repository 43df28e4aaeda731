import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PatchBatcher } from '../../../src/common/webview/patchBatcher';
import type { MessageEntry } from '../../../src/common/store/model';
import { toViewEntry } from '../../../src/common/webview/viewEntry';
import { encodeEntry } from '../../../src/common/webview/wire';
import { EMPTY_PANEL } from '../../../src/common/webview/emptyPanel';

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
/** The entry as the batcher posts it (the webview's projection, in its wire form). */
const view = (key: string, text: string) => encodeEntry(toViewEntry(msg(key, text)));
/** A batcher whose webview holds entries with these keys (handles 0, 1, ...). */
const holding = (...keys: string[]) => {
  const b = new PatchBatcher();
  b.reset(
    keys.map((k) => msg(k, '')),
    EMPTY_PANEL,
  );
  return b;
};

test('consecutive appends to one entry become one appendText', () => {
  const b = holding('k');
  b.updated(msg('k', 'ab'), 'a');
  b.updated(msg('k', 'ab'), 'b');
  b.updated(msg('k', 'abc'), 'c');
  assert.deepEqual(b.take(), [{ op: 'appendText', h: 0, text: 'abc' }]);
  assert.equal(b.isEmpty, true);
  assert.deepEqual(b.take(), []);
});

test('a pending insert absorbs later updates of the same entry', () => {
  const b = new PatchBatcher();
  b.inserted(0, msg('k', 'a'));
  b.updated(msg('k', 'ab'), 'b');
  const ops = b.take();
  assert.equal(ops.length, 1);
  // Inserted after everything the webview holds: no index needed.
  assert.deepEqual(ops[0], { op: 'insert', entry: view('k', 'ab') });
});

test('a non-append update after appends turns the pending op into a replace', () => {
  const b = holding('j', 'k');
  b.updated(msg('k', 'a'), 'a');
  b.updated(msg('k', 'X'));
  b.updated(msg('k', 'XY'), 'Y');
  assert.deepEqual(b.take(), [{ op: 'replace', h: 1, entry: view('k', 'XY') }]);
});

test('ops for different entries keep their order; panel fields merge and come last', () => {
  const b = holding('b');
  b.panelChanged({ turn: 'busy' });
  b.inserted(0, msg('a', 'x'));
  b.updated(msg('b', 'y'), 'y');
  b.panelChanged({ title: 'T' });
  assert.deepEqual(b.take(), [
    { op: 'insert', index: 0, entry: view('a', 'x') },
    { op: 'appendText', h: 0, text: 'y' },
    { op: 'panel', panel: { turn: 'busy', title: 'T' } },
  ]);
});

test('handles: a snapshot numbers its entries by position, each insert takes the next number, an unknown entry gets -1', () => {
  const b = holding('a', 'b');
  b.inserted(1, msg('c', 'x'));
  b.inserted(3, msg('d', 'y'));
  b.take();
  b.updated(msg('a', 'z'), 'z');
  b.updated(msg('c', 'xw'), 'w');
  b.updated(msg('d', 'yv'), 'v');
  b.updated(msg('gone', 'u'), 'u');
  assert.deepEqual(b.take(), [
    { op: 'appendText', h: 0, text: 'z' },
    { op: 'appendText', h: 2, text: 'w' },
    { op: 'appendText', h: 3, text: 'v' },
    { op: 'appendText', h: -1, text: 'u' },
  ]);
  // An insert in the middle says where; the next snapshot starts the numbers again.
  b.inserted(0, msg('e', ''));
  assert.deepEqual(b.take(), [{ op: 'insert', index: 0, entry: view('e', '') }]);
  b.reset([msg('e', ''), msg('a', '')], EMPTY_PANEL);
  b.updated(msg('a', 'q'), 'q');
  assert.deepEqual(b.take(), [{ op: 'appendText', h: 1, text: 'q' }]);
});

test('panel fields the webview already shows are not sent again (agents repeat usage updates)', () => {
  const b = holding();
  const usage = { used: 10, size: 100 };
  b.panelChanged({ usage, turn: 'starting' });
  assert.deepEqual(b.take(), [{ op: 'panel', panel: { usage } }], 'turn is starting in the snapshot');
  b.panelChanged({ usage: { used: 10, size: 100 } });
  assert.equal(b.isEmpty, true);
  // A value that changes and comes back to what is shown before the post: nothing to send.
  b.panelChanged({ usage: { used: 20, size: 100 } });
  b.panelChanged({ usage });
  assert.deepEqual(b.take(), []);
  b.panelChanged({ usage: { used: 30, size: 100 } });
  assert.equal(b.shouldPost(0), false, 'a usage count waits for the next post like streamed text');
  assert.deepEqual(b.take(), [{ op: 'panel', panel: { usage: { used: 30, size: 100 } } }]);
});

test('terminal output coalesces per terminal and carries the exit status', () => {
  const b = new PatchBatcher();
  b.terminal('t1', 'a');
  b.terminal('t2', 'x');
  b.terminal('t1', 'b');
  b.terminal('t1', '', { exitCode: 0, signal: null });
  assert.deepEqual(b.take(), [
    { op: 'terminal', terminalId: 't1', append: 'ab', exit: { exitCode: 0, signal: null } },
    { op: 'terminal', terminalId: 't2', append: 'x' },
  ]);
});

test('a batch of only a little appended text waits; anything structural goes at once', () => {
  const b = new PatchBatcher();
  assert.equal(b.shouldPost(1000), false, 'nothing pending, nothing to post');
  b.updated(msg('k', 'abc'), 'abc');
  assert.equal(b.shouldPost(16), false, 'a few characters wait for more');
  assert.equal(b.shouldPost(100), true, 'but not longer than the maximum delay');
  b.updated(msg('k', 'abc' + 'x'.repeat(200)), 'x'.repeat(200));
  assert.equal(b.shouldPost(16), true, 'enough text is worth a post');
  b.take();
  b.updated(msg('k', 'y'), 'y');
  b.panelChanged({ turn: 'idle' });
  assert.equal(b.shouldPost(0), true, 'the end of a turn is not held back');
  b.take();
  b.terminal('t', 'z', { exitCode: 0, signal: null });
  assert.equal(b.shouldPost(0), true, 'an exit status is not held back');
});

test('a terminal snapshot (replace) supersedes the pending appends; later appends add to it', () => {
  const b = new PatchBatcher();
  b.terminal('t', 'old ');
  b.terminal('t', 'snapshot', undefined, true);
  b.terminal('t', ' more', { exitCode: 0, signal: null });
  assert.deepEqual(b.take(), [{ op: 'terminal', terminalId: 't', append: 'snapshot more', replace: true, exit: { exitCode: 0, signal: null } }]);
});

test('a Changes summary is one changeSet op per set: a newer state of a pending set replaces it, and it goes out on the next frame', () => {
  const b = new PatchBatcher();
  const set = (state: 'pending' | 'undone') => ({
    id: 'c1',
    afterKey: 'k',
    files: [{ path: 'a.ts', state, source: 'write' as const, created: false, added: 1, removed: 0, note: null, canUndo: state === 'pending', canDiff: true }],
  });
  b.changeSet('c1', set('pending'));
  b.changeSet('c2', null);
  b.changeSet('c1', set('undone'));
  assert.equal(b.shouldPost(0), true);
  assert.deepEqual(b.take(), [
    { op: 'changeSet', id: 'c1', set: set('undone') },
    { op: 'changeSet', id: 'c2', set: null },
  ]);
  assert.equal(b.isEmpty, true);
});

test('text appended to a thought carries the span\'s new end (the webview\'s "Thought for N s")', () => {
  const thought = (text: string, last: number): MessageEntry => ({ ...msg('t', text), kind: 'agent_thought', stats: { ...stats, firstSeen: 0, lastSeen: last } });
  const b = holding('t');
  b.updated(thought('ab', 4000), 'ab');
  b.updated(thought('abc', 9000), 'c');
  assert.deepEqual(b.take(), [{ op: 'fields', h: 0, patch: { appendText: 'abc', nested: { span: { set: { last: 9000 } } } } }]);
  b.updated(msg('t', 'abcd'), 'd');
  assert.deepEqual(b.take(), [{ op: 'appendText', h: 0, text: 'd' }], 'other messages have no span');
});
