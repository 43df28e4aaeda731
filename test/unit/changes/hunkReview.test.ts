// Keep and Undo of single hunks through the review: the summary's state and line counts follow (one
// owner: the change sets), Undo edits only the hunk's lines of the file now, a hunk the user edited
// since is refused with the reason, a stale hunk is refused, and the file settles when no hunk is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeReview, type ReviewChange } from '../../../src/common/changes/review';
import { computeHunks } from '../../../src/common/changes/hunks';
import { restoreChanges, savedChanges } from '../../../src/common/changes/persist';
import { createPatch } from 'diff';
import type { ToolCallEntry } from '../../../src/common/store/model';
import { toolCallEntry } from '../helpers/toolCallEntry';

function setup(files: Record<string, string>) {
  const disk = new Map(Object.entries(files));
  const ranges: string[] = [];
  const revealed: string[] = [];
  const events: ReviewChange[] = [];
  const review = new ChangeReview({
    files: {
      read: async (p) => disk.get(p) ?? null,
      restore: async (p, text) => void (text === null ? disk.delete(p) : disk.set(p, text)),
      mayRestore: async () => true,
      replaceRange: async (p, expected, from, to, text, label) => {
        assert.equal(disk.get(p), expected, 'the file holds what the hunk was placed on');
        ranges.push(`${label}: ${from}-${to}`);
        disk.set(p, expected.slice(0, from) + text + expected.slice(to));
      },
    },
    agentName: () => 'Demo',
    canonical: (p) => p,
    shownPath: (p) => p.replace(/^\/w\//, ''),
    openDiff: () => undefined,
    reveal: (p, line) => revealed.push(`${p}:${line}`),
    explain: () => undefined,
    save: () => undefined,
    log: () => undefined,
  });
  review.onDidChange((e) => events.push(e));
  return { review, disk, ranges, events, revealed };
}

const before = 'a\nb\nc\nd\ne\n';
const agent = 'a\nB\nc\nd\nE\nf\n';

async function turn(t: ReturnType<typeof setup>) {
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/x.txt', before, agent, null);
  t.disk.set('/w/x.txt', agent);
  await t.review.turnEnded('s', [], 'k1');
  return t.review.state.sets[0]!.id;
}

const file = (t: ReturnType<typeof setup>) => t.review.state.sets[0]!.files[0]!;
const view = (t: ReturnType<typeof setup>) => t.events.at(-1)?.view?.files[0];

test('keeping and undoing hunks one by one updates the summary and settles the file', async () => {
  const t = setup({ '/w/x.txt': before });
  const setId = await turn(t);
  const [h1, h2] = computeHunks(before, agent);
  assert.ok(h1 && h2);
  assert.equal(await t.review.actOnHunk(setId, '/w/x.txt', h1, 'keep'), null);
  assert.equal(t.disk.get('/w/x.txt'), agent, 'Keep writes nothing');
  assert.deepEqual([view(t)?.state, view(t)?.added, view(t)?.removed], ['pending', 2, 1], 'the summary counts what is left');
  assert.equal(await t.review.actOnHunk(setId, '/w/x.txt', h2, 'undo'), null);
  assert.equal(t.disk.get('/w/x.txt'), 'a\nB\nc\nd\ne\n', 'only the undone hunk went back');
  assert.deepEqual(t.ranges, ["Undo Demo's change to x.txt: 8-12"]);
  assert.equal(file(t).state, 'kept', 'one hunk kept: the file counts as kept');
  assert.deepEqual(file(t).hunks, { kept: 1, undone: 1 });
  assert.equal(view(t)?.canUndo, false);
  assert.deepEqual([view(t)?.added, view(t)?.removed], [2, 1], "a settled file still shows a change (its last hunk's texts), not +0 -0");
  // The counts survive a reload.
  assert.deepEqual(restoreChanges(savedChanges(t.review.state)).state.sets[0]?.files[0]?.hunks, { kept: 1, undone: 1 });
});

test('Undo of a hunk the user edited since is refused with the reason; the rest of the file can still be undone', async () => {
  const t = setup({ '/w/x.txt': before });
  const setId = await turn(t);
  t.disk.set('/w/x.txt', 'top\na\nB, mine\nc\nd\nE\nf\n');
  const [h1, h2] = computeHunks(before, agent);
  assert.match((await t.review.actOnHunk(setId, '/w/x.txt', h1!, 'undo')) ?? '', /you edited these lines after Demo's edit, so Undo left them alone/);
  assert.equal(t.disk.get('/w/x.txt'), 'top\na\nB, mine\nc\nd\nE\nf\n');
  assert.equal(await t.review.actOnHunk(setId, '/w/x.txt', h2!, 'undo'), null);
  assert.equal(t.disk.get('/w/x.txt'), 'top\na\nB, mine\nc\nd\ne\n', "both sides kept: the user's lines and the older text");
  assert.equal(file(t).state, 'pending');
  // A hunk already undone is stale now.
  assert.match((await t.review.actOnHunk(setId, '/w/x.txt', h2!, 'undo')) ?? '', /no longer the file's/);
});

test('a created file is one hunk: Keep keeps it, Undo deletes it', async () => {
  const t = setup({});
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/new.txt', null, 'hello\n', null);
  t.disk.set('/w/new.txt', 'hello\n');
  await t.review.turnEnded('s', [], 'k1');
  const setId = t.review.state.sets[0]!.id;
  const [h] = computeHunks('', 'hello\n');
  assert.equal(await t.review.actOnHunk(setId, '/w/new.txt', h!, 'undo'), null);
  assert.equal(t.disk.has('/w/new.txt'), false);
  assert.equal(file(t).state, 'undone');
});

test('Review from the Changes summary opens the file at its first hunk, placed on the text now', async () => {
  const t = setup({ '/w/x.txt': before });
  const setId = await turn(t);
  t.disk.set('/w/x.txt', `mine\n${agent}`);
  await t.review.act(setId, 0, 'review');
  assert.deepEqual(t.revealed, ['/w/x.txt:2']);
});

test('a terminal command that reports its change (a v1 diff, a v2 patch) is reviewed hunk by hunk like an edit', async () => {
  const v1Before = 'a  \nb\nc\nd\ne  \n';
  const v2Before = 'x \ny\nz\nw\nv \n';
  const trim = (s: string) => s.replace(/ +$/gm, '');
  const t = setup({ '/w/one.txt': trim(v1Before), '/w/two.txt': trim(v2Before) });
  t.review.turnStarted('s');
  const run = (key: string, diff: ToolCallEntry['content'][number]) =>
    toolCallEntry(key, { toolKind: 'execute', content: [{ type: 'terminal', terminalId: `term-${key}` }, diff] });
  const patch = createPatch('two.txt', v2Before, trim(v2Before), '', '', { context: 1 });
  await t.review.turnEnded(
    's',
    [
      run('k1', { type: 'diff', path: '/w/one.txt', oldText: v1Before, newText: trim(v1Before) }),
      run('k2', { type: 'diff', changes: [{ operation: 'modify', path: '/w/two.txt' }], patch: { format: 'unified', text: patch } }),
    ],
    'k2',
  );
  const set = t.review.state.sets[0]!;
  assert.deepEqual(
    set.files.map((f) => [f.path, f.oldText, f.tools]),
    [
      ['/w/one.txt', v1Before, ['k1']],
      ['/w/two.txt', v2Before, ['k2']],
    ],
    'both previous texts are known',
  );
  for (const [path, old, lastUndone] of [
    ['/w/one.txt', v1Before, 'a\nb\nc\nd\ne  \n'],
    ['/w/two.txt', v2Before, 'x\ny\nz\nw\nv \n'],
  ] as const) {
    const [first, second] = computeHunks(old, trim(old));
    assert.ok(first && second, `${path}: two hunks`);
    assert.equal(await t.review.actOnHunk(set.id, path, second, 'undo'), null);
    assert.equal(t.disk.get(path), lastUndone, `${path}: only the last hunk is undone`);
    assert.equal(await t.review.actOnHunk(set.id, path, first, 'keep'), null);
  }
  assert.deepEqual(
    t.review.views('s')[0]?.files.map((f) => [f.path, f.state, f.hunks]),
    [
      ['one.txt', 'kept', { kept: 1, undone: 1 }],
      ['two.txt', 'kept', { kept: 1, undone: 1 }],
    ],
  );
});
