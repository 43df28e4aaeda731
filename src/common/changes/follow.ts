/**
 * The review follows the files: when a reviewed file's text changes after the turn (an editor undo of
 * the review's own Undo, a redo, the user's edit), each hunk's state is read again from the text now,
 * never kept beside it. A hunk whose agent lines the file holds untouched is the agent's; one whose
 * original lines it holds is undone; one whose lines were edited is neither, and nothing is written
 * over it. The file's state in its change set follows: all the agent's -> pending again (the Undo was
 * undone), all undone -> undone, an undone file edited on the agent's lines -> "changed since" with a
 * note (Keep accepts it as it is, Undo keeps the user's text). Keep is the user's word, not the text's:
 * a kept file stays kept. Pure.
 */
import { computeHunks, overlaps, undoHunk } from './hunks';
import { lineStats } from './lineStats';
import type { FileChange } from './fileChange';

export type HunkNow = 'agent' | 'original' | 'edited';

/** Where each hunk from `older` to `agentText` stands in `now`. */
export function hunksNow(older: string, agentText: string, now: string): HunkNow[] {
  const hunks = computeHunks(older, agentText);
  if (now === agentText) return hunks.map(() => 'agent');
  if (now === older) return hunks.map(() => 'original');
  const sinceAgent = computeHunks(agentText, now);
  const sinceOlder = computeHunks(older, now);
  const untouched = (start: number, end: number, edits: typeof sinceAgent) => !edits.some((u) => overlaps(start, end, u.oldStart, u.oldStart + u.removed.length));
  return hunks.map((h) =>
    untouched(h.newStart, h.newStart + h.added.length, sinceAgent) ? 'agent' : untouched(h.oldStart, h.oldStart + h.removed.length, sinceOlder) ? 'original' : 'edited',
  );
}

/** `f` as the text now says (`now` null: the file does not exist); `f` itself when nothing changes. `edited`: the note of an undone file edited since. */
export function followFile(f: FileChange, now: string | null, edited: string): FileChange {
  if (f.state === 'kept' || f.blocked !== null || f.agentText === null || f.oldText === f.agentText) return f;
  if (f.agentFull !== undefined && f.oldText !== null && now !== null) return followHunks(f, f.oldText, f.agentFull, now, edited);
  const states: HunkNow[] =
    f.oldText === null || now === null ? [now === f.agentText ? 'agent' : now === f.oldText ? 'original' : 'edited'] : hunksNow(f.oldText, f.agentText, now);
  const state = states.every((s) => s === 'agent') ? 'pending' : states.every((s) => s === 'original') ? 'undone' : f.state === 'undone' ? 'conflict' : f.state;
  const note = state === 'conflict' ? (f.state === 'conflict' ? f.note : edited) : null;
  if (state === f.state && note === f.note) return f;
  return { ...f, state, note, ...(f.hunks ? { hunks: withUndone(f, state) } : {}) };
}

/**
 * A file some of whose hunks were undone one by one (`full`: the agent's version before that): every hunk
 * of the agent's edit is read again from the text now, so an editor undo of one hunk's Undo (or of an
 * Undo All over a file the user edited) makes those hunks pending again, a redo undoes them again, and
 * the undone count is the number of hunks the text holds as they were: exact, never adjusted by a guess.
 */
function followHunks(f: FileChange, older: string, full: string, now: string, edited: string): FileChange {
  const hunks = computeHunks(older, full);
  const states = hunksNow(older, full, now);
  const undone = states.filter((s) => s === 'original').length;
  const state = undone === hunks.length ? 'undone' : states.includes('edited') ? (f.state === 'undone' ? 'conflict' : f.state) : 'pending';
  // The agent's version without the hunks the text holds undone (bottom first: each hunk's lines stay put).
  let agentText = full;
  for (let i = hunks.length - 1; i >= 0; i--) if (states[i] === 'original') agentText = undoHunk(agentText, hunks[i]!) ?? agentText;
  // Settled undone: the agent's whole version stays for Open diff and the summary's counts (hunkRules.ts).
  if (state === 'undone') agentText = full;
  const note = state === 'conflict' ? (f.state === 'conflict' ? f.note : edited) : null;
  const counts = { kept: f.hunks?.kept ?? 0, undone };
  if (state === f.state && note === f.note && agentText === f.agentText && counts.undone === f.hunks?.undone) return f;
  const stats = lineStats(older, agentText);
  return { ...f, state, note, agentText, hunks: counts, added: stats.added, removed: stats.removed };
}

/**
 * The hunk counts as the file enters or leaves `undone` (once a hunk was reviewed on its own, the counts
 * include what a whole-file step did: the hunks between the file's two texts; model.ts).
 */
export function withUndone(f: FileChange, state: FileChange['state']): { kept: number; undone: number } {
  const counts = f.hunks ?? { kept: 0, undone: 0 };
  if ((f.state === 'undone') === (state === 'undone') || f.agentText === null) return counts;
  const n = f.oldText === null ? 1 : computeHunks(f.oldText, f.agentText).length;
  return { ...counts, undone: Math.max(0, counts.undone + (state === 'undone' ? n : -n)) };
}
