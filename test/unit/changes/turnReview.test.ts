// When the review counts a turn (turnReview.ts): work after a turn of ours ended (a background subagent's
// edit) is a turn of its own for the review, from when the chat shows background work to when it is quiet,
// and names the subagent's cards; background work that starts while our turn's review is still ending waits
// for it; a prompt sent meanwhile ends it first. A subagent reused in our next turn names its earlier card.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TurnReview } from '../../../src/node/chat/turnReview';
import { editCapture, memoryReview } from '../helpers/editCapture';

function setup() {
  const c = editCapture();
  const disk = new Map<string, string>();
  const review = memoryReview(disk, { agentName: () => 'Claude', shownPath: (p) => p });
  const turns = new TurnReview(c.store, review, () => undefined);
  c.feed(...c.newSession('P'));
  const card = () => c.store.session('P')?.entries.find((e) => e.kind === 'subagent')?.key;
  const calls = () => c.store.session('C')?.entries.flatMap((e) => (e.kind === 'tool_call' ? [e.key] : [])) ?? [];
  const tools = () => review.state.sets.map((s) => s.files.map((f) => [f.path, s.ended, f.tools]));
  // The child's edits, as tool_call updates.
  const edit = (id: string, file: string) => c.update('C', c.edit(id, file));
  return { ...c, edit, disk, review, turns, card, calls, tools };
}

test('a background subagent’s edit after its turn ended gets a summary of its own naming its cards; a prompt ends that work’s review first', async () => {
  const t = setup();
  await t.turns.started('P');
  t.feed(t.subagent('P', 'C', { state: 'running' }, 'Helper'));
  // The background starts while our turn's review is still to end: it waits for it.
  t.turns.backgroundChanged('P', true);
  await t.turns.ended('P');
  assert.deepEqual(
    t.review.state.sets.map((s) => [s.ended, s.files.length]),
    [[false, 0]],
    'our turn edited nothing (no summary); the background work’s review has begun',
  );
  t.disk.set('/w/late.txt', 'b\n');
  t.feed(t.edit('t1', 'late.txt'));
  t.turns.backgroundChanged('P', false);
  await t.turns.started('P'); // waits for the background's review
  assert.deepEqual(t.tools()[0], [['/w/late.txt', true, [t.card(), t.calls()[0]]]]);
  // Reused in this turn: its new edit names the card of the earlier turn.
  t.disk.set('/w/again.txt', 'b\n');
  t.feed(t.subagent('P', 'C', { state: 'running' }), t.edit('t2', 'again.txt'));
  await t.turns.ended('P');
  assert.deepEqual(t.tools()[1], [['/w/again.txt', true, [t.card(), t.calls()[1]]]]);
});

test('a prompt while background work runs ends its review before our turn starts', async () => {
  const t = setup();
  t.feed(t.subagent('P', 'C', { state: 'running' }, 'Helper'));
  t.turns.backgroundChanged('P', true);
  t.disk.set('/w/bg.txt', 'b\n');
  t.feed(t.edit('t1', 'bg.txt'));
  await t.turns.started('P');
  t.review.wrote('P', '/w/ours.txt', null, 'ours\n', null);
  await t.turns.ended('P');
  assert.deepEqual(
    t.review.state.sets.map((s) => s.files.map((f) => f.path)),
    [['/w/bg.txt'], ['/w/ours.txt']],
  );
});
