// Rewind: the Changes of every turn after the branch point are undone newest first as one restore per
// file (back to the text before the oldest edit), files changed since are refused by name, declining
// changes nothing, and turns before the branch point are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RewindOffer } from '../../../src/common/changes/review';
import { memoryReview } from '../helpers/editCapture';
import { rewindTargets } from '../../../src/common/changes/rewind';

function setup(files: Record<string, string>) {
  const disk = new Map(Object.entries(files));
  const batches: { path: string; text: string | null }[][] = [];
  const review = memoryReview(
    disk,
    {},
    {
      restore: async () => assert.fail('a rewind restores as one edit'),
      restoreAll: async (items) => {
        batches.push([...items]);
        for (const i of items) i.text === null ? disk.delete(i.path) : disk.set(i.path, i.text);
      },
    },
  );
  return { review, disk, batches };
}

/** One turn writing `writes` (path -> new text), its summary shown after entry `key`. */
async function turn(t: ReturnType<typeof setup>, key: string, writes: Record<string, string>) {
  t.review.turnStarted('s');
  for (const [p, text] of Object.entries(writes)) {
    t.review.wrote('s', p, t.disk.get(p) ?? null, text, null);
    t.disk.set(p, text);
  }
  await t.review.turnEnded('s', [], key);
}

test('three turns, branching after the first: the later two are undone as one edit, the first is kept', async () => {
  const t = setup({ '/w/a': 'a0', '/w/b': 'b0' });
  await turn(t, 'k1', { '/w/a': 'a1' });
  await turn(t, 'k2', { '/w/a': 'a2', '/w/new': 'n2' });
  await turn(t, 'k3', { '/w/a': 'a3', '/w/b': 'b3' });
  let offered: RewindOffer | undefined;
  const undone = await t.review.rewind('s', new Set(['k2', 'k3']), async (o) => ((offered = o), true));
  assert.deepEqual(offered, { files: ['a', 'b', 'new'], refused: [] });
  assert.deepEqual([...undone].sort(), ['a', 'b', 'new']);
  assert.equal(t.batches.length, 1, 'one workspace edit');
  assert.equal(t.disk.get('/w/a'), 'a1', 'back to before the second turn, not before the first');
  assert.equal(t.disk.get('/w/b'), 'b0');
  assert.equal(t.disk.has('/w/new'), false, 'a file a later turn created is deleted');
  const states = t.review.views('s').map((v) => v.files.map((f) => `${f.path}:${f.state}`));
  assert.deepEqual(states, [['a:pending'], ['a:undone', 'new:undone'], ['a:undone', 'b:undone']]);
});

test('a file changed since is refused by name and left alone; the others still go back', async () => {
  const t = setup({ '/w/a': 'a0', '/w/b': 'b0' });
  await turn(t, 'k1', { '/w/a': 'a1', '/w/b': 'b1' });
  t.disk.set('/w/b', 'b1 + my own edit');
  let offered: RewindOffer | undefined;
  await t.review.rewind('s', new Set(['k1']), async (o) => ((offered = o), true));
  assert.deepEqual(offered?.files, ['a']);
  assert.deepEqual(offered?.refused, [{ path: 'b', why: "it changed after Demo's edit" }]);
  assert.equal(t.disk.get('/w/a'), 'a0');
  assert.equal(t.disk.get('/w/b'), 'b1 + my own edit');
});

test('declining keeps every file; nothing to undo asks nothing', async () => {
  const t = setup({ '/w/a': 'a0' });
  await turn(t, 'k1', { '/w/a': 'a1' });
  assert.deepEqual(await t.review.rewind('s', new Set(['k1']), async () => false), []);
  assert.equal(t.disk.get('/w/a'), 'a1');
  assert.deepEqual(await t.review.rewind('s', new Set(['other']), async () => assert.fail('nothing to offer')), []);
});

test('turns that do not chain (the file was edited between them) are refused, not guessed at', () => {
  const set = (id: string, afterKey: string, oldText: string, agentText: string) => ({
    id,
    sessionId: 's',
    afterKey,
    ended: true,
    files: [{ path: '/w/a', oldText, agentText, source: 'write' as const, state: 'pending' as const, note: null, blocked: null, added: 0, removed: 0 }],
  });
  const r = rewindTargets({ sets: [set('c1', 'k1', 'a0', 'a1'), set('c2', 'k2', 'a1 + mine', 'a2')], seq: 2 }, 's', new Set(['k1', 'k2']));
  assert.deepEqual(r, { files: [], refused: [{ path: '/w/a', why: 'it was changed between two of the turns' }] });
});
