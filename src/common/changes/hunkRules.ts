/**
 * Keep and Undo of one hunk (hunks.ts) as a change to the file's record: Keep folds the hunk into the
 * text before the edit, Undo takes it out of the agent's version (the file was edited to match by the
 * review). When no hunk is left the file is settled: `kept` if any hunk was kept, else `undone`. Until
 * then the line counts follow, so the Changes summary shows what is left to review.
 */
import { keepHunk, undoHunk, type Hunk } from './hunks';
import type { FileChange } from './fileChange';

export type HunkAction = 'keep' | 'undo';

/** The file after `action` on `hunk`; null when the hunk is not one of the file's now (stale), or the file is settled. */
export function fileAfterHunk(
  f: FileChange,
  hunk: Hunk,
  action: HunkAction,
  withTexts: (f: FileChange, oldText: string | null, agentText: string | null) => FileChange,
): FileChange | null {
  if ((f.state !== 'pending' && f.state !== 'conflict') || f.blocked !== null || f.agentText === null) return null;
  const counts = f.hunks ?? { kept: 0, undone: 0 };
  // A created file is one hunk: keeping it keeps the file (undoing it deletes the file: the review's file Undo).
  if (f.oldText === null) return action === 'keep' ? { ...f, state: 'kept', note: null, hunks: { ...counts, kept: counts.kept + 1 } } : null;
  // Both sides must hold the hunk where it says (a stale lens's hunk changes nothing).
  const kept = keepHunk(f.oldText, hunk);
  const undone = undoHunk(f.agentText, hunk);
  if (kept === null || undone === null) return null;
  const oldText = action === 'keep' ? kept : f.oldText;
  const agentText = action === 'undo' ? undone : f.agentText;
  const hunks = action === 'keep' ? { ...counts, kept: counts.kept + 1 } : { ...counts, undone: counts.undone + 1 };
  const agentFull = action === 'undo' ? (f.agentFull ?? f.agentText) : f.agentFull;
  const full = agentFull === undefined ? {} : { agentFull };
  // Settled: the texts before this last hunk stay, so the summary's counts and Open diff still show a change
  // (the texts of a settled file are not used for Undo or a rewind again).
  if (oldText === agentText) return { ...f, state: hunks.kept > 0 ? 'kept' : 'undone', note: null, hunks, ...full };
  return withTexts({ ...f, state: 'pending', note: null, hunks, ...full }, oldText, agentText);
}
