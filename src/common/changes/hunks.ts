/**
 * The hunks of an agent's edit of one file, for review in the editor: each run of changed lines between
 * the text before the edit (`older`) and the agent's version (`newer`), kept or undone on its own.
 * Keeping a hunk folds it into the older text; undoing it takes it out of the agent's version (and out
 * of the file). When the user edited the file after the agent, the hunks are placed on the text now
 * through a second diff (agent's version -> now): a hunk whose lines the user did not touch moves with
 * the user's edits; one they touched is marked `conflict` and is never undone (that would lose their
 * text). Lines keep their own endings, so a CRLF file stays CRLF. Pure; the diff is jsdiff's.
 */
import { diffArrays } from 'diff';

/** `text` as lines, each with its own line ending (the last one may have none). */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

export interface Hunk {
  /** First line (0-based) of `removed` in the older text. */
  readonly oldStart: number;
  readonly removed: readonly string[];
  /** First line (0-based) of `added` in the newer text. */
  readonly newStart: number;
  readonly added: readonly string[];
}

/** The hunks from `older` to `newer`, in order. */
export function computeHunks(older: string, newer: string): Hunk[] {
  if (older === newer) return [];
  return hunksOfLines(splitLines(older), splitLines(newer));
}

function hunksOfLines(a: readonly string[], b: readonly string[]): Hunk[] {
  // The common head and tail are skipped before the diff: an edit's cost is its own size, not the file's.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: Hunk[] = [];
  let oi = head;
  let ni = head;
  let open: { oldStart: number; removed: string[]; newStart: number; added: string[] } | null = null;
  const parts =
    midA.length === 0 || midB.length === 0
      ? [
          { removed: true, added: false, value: midA },
          { removed: false, added: true, value: midB },
        ]
      : diffArrays(midA, midB);
  for (const p of parts) {
    const lines = p.value;
    if (lines.length === 0) continue;
    if (!p.added && !p.removed) {
      if (open) out.push(open);
      open = null;
      oi += lines.length;
      ni += lines.length;
      continue;
    }
    open ??= { oldStart: oi, removed: [], newStart: ni, added: [] };
    if (p.removed) {
      open.removed.push(...lines);
      oi += lines.length;
    } else {
      open.added.push(...lines);
      ni += lines.length;
    }
  }
  if (open) out.push(open);
  return out;
}

const sameLines = (lines: readonly string[], at: number, want: readonly string[]) => want.every((l, i) => lines[at + i] === l);

/** `older` with the hunk applied (Keep); null when the hunk is not one of `older`'s (stale). */
export function keepHunk(older: string, hunk: Hunk): string | null {
  const lines = splitLines(older);
  if (hunk.oldStart + hunk.removed.length > lines.length || !sameLines(lines, hunk.oldStart, hunk.removed)) return null;
  return [...lines.slice(0, hunk.oldStart), ...hunk.added, ...lines.slice(hunk.oldStart + hunk.removed.length)].join('');
}

/** `newer` with the hunk taken out (Undo); null when the hunk is not one of `newer`'s (stale). */
export function undoHunk(newer: string, hunk: Hunk): string | null {
  const lines = splitLines(newer);
  if (hunk.newStart + hunk.added.length > lines.length || !sameLines(lines, hunk.newStart, hunk.added)) return null;
  return [...lines.slice(0, hunk.newStart), ...hunk.removed, ...lines.slice(hunk.newStart + hunk.added.length)].join('');
}

/** A hunk placed on the text now. */
export interface PlacedHunk {
  readonly hunk: Hunk;
  /** The hunk's index among the file's hunks. */
  readonly index: number;
  /** First line (0-based) of the hunk's added lines in the text now (where removed lines would go back). */
  readonly line: number;
  /** Character offsets of the added lines in the text now. */
  readonly from: number;
  readonly to: number;
  /** The user edited these lines after the agent: Undo is refused. */
  readonly conflict: boolean;
}

/** Whether line ranges [s1, e1) and [s2, e2) touch the same lines (an empty range is a point between lines). */
export function overlaps(s1: number, e1: number, s2: number, e2: number): boolean {
  if (s1 < e1 && s2 < e2) return s1 < e2 && s2 < e1;
  if (s1 === e1 && s2 === e2) return s1 === s2;
  return s1 === e1 ? s2 < s1 && s1 < e2 : s1 < s2 && s2 < e1;
}

/** Character offset of each line start of `lines`, plus the text's end. */
function lineOffsets(lines: readonly string[]): number[] {
  const out = [0];
  let at = 0;
  for (const l of lines) out.push((at += l.length));
  return out;
}

/** The hunks from `older` to `agentText`, placed on `current` (the file now). */
export function placeHunks(older: string, agentText: string, current: string): PlacedHunk[] {
  const hunks = computeHunks(older, agentText);
  if (hunks.length === 0) return [];
  const nowLines = splitLines(current);
  const offsets = lineOffsets(nowLines);
  const user = agentText === current ? [] : hunksOfLines(splitLines(agentText), nowLines);
  const out: PlacedHunk[] = [];
  let j = 0;
  let delta = 0;
  hunks.forEach((h, index) => {
    const start = h.newStart;
    const end = start + h.added.length;
    // User edits wholly before the hunk shift it; one at the hunk's own point is a conflict, not a shift.
    for (;;) {
      const u = user[j];
      if (!u) break;
      const uEnd = u.oldStart + u.removed.length;
      if (uEnd > start || (uEnd === start && u.oldStart === uEnd && start === end)) break;
      delta += u.added.length - u.removed.length;
      j++;
    }
    let conflict = false;
    for (let k = j; k < user.length && user[k]!.oldStart <= end; k++) {
      const u = user[k]!;
      if (overlaps(start, end, u.oldStart, u.oldStart + u.removed.length)) conflict = true;
    }
    const line = Math.min(Math.max(start + delta, 0), nowLines.length);
    const last = Math.min(line + h.added.length, nowLines.length);
    // The old last line had no line ending: put back anywhere but at the end, it would join the next line.
    if (last < nowLines.length && !(h.removed.at(-1)?.endsWith('\n') ?? true)) conflict = true;
    out.push({ hunk: h, index, line, from: offsets[line]!, to: offsets[last]!, conflict });
  });
  return out;
}

/** The edit that undoes a placed hunk in the text now (its added lines replaced by the removed ones). */
export function undoEdit(p: PlacedHunk): { from: number; to: number; text: string } {
  return { from: p.from, to: p.to, text: p.hunk.removed.join('') };
}

/** Whether `a` and `b` are the same hunk (a command's argument against the hunks now). */
export function sameHunk(a: Hunk, b: Hunk): boolean {
  return (
    a.oldStart === b.oldStart &&
    a.newStart === b.newStart &&
    a.removed.length === b.removed.length &&
    a.added.length === b.added.length &&
    sameLines(a.removed, 0, b.removed) &&
    sameLines(a.added, 0, b.added)
  );
}
