// Undo All of a turn in one step: one edit over every file (restoreAll once), one question only when a
// file was edited since the agent (declined: nothing written), the user's edits kept in such a file with
// only the agent's untouched hunks undone, and files that would lose text left alone with why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeReview, type ReviewPorts } from '../../../src/common/changes/review';
import { planUndoAll } from '../../../src/common/changes/undoAll';

const before = 'one\ntwo\nthree\nfour\nfive\n';
const agents = 'ONE\ntwo\nthree\nfour\nFIVE\n';

function setup(answer: boolean) {
  const disk = new Map<string, string>([
    ['/w/a.txt', before],
    ['/w/b.txt', 'b\n'],
  ]);
  const calls: string[] = [];
  const asked: string[] = [];
  const explained: string[] = [];
  const ports: ReviewPorts = {
    files: {
      read: async (p) => disk.get(p) ?? null,
      restore: async (p) => void calls.push(`restore ${p}`),
      restoreAll: async (items, label) => {
        calls.push(`restoreAll ${items.map((i) => i.path).join(' ')}: ${label}`);
        for (const i of items)
          if (i.text === null) disk.delete(i.path);
          else disk.set(i.path, i.text);
      },
      mayRestore: async () => true,
    },
    agentName: () => 'Demo',
    canonical: (p) => p,
    shownPath: (p) => p.replace(/^\/w\//, ''),
    openDiff: () => undefined,
    confirm: async (message) => {
      asked.push(message);
      return answer;
    },
    explain: (m) => void explained.push(m),
    save: () => undefined,
    log: () => undefined,
  };
  const review = new ChangeReview(ports);
  return { review, disk, calls, asked, explained };
}

async function turn(t: ReturnType<typeof setup>) {
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/a.txt', before, agents, null);
  t.disk.set('/w/a.txt', agents);
  t.review.wrote('s', '/w/b.txt', 'b\n', 'B\n', null);
  t.disk.set('/w/b.txt', 'B\n');
  t.review.wrote('s', '/w/new.txt', null, 'new\n', null);
  t.disk.set('/w/new.txt', 'new\n');
  await t.review.turnEnded('s', [], 'k1');
}

test('files nobody touched since: one edit over all of them, no question', async () => {
  const t = setup(false);
  await turn(t);
  await t.review.act('c1', null, 'undo');
  assert.deepEqual(t.asked, []);
  assert.deepEqual(t.calls, ["restoreAll /w/a.txt /w/b.txt /w/new.txt: Undo Demo's edits of this turn"]);
  assert.deepEqual([t.disk.get('/w/a.txt'), t.disk.get('/w/b.txt'), t.disk.has('/w/new.txt')], [before, 'b\n', false]);
  assert.deepEqual(
    t.review.views('s')[0]?.files.map((f) => f.state),
    ['undone', 'undone', 'undone'],
  );
});

test("a file edited since: asked once; yes keeps the user's edit and undoes the agent's other hunk, in the same one edit", async () => {
  const t = setup(true);
  await turn(t);
  t.disk.set('/w/a.txt', agents.replace('ONE', 'ONE, mine'));
  await t.review.act('c1', null, 'undo');
  assert.equal(t.asked.length, 1);
  assert.match(t.asked[0] ?? '', /^a\.txt changed after Demo's edit\. Undo All keeps your edits there .*\(1 change on lines you edited stays to review\)/);
  assert.equal(t.calls.length, 1, 'one edit');
  assert.equal(t.disk.get('/w/a.txt'), 'ONE, mine\ntwo\nthree\nfour\nfive\n');
  assert.equal(t.disk.get('/w/b.txt'), 'b\n');
  const files = t.review.views('s')[0]?.files ?? [];
  assert.deepEqual(
    files.map((f) => [f.path, f.state, f.hunks?.undone ?? 0]),
    [
      ['a.txt', 'pending', 1],
      ['b.txt', 'undone', 0],
      ['new.txt', 'undone', 0],
    ],
  );
});

test('declined: nothing is written and nothing changes state', async () => {
  const t = setup(false);
  await turn(t);
  t.disk.set('/w/a.txt', agents.replace('FIVE', 'FIVE!'));
  await t.review.act('c1', null, 'undo');
  assert.equal(t.asked.length, 1);
  assert.deepEqual(t.calls, []);
  assert.deepEqual(
    t.review.views('s')[0]?.files.map((f) => f.state),
    ['pending', 'pending', 'pending'],
  );
});

test('the plan leaves alone what would lose text, and says why', () => {
  const file = (path: string, oldText: string | null, agentText: string) =>
    ({ path, oldText, agentText, source: 'write', state: 'pending', note: null, blocked: null, added: 1, removed: 1 }) as const;
  const now = new Map<string, string | null | undefined>([
    ['/gone', null],
    ['/created', 'changed\n'],
    ['/unreadable', undefined],
    ['/all-mine', 'mine\n'],
  ]);
  const plan = planUndoAll([file('/gone', 'x\n', 'y\n'), file('/created', null, 'new\n'), file('/unreadable', 'x\n', 'y\n'), file('/all-mine', 'x\n', 'y\n')], (p) => now.get(p));
  assert.deepEqual(plan.writes, []);
  assert.deepEqual(
    plan.left.map((l) => [l.path, l.why]),
    [
      ['/gone', 'deleted'],
      ['/created', 'created'],
      ['/unreadable', 'unreadable'],
      ['/all-mine', 'edited'],
    ],
  );
});
