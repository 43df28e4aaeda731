// Hunks of an agent's edit: computed, kept and undone one at a time (in any order, both end where they
// should), placed on a file the user edited since (moved with their edits, marked conflict where they
// touched the same lines), and undone there without losing the user's lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computeHunks, keepHunk, placeHunks, splitLines, undoEdit, undoHunk } from '../../../src/common/changes/hunks';

test('lines keep their endings; hunks are the runs of changed lines', () => {
  assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
  assert.deepEqual(splitLines(''), []);
  const hunks = computeHunks('a\nb\nc\nd\ne\n', 'a\nB\nc\nd\ne\nf\n');
  assert.deepEqual(hunks, [
    { oldStart: 1, removed: ['b\n'], newStart: 1, added: ['B\n'] },
    { oldStart: 5, removed: [], newStart: 5, added: ['f\n'] },
  ]);
  assert.deepEqual(computeHunks('same\n', 'same\n'), []);
  assert.deepEqual(computeHunks('', 'new\n'), [{ oldStart: 0, removed: [], newStart: 0, added: ['new\n'] }]);
});

test('Keep folds a hunk into the older text, Undo takes it out of the newer; a stale hunk is refused', () => {
  const older = 'a\nb\nc\n';
  const newer = 'a\nB\nc\nd\n';
  const [first, second] = computeHunks(older, newer);
  assert.ok(first && second);
  assert.equal(keepHunk(older, first), 'a\nB\nc\n');
  assert.equal(undoHunk(newer, second), 'a\nB\nc\n');
  assert.equal(undoHunk('a\nX\nc\n', first), null);
  assert.equal(keepHunk('other\n', first), null);
});

test('a hunk is placed below lines the user added above it, and undone there', () => {
  const older = 'one\ntwo\nthree\n';
  const agent = 'one\nTWO\nthree\n';
  const now = 'mine\none\nTWO\nthree\n';
  const [p] = placeHunks(older, agent, now);
  assert.ok(p);
  assert.equal(p.conflict, false);
  assert.equal(p.line, 2);
  assert.equal(now.slice(p.from, p.to), 'TWO\n');
  const e = undoEdit(p);
  assert.equal(now.slice(0, e.from) + e.text + now.slice(e.to), 'mine\none\ntwo\nthree\n');
});

test('a hunk whose lines the user edited is a conflict; others in the file are not', () => {
  const older = 'a\nb\nc\nd\ne\n';
  const agent = 'a\nB\nc\nd\nE\n';
  const now = 'a\nB!\nc\nd\nE\n';
  const placed = placeHunks(older, agent, now);
  assert.deepEqual(
    placed.map((p) => p.conflict),
    [true, false],
  );
  // An insertion inside the agent's added lines is a conflict too; one right after them is not.
  const agent2 = 'a\nX\nY\nb\n';
  assert.deepEqual(
    placeHunks('a\nb\n', agent2, 'a\nX\nmine\nY\nb\n').map((p) => p.conflict),
    [true],
  );
  assert.deepEqual(
    placeHunks('a\nb\n', agent2, 'a\nX\nY\nmine\nb\n').map((p) => p.conflict),
    [false],
  );
});

const line = fc.constantFrom('a\n', 'b\n', 'c\n', 'd\n', 'e\n', 'x\r\n', 'last');
const text = fc.array(line, { maxLength: 14 }).map((ls) => ls.join(''));

test("property: keeping every hunk, one at a time in any order, ends at the agent's text; undoing every hunk ends at the older text", () => {
  fc.assert(
    fc.property(text, text, fc.array(fc.nat(), { maxLength: 30 }), (older, agent, picks) => {
      const n = computeHunks(older, agent).length;
      let o = older;
      let a = agent;
      let steps = 0;
      for (let i = 0; computeHunks(o, a).length > 0; i++) {
        const hs = computeHunks(o, a);
        const h = hs[(picks[i] ?? 0) % hs.length]!;
        // Alternate keep and undo by the pick: either way the two texts meet.
        if ((picks[i] ?? 0) % 2 === 0) o = keepHunk(o, h) ?? assert.fail('keep applies');
        else a = undoHunk(a, h) ?? assert.fail('undo applies');
        steps++;
        assert.ok(steps <= Math.max(n, 1) * 4, 'each step settles a hunk');
      }
      assert.equal(o, a);
      // All kept: the agent's text; all undone: the older text.
      let keptAll = older;
      for (let hs = computeHunks(keptAll, agent); hs.length; hs = computeHunks(keptAll, agent)) keptAll = keepHunk(keptAll, hs[0]!)!;
      assert.equal(keptAll, agent);
      let undoneAll = agent;
      for (let hs = computeHunks(older, undoneAll); hs.length; hs = computeHunks(older, undoneAll)) undoneAll = undoHunk(undoneAll, hs[hs.length - 1]!)!;
      assert.equal(undoneAll, older);
    }),
    { numRuns: 300 },
  );
});

test("property: after a user edit, every hunk not in conflict is found at its place, and undoing it keeps the user's lines", () => {
  const edit = fc.record({ at: fc.nat(), drop: fc.nat({ max: 2 }), insert: fc.array(fc.constantFrom('MINE\n', 'OURS\n'), { maxLength: 3 }) });
  fc.assert(
    fc.property(text, text, edit, (older, agent, e) => {
      const lines = splitLines(agent);
      const at = lines.length ? e.at % (lines.length + 1) : 0;
      const now = [...lines.slice(0, at), ...e.insert, ...lines.slice(at + e.drop)].join('');
      const mine = (t: string) => splitLines(t).filter((l) => l === 'MINE\n' || l === 'OURS\n').length;
      for (const p of placeHunks(older, agent, now)) {
        if (p.conflict) continue;
        assert.equal(now.slice(p.from, p.to), p.hunk.added.join(''), "the hunk's lines are where it is placed");
        const u = undoEdit(p);
        const after = now.slice(0, u.from) + u.text + now.slice(u.to);
        assert.equal(mine(after), mine(now), "the user's lines are all still there");
        // The rest of the review goes on against the new texts: the undone hunk is gone from them.
        const agentAfter = undoHunk(agent, p.hunk);
        assert.ok(agentAfter !== null);
        const size = (a: string) => computeHunks(older, a).reduce((n, h) => n + h.removed.length + h.added.length, 0);
        assert.ok(size(agentAfter) <= size(agent) - p.hunk.removed.length - p.hunk.added.length, 'what is left to review shrinks by the hunk');
      }
    }),
    { numRuns: 400 },
  );
});
