/**
 * Rewinding files with the conversation: the Changes of every turn after a branch point, undone newest
 * first. Per file that comes to one restore, from the newest edit's text (which the file must still hold)
 * back to the text before the oldest one; a file whose turns do not chain (someone edited it between two
 * turns) or whose edit cannot be undone is refused, never guessed at. Pure: the review reads the files
 * and applies the restores.
 */
import { isOpen, type ChangesState } from './model';

export interface RewindFile {
  readonly path: string;
  /** What the file must hold now: the newest open edit's text. */
  readonly expected: string;
  /** What it goes back to (null: it did not exist, so it is deleted). */
  readonly restoreTo: string | null;
  /** The change sets (newest first) whose edit of this file the restore undoes. */
  readonly setIds: readonly string[];
}

export interface RewindTargets {
  readonly files: readonly RewindFile[];
  /** Files an Undo cannot put back, with why. */
  readonly refused: readonly { readonly path: string; readonly why: string }[];
}

/** The open edits of `sessionId`'s turns shown after one of `laterKeys` (the entries from the branch point on). */
export function rewindTargets(state: ChangesState, sessionId: string, laterKeys: ReadonlySet<string>): RewindTargets {
  const sets = state.sets.filter((s) => s.sessionId === sessionId && s.ended && s.afterKey !== null && laterKeys.has(s.afterKey)).reverse();
  const byPath = new Map<string, { expected: string | null; restoreTo: string | null; setIds: string[]; why: string | null; olderMustHold: string | null }>();
  for (const set of sets) {
    for (const f of set.files) {
      if (!isOpen(f)) continue;
      const seen = byPath.get(f.path);
      if (!seen) {
        byPath.set(f.path, {
          expected: f.agentText,
          restoreTo: f.oldText,
          setIds: [set.id],
          why: f.blocked ?? (f.agentText === null ? 'the agent’s version is not known' : null),
          olderMustHold: f.oldText,
        });
        continue;
      }
      seen.setIds.push(set.id);
      seen.why ??= f.blocked ?? (f.agentText !== seen.olderMustHold ? 'it was changed between two of the turns' : null);
      seen.restoreTo = f.oldText;
      seen.olderMustHold = f.oldText;
    }
  }
  const files: RewindFile[] = [];
  const refused: { path: string; why: string }[] = [];
  for (const [path, f] of byPath) {
    if (f.why !== null || f.expected === null) refused.push({ path, why: f.why ?? 'the agent’s version is not known' });
    else files.push({ path, expected: f.expected, restoreTo: f.restoreTo, setIds: f.setIds });
  }
  return { files, refused };
}
