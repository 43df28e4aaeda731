// The review follows the files: after an Undo, an editor undo of it (the agent's text back) makes the
// change pending again and its cards leave "Undone"; a redo makes it undone again; the user's edit on
// the agent's lines makes it "changed since" and nothing is written; a kept file stays kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followFile, hunksNow } from '../../../src/common/changes/follow';
import { reduceChanges, EMPTY_CHANGES, type ChangesState, type FileChange } from '../../../src/common/changes/model';
import { setView } from '../../../src/common/changes/view';
import { cardReviews } from '../../../src/common/changes/toolCards';
import { computeHunks } from '../../../src/common/changes/hunks';
import { restoreChanges, savedChanges } from '../../../src/common/changes/persist';
import { memoryReview } from '../helpers/editCapture';

const OLD = 'a\nb\nc\nd\ne\nf\n';
const AGENT = 'a\nB\nc\nd\ne\nF\nG\n';

test('each hunk reads from the text now: the agent’s, the original, or edited', () => {
  assert.deepEqual(hunksNow(OLD, AGENT, AGENT), ['agent', 'agent']);
  assert.deepEqual(hunksNow(OLD, AGENT, OLD), ['original', 'original']);
  // One hunk undone, the other the agent's; a line of the user's elsewhere changes neither.
  assert.deepEqual(hunksNow(OLD, AGENT, 'a\nb\nc\nmine\nd\ne\nF\nG\n'), ['original', 'agent']);
  // The user's text on the agent's lines: neither.
  assert.deepEqual(hunksNow(OLD, AGENT, 'a\nMINE\nc\nd\ne\nf\n'), ['edited', 'original']);
});

const file = (over: Partial<FileChange> = {}): FileChange => ({
  path: '/w/x.txt',
  oldText: OLD,
  agentText: AGENT,
  source: 'write',
  state: 'undone',
  note: null,
  blocked: null,
  added: 3,
  removed: 2,
  ...over,
});

test('a file follows its text: undone -> pending -> undone; edited -> changed since; kept and blocked stay', () => {
  const undone = file();
  const back = followFile(undone, AGENT, 'edited');
  assert.equal(back.state, 'pending');
  assert.equal(followFile(back, OLD, 'edited').state, 'undone');
  assert.equal(followFile(undone, OLD, 'edited'), undone, 'nothing changed: the same object');
  const edited = followFile(undone, 'a\nMINE\nc\nd\ne\nf\n', 'you edited it');
  assert.deepEqual([edited.state, edited.note], ['conflict', 'you edited it']);
  // A pending file the user edits is still the agent's to review (Undo keeps the user's text then).
  assert.equal(followFile(back, 'a\nMINE\nc\nd\ne\nF\nG\n', 'edited'), back);
  assert.equal(followFile(file({ state: 'kept' }), OLD, 'edited').state, 'kept');
  const blocked = file({ blocked: 'outside' });
  assert.equal(followFile(blocked, AGENT, 'edited'), blocked);
  // A created file: undone is gone, back is the agent's again.
  const created = file({ oldText: null, agentText: 'new\n' });
  assert.equal(followFile(created, 'new\n', 'edited').state, 'pending');
  assert.equal(followFile({ ...created, state: 'pending' }, null, 'edited').state, 'undone');
  assert.equal(followFile(created, 'other\n', 'edited').state, 'conflict');
});

test('the newest ended set holding the file follows it, and nothing follows while a turn runs', () => {
  let s: ChangesState = EMPTY_CHANGES;
  s = reduceChanges(s, { type: 'turnStarted', sessionId: 's' });
  s = reduceChanges(s, { type: 'wrote', sessionId: 's', path: '/w/x.txt', oldText: OLD, newText: AGENT, afterKey: null });
  s = reduceChanges(s, { type: 'turnEnded', sessionId: 's', afterKey: 'k1', reported: [] });
  s = reduceChanges(s, { type: 'undone', setId: 'c1', path: '/w/x.txt' });
  const followed = { type: 'followed', path: '/w/x.txt', text: AGENT, note: 'n' } as const;
  const running = reduceChanges(s, { type: 'turnStarted', sessionId: 's' });
  assert.equal(reduceChanges(running, followed), running);
  const after = reduceChanges(s, followed);
  assert.equal(after.sets[0]?.files[0]?.state, 'pending');
  assert.equal(reduceChanges(after, followed), after);
  assert.equal(reduceChanges(s, { ...followed, path: '/w/other.txt' }), s);
});

test('hunks undone one by one: an editor undo of the last one takes back only that one (the counts and the card say so)', () => {
  let s: ChangesState = EMPTY_CHANGES;
  s = reduceChanges(s, { type: 'turnStarted', sessionId: 's' });
  s = reduceChanges(s, { type: 'wrote', sessionId: 's', path: '/w/x.txt', oldText: OLD, newText: AGENT, afterKey: null });
  s = reduceChanges(s, { type: 'turnEnded', sessionId: 's', afterKey: 'k1', reported: [] });
  const [first, second] = computeHunks(OLD, AGENT);
  s = reduceChanges(s, { type: 'hunk', setId: 'c1', path: '/w/x.txt', hunk: second!, action: 'undo' });
  const oneLeft = s.sets[0]!.files[0]!.agentText!;
  s = reduceChanges(s, { type: 'hunk', setId: 'c1', path: '/w/x.txt', hunk: first!, action: 'undo' });
  const card = (st: ChangesState) =>
    cardReviews([{ ...setView(st.sets[0]!, (p) => p), files: setView(st.sets[0]!, (p) => p).files.map((f) => ({ ...f, tools: ['card'] })) }]).get('card')?.label;
  assert.deepEqual([s.sets[0]!.files[0]!.state, s.sets[0]!.files[0]!.hunks, card(s)], ['undone', { kept: 0, undone: 2 }, 'Undone']);
  // Ctrl+Z of the last hunk's Undo: that hunk is the agent's again, the other still undone.
  s = reduceChanges(s, { type: 'followed', path: '/w/x.txt', text: oneLeft, note: 'n' });
  assert.deepEqual([s.sets[0]!.files[0]!.state, s.sets[0]!.files[0]!.hunks, card(s)], ['pending', { kept: 0, undone: 1 }, 'Partly undone']);
  // Undo of the file (the one hunk left) counts it; its editor undo takes it back again.
  s = reduceChanges(s, { type: 'undone', setId: 'c1', path: '/w/x.txt' });
  assert.deepEqual(s.sets[0]!.files[0]!.hunks, { kept: 0, undone: 2 });
  s = reduceChanges(s, { type: 'followed', path: '/w/x.txt', text: oneLeft, note: 'n' });
  assert.deepEqual(s.sets[0]!.files[0]!.hunks, { kept: 0, undone: 1 });
});

test('after Undo All, an editor undo that brings the agent’s text back makes the Changes list and cards leave "Undone"; a redo brings it back', async () => {
  const disk = new Map([
    ['/w/a.txt', 'one\n'],
    ['/w/b.txt', OLD],
  ]);
  const review = memoryReview(disk);
  review.turnStarted('s');
  review.wrote('s', '/w/a.txt', 'one\n', 'one\ntwo\n', null);
  review.wrote('s', '/w/b.txt', OLD, AGENT, null);
  disk.set('/w/a.txt', 'one\ntwo\n');
  disk.set('/w/b.txt', AGENT);
  await review.turnEnded('s', [], 'k1');
  const set = () => review.state.sets[0]!;
  const withCards = () => {
    const v = setView(set(), (p) => p);
    return { ...v, files: v.files.map((f) => ({ ...f, tools: ['card'] })) };
  };
  await review.act('c1', null, 'undo');
  assert.deepEqual(
    set().files.map((f) => f.state),
    ['undone', 'undone'],
  );
  assert.equal(cardReviews([withCards()]).get('card')?.label, 'Undone');
  // One Ctrl+Z in the editor: both files hold the agent's text again.
  disk.set('/w/a.txt', 'one\ntwo\n');
  disk.set('/w/b.txt', AGENT);
  await Promise.all([review.fileChanged('/w/a.txt'), review.fileChanged('/w/b.txt')]);
  assert.deepEqual(
    set().files.map((f) => f.state),
    ['pending', 'pending'],
  );
  assert.equal(cardReviews([withCards()]).get('card'), undefined, 'the card has no review badge');
  // A redo puts one back; the user's line where the other's Undo was makes it "changed since", unwritten.
  disk.set('/w/a.txt', 'one\n');
  await review.fileChanged('/w/a.txt');
  await review.act('c1', 1, 'undo');
  disk.set('/w/b.txt', 'a\nMINE\nc\nd\ne\nf\n');
  await review.fileChanged('/w/b.txt');
  assert.deepEqual(
    set().files.map((f) => [f.state, f.note]),
    [
      ['undone', null],
      ['conflict', "b.txt was edited where Demo's edit was undone; nothing was written over it. Keep accepts it as it is."],
    ],
  );
  assert.equal(disk.get('/w/b.txt'), 'a\nMINE\nc\nd\ne\nf\n');
});

test('Ctrl+Z of one hunk’s Undo while the other hunk is pending: that hunk is pending again (its lens back, the count down); a redo undoes it again', () => {
  let s: ChangesState = EMPTY_CHANGES;
  s = reduceChanges(s, { type: 'turnStarted', sessionId: 's' });
  s = reduceChanges(s, { type: 'wrote', sessionId: 's', path: '/w/x.txt', oldText: OLD, newText: AGENT, afterKey: null });
  s = reduceChanges(s, { type: 'turnEnded', sessionId: 's', afterKey: 'k1', reported: [] });
  const [, second] = computeHunks(OLD, AGENT);
  s = reduceChanges(s, { type: 'hunk', setId: 'c1', path: '/w/x.txt', hunk: second!, action: 'undo' });
  const oneUndone = s.sets[0]!.files[0]!.agentText!;
  const f = () => s.sets[0]!.files[0]!;
  assert.deepEqual([f().state, f().hunks], ['pending', { kept: 0, undone: 1 }]);
  // Ctrl+Z: the file holds the agent's whole version again.
  s = reduceChanges(s, { type: 'followed', path: '/w/x.txt', text: AGENT, note: 'n' });
  assert.deepEqual([f().state, f().hunks, f().agentText, f().added, f().removed], ['pending', { kept: 0, undone: 0 }, AGENT, 3, 2]);
  assert.equal(computeHunks(f().oldText!, f().agentText!).length, 2, 'both hunks are to review (two lenses)');
  // Redo: the hunk is undone again.
  s = reduceChanges(s, { type: 'followed', path: '/w/x.txt', text: oneUndone, note: 'n' });
  assert.deepEqual([f().state, f().hunks, f().agentText], ['pending', { kept: 0, undone: 1 }, oneUndone]);
  // The view posts the counts only, never the agent's whole text; the saved state keeps it (a reload follows too).
  assert.deepEqual(setView(s.sets[0]!, (p) => p).files[0]!.hunks, { kept: 0, undone: 1 });
  assert.equal(restoreChanges(savedChanges(s)).state.sets[0]?.files[0]?.agentFull, AGENT);
});

test('Ctrl+Z of Undo All over a file the user edited: the counts are exact (every hunk the agent’s again, none undone)', async () => {
  // The user edited the first hunk's line after the agent; Undo All undoes only the second hunk.
  const edited = 'a\nMINE\nc\nd\ne\nF\nG\n';
  const disk = new Map([['/w/b.txt', edited]]);
  const review = memoryReview(disk);
  review.turnStarted('s');
  review.wrote('s', '/w/b.txt', OLD, AGENT, null);
  await review.turnEnded('s', [], 'k1');
  const f = () => review.state.sets[0]!.files[0]!;
  await review.act('c1', null, 'undo');
  assert.equal(disk.get('/w/b.txt'), 'a\nMINE\nc\nd\ne\nf\n');
  assert.deepEqual([f().state, f().hunks], ['pending', { kept: 0, undone: 1 }]);
  // Ctrl+Z: the user's text with the agent's second hunk back.
  disk.set('/w/b.txt', edited);
  await review.fileChanged('/w/b.txt');
  assert.deepEqual([f().state, f().hunks, f().agentText], ['pending', { kept: 0, undone: 0 }, AGENT]);
  // Redo: undone again, counted once.
  disk.set('/w/b.txt', 'a\nMINE\nc\nd\ne\nf\n');
  await review.fileChanged('/w/b.txt');
  assert.deepEqual([f().state, f().hunks], ['pending', { kept: 0, undone: 1 }]);
});
