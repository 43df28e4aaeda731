/**
 * Lines added and removed between two texts, for the "+3 −1" of each file in the Changes summary.
 * jsdiff's Myers diff (as the inline diff on tool cards), bounded: a rewrite beyond MAX_EDIT_LENGTH
 * changed lines counts as every old line removed and every new line added instead of costing O(N·D).
 */
import { diffArrays } from 'diff';

const MAX_EDIT_LENGTH = 5_000;

/** The lines of a text; a final newline ends the last line rather than starting an empty one. */
function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n');
  if (out.at(-1) === '') out.pop();
  return out;
}

export function lineStats(oldText: string, newText: string): { added: number; removed: number } {
  const a = lines(oldText);
  const b = lines(newText);
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
