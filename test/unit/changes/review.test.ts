// The review with files in memory: Undo restores the previous text only when the file still holds the
// agent's version, explains otherwise (offering the comparison), Undo All reports what it left alone,
// reported diffs are resolved at the end of the turn, and every summary change reaches the listener.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeReview, type ReviewChange, type ReviewPorts } from '../../../src/common/changes/review';
import type { ChangesState } from '../../../src/common/changes/model';
import type { ToolCallEntry } from '../../../src/common/store/model';
import { toolCallEntry } from '../helpers/toolCallEntry';

function setup(files: Record<string, string>, opts: { outside?: string[]; failRestore?: boolean } = {}) {
  const disk = new Map(Object.entries(files));
  const explained: { message: string; compare: boolean }[] = [];
  const diffs: string[] = [];
  const saved: ChangesState[] = [];
  const restores: string[] = [];
  const flushed: number[] = [];
  const ports: ReviewPorts = {
    files: {
      read: async (p) => disk.get(p) ?? null,
      restore: async (p, text, label) => {
        if (opts.failRestore) throw new Error('disk full');
        restores.push(label);
        if (text === null) disk.delete(p);
        else disk.set(p, text);
      },
      mayRestore: async (p) => !(opts.outside ?? []).includes(p),
    },
    agentName: () => 'Demo',
    canonical: (p) => p.replace(/\/\.\//g, '/'),
    shownPath: (p) => p.replace(/^\/w\//, ''),
    openDiff: (_p, left, right, title) => diffs.push(`${title}: ${left} | ${right}`),
    explain: (message, compare) => {
      explained.push({ message, compare: compare !== undefined });
      compare?.();
    },
    save: (s) => saved.push(s),
    flush: () => flushed.push(saved.length),
    log: () => undefined,
  };
  const review = new ChangeReview(ports);
  const events: ReviewChange[] = [];
  review.onDidChange((e) => events.push(e));
  return { review, disk, explained, diffs, saved, events, restores, flushed };
}

/** A turn in which the agent wrote `/w/a.txt` (through the client) and created `/w/new.txt`. */
async function writeTurn(t: ReturnType<typeof setup>) {
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/./a.txt', 'one\n', 'one\ntwo\n', null);
  t.disk.set('/w/a.txt', 'one\ntwo\n');
  t.review.wrote('s', '/w/new.txt', null, 'fresh\n', null);
  t.disk.set('/w/new.txt', 'fresh\n');
  await t.review.turnEnded('s', [], 'k1');
}

test('the summary is announced once when the turn ends, and saved', async () => {
  const t = setup({ '/w/a.txt': 'one\n' });
  await writeTurn(t);
  assert.equal(t.events.length, 1);
  assert.deepEqual(
    t.events[0]?.view?.files.map((f) => f.path),
    ['a.txt', 'new.txt'],
  );
  assert.equal(t.events[0]?.view?.afterKey, 'k1');
  assert.ok(t.saved.length > 0);
  assert.deepEqual(
    t.review.views('s').map((v) => v.id),
    ['c1'],
  );
});

test("Undo restores the previous text (and deletes a created file) when the file holds the agent's version", async () => {
  const t = setup({ '/w/a.txt': 'one\n' });
  await writeTurn(t);
  await t.review.act('c1', 0, 'undo');
  await t.review.act('c1', 1, 'undo');
  assert.equal(t.disk.get('/w/a.txt'), 'one\n');
  assert.equal(t.disk.has('/w/new.txt'), false);
  assert.deepEqual(t.restores, ["Undo Demo's edit to a.txt", "Undo Demo's edit to new.txt"]);
  assert.deepEqual(
    t.events.at(-1)?.view?.files.map((f) => [f.state, f.canUndo]),
    [
      ['undone', false],
      ['undone', false],
    ],
  );
  assert.deepEqual(t.explained, []);
  await t.review.act('c1', 0, 'undo');
  assert.equal(t.restores.length, 2, 'an undone file is not undone twice');
});

test("a file changed after the agent's edit is left alone: the row and a message say why, with a comparison", async () => {
  const t = setup({ '/w/a.txt': 'one\n' });
  await writeTurn(t);
  t.disk.set('/w/a.txt', 'one\ntwo\nmine\n');
  await t.review.act('c1', 0, 'undo');
  assert.equal(t.disk.get('/w/a.txt'), 'one\ntwo\nmine\n', 'not overwritten');
  const row = t.events.at(-1)?.view?.files[0];
  assert.equal(row?.state, 'conflict');
  assert.match(row?.note ?? '', /a\.txt changed after Demo's edit, so Undo left it alone/);
  assert.equal(row?.canUndo, true, 'Undo can be tried again once the file is back');
  assert.deepEqual(
    t.explained.map((e) => e.compare),
    [true],
  );
  assert.deepEqual(t.diffs, ["a.txt: Demo's version \u2194 now: one\ntwo\n | one\ntwo\nmine\n"]);
  // Put back by hand: Undo works again.
  t.disk.set('/w/a.txt', 'one\ntwo\n');
  await t.review.act('c1', 0, 'undo');
  assert.equal(t.disk.get('/w/a.txt'), 'one\n');
});

test('Undo All undoes what it can and names what it left alone; Keep All settles the rest', async () => {
  const t = setup({ '/w/a.txt': 'one\n' });
  await writeTurn(t);
  t.disk.set('/w/new.txt', 'edited by me\n');
  await t.review.act('c1', null, 'undo');
  assert.equal(t.disk.get('/w/a.txt'), 'one\n');
  assert.equal(t.disk.get('/w/new.txt'), 'edited by me\n');
  assert.deepEqual(
    t.explained.map((e) => e.message),
    ['Undid 1 of 2 files. Left alone: new.txt (was created by Demo and changed since: deleting it would lose those changes, so Undo left it alone; Keep accepts it as it is).'],
  );
  await t.review.act('c1', null, 'keep');
  assert.deepEqual(
    t.events.at(-1)?.view?.files.map((f) => f.state),
    ['undone', 'kept'],
  );
});

test("Keep changes no file; Open diff shows the previous text beside the agent's", async () => {
  const t = setup({ '/w/a.txt': 'one\n' });
  await writeTurn(t);
  await t.review.act('c1', 0, 'keep');
  await t.review.act('c1', 0, 'openDiff');
  await t.review.act('c1', 1, 'openDiff');
  assert.equal(t.disk.get('/w/a.txt'), 'one\ntwo\n');
  assert.deepEqual(t.diffs, ["a.txt: before \u2194 Demo's edit: one\n | one\ntwo\n", "new.txt: before \u2194 Demo's edit:  | fresh\n"]);
  assert.deepEqual(
    t.events.at(-1)?.view?.files.map((f) => f.state),
    ['kept', 'pending'],
  );
});

test('a failed restore is a conflict with the reason, and nothing is lost', async () => {
  const t = setup({ '/w/a.txt': 'one\n' }, { failRestore: true });
  await writeTurn(t);
  await t.review.act('c1', 0, 'undo');
  assert.match(t.events.at(-1)?.view?.files[0]?.note ?? '', /Could not undo Demo's edit to a\.txt: disk full/);
  assert.equal(t.disk.get('/w/a.txt'), 'one\ntwo\n');
});

test('diffs the agent reported are resolved against the files when the turn ends', async () => {
  const tool = (key: string, path: string, oldText: string, newText: string): ToolCallEntry =>
    toolCallEntry(key, { title: 'Edit', content: [{ type: 'diff', path, oldText, newText }] });
  const t = setup({ '/w/f.txt': 'hello\nupdated\n', '/w/gone.txt': 'other', '/etc/out.txt': 'b' }, { outside: ['/etc/out.txt'] });
  t.review.turnStarted('s');
  const v2 = { ...tool('t4', '/w/v2.txt', '', ''), content: [{ type: 'diff' as const, changes: [{ operation: 'modify', path: '/w/v2.txt' }], patch: null }] };
  await t.review.turnEnded('s', [tool('t1', '/w/f.txt', 'hello', 'hello\nupdated'), tool('t2', '/w/gone.txt', 'x', 'y'), tool('t3', '/etc/out.txt', 'a', 'b'), v2], 't4');
  const files = t.review.state.sets[0]?.files ?? [];
  assert.deepEqual(
    files.map((f) => [f.path, f.source, f.oldText, f.agentText]),
    [
      ['/w/f.txt', 'diff', 'hello\n', 'hello\nupdated\n'],
      ['/w/gone.txt', 'diff', 'x', 'y'],
      ['/etc/out.txt', 'diff', 'a', 'b'],
      ['/w/v2.txt', 'diff', null, null],
    ],
  );
  const view = t.review.views('s')[0]?.files ?? [];
  assert.deepEqual(
    view.map((f) => [f.canUndo, f.canDiff]),
    [
      [true, true],
      [false, true],
      [false, true],
      [false, false],
    ],
  );
  assert.match(view[3]?.note ?? '', /reported this change without the file's text/);
  assert.match(view[1]?.note ?? '', /no longer holds what Demo reported/);
  assert.match(view[2]?.note ?? '', /outside the workspace/);
  await t.review.act('c1', 0, 'undo');
  assert.equal(t.disk.get('/w/f.txt'), 'hello\n');
});

test('disposing the review flushes a deferred save once', async () => {
  const t = setup({ '/w/a.txt': 'one\n' });
  await writeTurn(t);
  t.review.dispose();
  t.review.dispose();
  assert.deepEqual(t.flushed, [t.saved.length]);
});
