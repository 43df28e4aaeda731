/**
 * Undo All of a turn as one step: every open file of the change set, planned from the files' texts now,
 * so the review can write them as one edit (one Ctrl+Z brings them all back). A file that still holds the
 * agent's version goes back whole; one the user edited since keeps the user's text: only the agent's hunks
 * on lines the user did not touch are undone (hunks.ts), and the rest stay to review. A file that cannot
 * be undone without losing text (deleted since, or created by the agent and edited since) is left alone
 * with why. Pure: the review reads the files, asks once when a file was edited since, and writes.
 */
import { placeHunks, undoEdit, type Hunk } from './hunks';
import { isOpen, type FileChange } from './model';

export interface UndoAllPlan {
  /** What each file becomes (null: deleted, it did not exist before the turn). */
  readonly writes: readonly { readonly path: string; readonly text: string | null }[];
  /** Files that go back whole. */
  readonly whole: readonly string[];
  /** Files edited since: the hunks undone in them (last first, as the model takes them) and how many stay. */
  readonly merged: readonly { readonly path: string; readonly hunks: readonly Hunk[]; readonly kept: number }[];
  /** Files left as they are, and why. */
  readonly left: readonly { readonly path: string; readonly why: LeftWhy }[];
}

/** Unreadable; deleted since; created by the agent and edited since (deleting it would lose text); every hunk's lines edited since. */
export type LeftWhy = 'unreadable' | 'deleted' | 'created' | 'edited';

/** `now`: each file's text (null: it does not exist; undefined: it could not be read). */
export function planUndoAll(files: readonly FileChange[], now: (path: string) => string | null | undefined): UndoAllPlan {
  const writes: { path: string; text: string | null }[] = [];
  const whole: string[] = [];
  const merged: { path: string; hunks: Hunk[]; kept: number }[] = [];
  const left: { path: string; why: LeftWhy }[] = [];
  for (const f of files) {
    if (!isOpen(f) || f.blocked !== null || f.agentText === null) continue;
    const current = now(f.path);
    if (current === f.agentText) {
      writes.push({ path: f.path, text: f.oldText });
      whole.push(f.path);
      continue;
    }
    if (current === null || current === undefined || f.oldText === null) {
      left.push({ path: f.path, why: current === undefined ? 'unreadable' : current === null ? 'deleted' : 'created' });
      continue;
    }
    // Bottom first, so each edit's offsets are still those of the text now.
    const placed = placeHunks(f.oldText, f.agentText, current);
    const undo = placed.filter((p) => !p.conflict).reverse();
    if (undo.length === 0) {
      left.push({ path: f.path, why: 'edited' });
      continue;
    }
    let text = current;
    for (const p of undo) {
      const e = undoEdit(p);
      text = text.slice(0, e.from) + e.text + text.slice(e.to);
    }
    writes.push({ path: f.path, text });
    merged.push({ path: f.path, hunks: undo.map((p) => p.hunk), kept: placed.length - undo.length });
  }
  return { writes, whole, merged, left };
}
