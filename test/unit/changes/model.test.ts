// The per-turn change sets: first old text and latest agent text per file, writes over reported diffs,
// Keep/Undo/conflict states, empty turns dropped, bounded history, saved and restored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_CHANGES, MAX_SETS, reduceChanges, type ChangesAction, type ChangesState } from '../../../src/common/changes/model';
import { restoreChanges, savedChanges } from '../../../src/common/changes/persist';
import { sessionViews } from '../../../src/common/changes/view';

const run = (...actions: ChangesAction[]): ChangesState => actions.reduce(reduceChanges, EMPTY_CHANGES);
const same = (p: string) => p;

test('a turn keeps the text before its first write and the latest written text; the summary appears when the turn ends', () => {
  const s1 = run(
    { type: 'turnStarted', sessionId: 's' },
    { type: 'wrote', sessionId: 's', path: '/w/a.ts', oldText: 'one\n', newText: 'two\n', afterKey: null },
    { type: 'wrote', sessionId: 's', path: '/w/a.ts', oldText: 'two\n', newText: 'three\nfour\n', afterKey: null },
    { type: 'wrote', sessionId: 's', path: '/w/new.ts', oldText: null, newText: 'x\n', afterKey: null },
  );
  assert.deepEqual(sessionViews(s1, 's', same), [], 'nothing is shown while the turn runs');
  const s2 = reduceChanges(s1, { type: 'turnEnded', sessionId: 's', afterKey: 'k9', reported: [] });
  const [set] = s2.sets;
  assert.ok(set);
  assert.equal(set.ended, true);
  assert.equal(set.afterKey, 'k9');
  assert.deepEqual(
    set.files.map((f) => [f.path, f.oldText, f.agentText, f.source, f.state, f.added, f.removed]),
    [
      ['/w/a.ts', 'one\n', 'three\nfour\n', 'write', 'pending', 2, 1],
      ['/w/new.ts', null, 'x\n', 'write', 'pending', 1, 0],
    ],
  );
  const [view] = sessionViews(s2, 's', (p) => p.replace('/w/', ''));
  assert.deepEqual(
    view?.files.map((f) => [f.path, f.created, f.canUndo, f.canDiff]),
    [
      ['a.ts', false, true, true],
      ['new.ts', true, true, true],
    ],
  );
  assert.deepEqual(sessionViews(s2, 'other', same), [], 'another session shows none of it');
});

test('a reported diff is added at the end of the turn, unless the file was written (a write is exact)', () => {
  const s = run(
    { type: 'turnStarted', sessionId: 's' },
    { type: 'wrote', sessionId: 's', path: '/w/a.ts', oldText: 'a\n', newText: 'b\n', afterKey: null },
    {
      type: 'turnEnded',
      sessionId: 's',
      afterKey: 'k',
      reported: [
        { path: '/w/a.ts', oldText: 'zzz', agentText: 'b\n', blocked: null },
        { path: '/w/b.ts', oldText: 'x', agentText: 'y', blocked: null },
        { path: '/etc/c', oldText: 'x', agentText: 'y', blocked: 'outside' },
      ],
    },
  );
  const files = s.sets[0]?.files ?? [];
  assert.deepEqual(
    files.map((f) => [f.path, f.oldText, f.source]),
    [
      ['/w/a.ts', 'a\n', 'write'],
      ['/w/b.ts', 'x', 'diff'],
      ['/etc/c', 'x', 'diff'],
    ],
  );
  const view = sessionViews(s, 's', same)[0]?.files ?? [];
  assert.deepEqual(
    view.map((f) => [f.canUndo, f.note]),
    [
      [true, null],
      [true, null],
      [false, 'outside'],
    ],
  );
});

test('a turn that edited nothing leaves no summary; a turn that never ended is closed by the next one', () => {
  assert.deepEqual(run({ type: 'turnStarted', sessionId: 's' }, { type: 'turnEnded', sessionId: 's', afterKey: 'k', reported: [] }).sets, []);
  const s = run(
    { type: 'turnStarted', sessionId: 's' },
    { type: 'wrote', sessionId: 's', path: '/a', oldText: '1', newText: '2', afterKey: null },
    { type: 'turnStarted', sessionId: 's' },
  );
  assert.deepEqual(
    s.sets.map((c) => [c.id, c.ended, c.files.length]),
    [
      ['c1', true, 1],
      ['c2', false, 0],
    ],
  );
});

test('a write outside any turn gets a summary of its own, after the given entry', () => {
  const s = run({ type: 'wrote', sessionId: 's', path: '/a', oldText: '1', newText: '2', afterKey: 'last' });
  assert.deepEqual(
    s.sets.map((c) => [c.ended, c.afterKey]),
    [[true, 'last']],
  );
});

test('Keep, Undo and conflicts: per file and for all; settled files stay settled', () => {
  const s0 = run(
    { type: 'turnStarted', sessionId: 's' },
    { type: 'wrote', sessionId: 's', path: '/a', oldText: '1', newText: '2', afterKey: null },
    { type: 'wrote', sessionId: 's', path: '/b', oldText: '1', newText: '2', afterKey: null },
    { type: 'wrote', sessionId: 's', path: '/c', oldText: '1', newText: '2', afterKey: null },
    { type: 'turnEnded', sessionId: 's', afterKey: 'k', reported: [] },
  );
  const s1 = [
    { type: 'conflict', setId: 'c1', path: '/a', note: 'changed since' },
    { type: 'undone', setId: 'c1', path: '/b' },
  ].reduce((s, a) => reduceChanges(s, a as ChangesAction), s0);
  assert.deepEqual(
    s1.sets[0]?.files.map((f) => [f.state, f.note]),
    [
      ['conflict', 'changed since'],
      ['undone', null],
      ['pending', null],
    ],
  );
  const s2 = reduceChanges(s1, { type: 'kept', setId: 'c1', path: null });
  assert.deepEqual(
    s2.sets[0]?.files.map((f) => f.state),
    ['kept', 'undone', 'kept'],
    'Keep All keeps what is open, an undone file stays undone',
  );
  assert.equal(reduceChanges(s2, { type: 'undone', setId: 'c1', path: '/a' }), s2, 'a kept file is not undone later; nothing changed is the same state');
  assert.equal(reduceChanges(s2, { type: 'kept', setId: 'nope', path: null }), s2);
  assert.deepEqual(
    sessionViews(s2, 's', same)[0]?.files.map((f) => f.canUndo),
    [false, false, false],
  );
});

test('history is bounded: the oldest ended sets go first, the running turn stays', () => {
  let s = EMPTY_CHANGES;
  for (let i = 0; i < MAX_SETS + 5; i++) {
    s = reduceChanges(s, { type: 'turnStarted', sessionId: 's' });
    s = reduceChanges(s, { type: 'wrote', sessionId: 's', path: `/f${i}`, oldText: '', newText: 'x', afterKey: null });
  }
  assert.equal(s.sets.length, MAX_SETS);
  assert.equal(s.sets.at(-1)?.ended, false);
  assert.equal(s.sets[0]?.files[0]?.path, '/f5');
});

test('saved and restored: the same sets; a running turn comes back ended; big histories keep the newest; bad input is dropped with a reason', () => {
  const s = run(
    { type: 'turnStarted', sessionId: 's' },
    { type: 'wrote', sessionId: 's', path: '/a', oldText: 'old', newText: 'new', afterKey: null },
    { type: 'turnEnded', sessionId: 's', afterKey: 'k', reported: [] },
    { type: 'turnStarted', sessionId: 's' },
    { type: 'wrote', sessionId: 's', path: '/b', oldText: 'x'.repeat(100), newText: 'y', afterKey: null },
  );
  const back = restoreChanges(JSON.parse(JSON.stringify(savedChanges(s))));
  assert.equal(back.problem, null);
  assert.equal(back.state.seq, s.seq);
  assert.deepEqual(
    back.state.sets.map((c) => [c.id, c.ended]),
    [
      ['c1', true],
      ['c2', true],
    ],
  );
  assert.deepEqual(back.state.sets[0], s.sets[0]);
  // c2 holds 103 characters, c1 8.
  assert.deepEqual(savedChanges(s, 50).sets, [], 'the newest set alone is over the limit: nothing fits');
  assert.deepEqual(
    savedChanges(s, 105).sets.map((c) => c.id),
    ['c2'],
  );
  assert.deepEqual(
    savedChanges(s, 111).sets.map((c) => c.id),
    ['c1', 'c2'],
  );
  assert.deepEqual(restoreChanges(undefined), { state: EMPTY_CHANGES, problem: null });
  const bad = restoreChanges({ v: 1, seq: 1, sets: [{ id: 'c1', files: 'nope' }] });
  assert.equal(bad.state, EMPTY_CHANGES);
  assert.match(bad.problem ?? '', /unreadable/);
});
