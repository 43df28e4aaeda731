// A turn's entries for its Changes review (turnEntries.ts): a subagent reused from an earlier turn, and a
// background subagent still editing after its turn ended, have their cards in that earlier turn; their
// new edits are this turn's and name the card and the child's own tool card (toolKeysByPath).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markTurn, sinceMark } from '../../../src/common/changes/turnEntries';
import { toolKeysByPath } from '../../../src/common/changes/toolCards';
import { editCapture } from '../helpers/editCapture';

function chat() {
  const c = editCapture();
  c.feed(
    ...c.newSession('P'),
    c.subagent('P', 'C', { state: 'running' }, 'Helper'),
    c.update('C', c.edit('t1', 'one.txt')),
    c.subagent('P', 'C', { state: 'idle', stopReason: 'end_turn' }),
  );
  const keys = () => {
    const card = c.store.session('P')?.entries.find((e) => e.kind === 'subagent');
    const calls = c.store.session('C')?.entries.filter((e) => e.kind === 'tool_call') ?? [];
    return { card: card?.key, calls: calls.map((x) => x.key) };
  };
  return { ...c, keys };
}

test('a subagent reused in a later turn: its new edit names its card from the earlier turn and its own tool card', () => {
  const { store, feed, keys, update, edit, subagent } = chat();
  assert.equal(store.session('C')?.parentSessionId, 'P');
  const mark = markTurn(store, 'P');
  feed(
    update('P', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Asking the helper again.' } }),
    subagent('P', 'C', { state: 'running' }),
    update('C', edit('t2', 'two.txt')),
  );
  const { entries, children } = sinceMark(store, 'P', mark);
  const { card, calls } = keys();
  assert.equal(entries[0]?.key, card, 'the earlier card leads the turn');
  assert.deepEqual(
    toolKeysByPath(entries, (p) => p, children),
    [{ path: '/w/two.txt', keys: [card, calls[1]] }],
    "only this turn's edit, on both cards",
  );
});

test('a background subagent editing after its turn ended: the work after the turn names its card; a quiet subagent is not walked', () => {
  const { store, feed, keys, update, edit } = chat();
  const quiet = sinceMark(store, 'P', markTurn(store, 'P'));
  assert.deepEqual(quiet.entries, [], 'nothing since: the card is not part of it');
  const mark = markTurn(store, 'P');
  feed(update('C', edit('t3', 'three.txt')));
  const { entries, children } = sinceMark(store, 'P', mark);
  const { card, calls } = keys();
  assert.deepEqual(
    toolKeysByPath(entries, (p) => p, children),
    [{ path: '/w/three.txt', keys: [card, calls[1]] }],
  );
});

test('a subagent’s edit waiting on a permission when the turn ended, allowed after it: the later work’s part holds it', () => {
  const { store, feed, keys, update, edit } = chat();
  feed(update('C', { ...edit('t4', 'four.txt'), status: 'pending' }));
  const mark = markTurn(store, 'P');
  assert.deepEqual(sinceMark(store, 'P', mark).entries, [], 'still waiting: not part of it yet');
  feed(update('C', { sessionUpdate: 'tool_call_update', toolCallId: 't4', status: 'completed' }));
  const { entries, children } = sinceMark(store, 'P', mark);
  const { card, calls } = keys();
  assert.deepEqual(
    toolKeysByPath(entries, (p) => p, children),
    [{ path: '/w/four.txt', keys: [card, calls[1]] }],
  );
});
