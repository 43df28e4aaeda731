/**
 * Lines added and removed between two texts, for the "+3 −1" of each file in the Changes summary.
 * jsdiff's Myers diff (as the inline diff on tool cards), bounded: a rewrite beyond MAX_EDIT_LENGTH
 * changed lines counts as every old line removed and every new line added instead of costing O(N·D).
 */
import { diffArrays } from 'diff';
import { splitLines } from './eol';

const MAX_EDIT_LENGTH = 5_000;

export function lineStats(oldText: string, newText: string): { added: number; removed: number } {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return { added: b.length, removed: a.length };
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    if (c.added) added += c.value.length;
    else if (c.removed) removed += c.value.length;
  }
  return { added, removed };
}
