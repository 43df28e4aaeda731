/**
 * What the editor draws for each hunk placed on the text now (hunks.ts): the agent's added lines to
 * highlight, and the removed lines to show beside them (an inline note on the hunk's first line, and the
 * whole text in its hover). Pure, so the editor glue only maps it to decorations and the bench can time
 * it for a large file.
 */
import type { PlacedHunk } from './hunks';

export interface HunkMark {
  readonly index: number;
  readonly conflict: boolean;
  /** The agent's added lines in the text now: [first, end) (0-based; empty for a pure deletion). */
  readonly first: number;
  readonly end: number;
  /** The line the hunk's note, lens and hover sit on. */
  readonly at: number;
  /** The removed lines, without their endings (file text: shown as text only). */
  readonly removed: readonly string[];
  /** The inline note: what was removed, in short; empty when nothing was. */
  readonly note: string;
}

const NOTE_CHARS = 60;

/** The marks of `placed` in a text of `lineCount` lines. */
export function hunkMarks(placed: readonly PlacedHunk[], lineCount: number): HunkMark[] {
  const lastLine = Math.max(lineCount - 1, 0);
  return placed.map((p) => {
    const removed = p.hunk.removed.map((l) => l.replace(/\r?\n$/, ''));
    const first = p.line;
    const end = Math.min(p.line + p.hunk.added.length, lineCount);
    const head = removed[0] ?? '';
    const short = head.length > NOTE_CHARS ? `${head.slice(0, NOTE_CHARS)}…` : head;
    const note = removed.length === 0 ? '' : removed.length === 1 ? `− ${short}` : `− ${removed.length} lines: ${short}`;
    return { index: p.index, conflict: p.conflict, first, end, at: Math.min(first, lastLine), removed, note };
  });
}
