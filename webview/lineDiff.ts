/**
 * The line diff for the compact inline diff on tool-call cards. The full diff opens in VS Code's own diff
 * editor ("Open diff"); this one has to be right, minimal for ordinary edits and cheap on large files, so it
 * uses jsdiff's Myers O(ND) diff (cost grows with the size of the change, not with the file).
 */
import { diffArrays } from 'diff';
import { splitLines } from '../src/common/changes/eol';

export type DiffLine = { readonly t: ' ' | '-' | '+'; readonly text: string };
/** A run of unchanged lines hidden from the compact view. */
export type DiffRow = DiffLine | { readonly t: 'skip'; readonly count: number };

/**
 * Beyond this many changed lines the change is a rewrite: showing it as "all removed, all added" is as
 * readable as any alignment, and stops a pathological input from costing O(N·D) time in the webview.
 */
const MAX_EDIT_LENGTH = 5_000;

export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return [...a.map((text): DiffLine => ({ t: '-', text })), ...b.map((text): DiffLine => ({ t: '+', text }))];
  const out: DiffLine[] = [];
  for (const c of changes) {
    const t = c.added ? '+' : c.removed ? '-' : ' ';
    for (const text of c.value) out.push({ t, text });
  }
  return out;
}

/** Keeps `context` unchanged lines around each change and folds the rest into `skip` rows. */
export function compactDiff(lines: readonly DiffLine[], context = 2): DiffRow[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.t === ' ') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = 1;
  });
  const rows: DiffRow[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (skipped) rows.push({ t: 'skip', count: skipped });
      skipped = 0;
      rows.push(l);
    } else skipped++;
  });
  if (skipped) rows.push({ t: 'skip', count: skipped });
  return rows;
}

export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.t === '+') added++;
    else if (l.t === '-') removed++;
  }
  return { added, removed };
}

/** A hunk header of a unified patch: the line its new side starts at. */
export type PatchRow = DiffRow | { readonly t: 'hunk'; readonly line: number };

/**
 * A unified patch (the v2 draft's `patch.text`) as the rows a v1 diff shows: `@@` hunks as markers, and
 * the `+`/`-`/context lines each hunk's header counts; file headers around them dropped (`diff`, `index`,
 * `---`, `+++`, and jsdiff's `Index:` and `=====` lines), even a `--- ` that would read as a removed line.
 */
export function patchRows(text: string): PatchRow[] {
  const rows: PatchRow[] = [];
  // Lines left in the current hunk, from its header's counts; outside a hunk every line is a file header
  // (`diff`, `index`, `Index:`, `=====`, `---`, `+++`, modes, or anything a tool adds), never a row.
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of splitLines(text)) {
    const hunk = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = Number(hunk[1] ?? 1);
      newLeft = Number(hunk[3] ?? 1);
      rows.push({ t: 'hunk', line: Number(hunk[2]) });
    } else if (oldLeft <= 0 && newLeft <= 0) continue;
    else if (line.startsWith('\\'))
      continue; // "\ No newline at end of file"
    else if (line.startsWith('+')) {
      newLeft--;
      rows.push({ t: '+', text: line.slice(1) });
    } else if (line.startsWith('-')) {
      oldLeft--;
      rows.push({ t: '-', text: line.slice(1) });
    } else {
      // Context; an empty line is a context line whose leading space an editor trimmed.
      oldLeft--;
      newLeft--;
      rows.push({ t: ' ', text: line.startsWith(' ') ? line.slice(1) : line });
    }
  }
  return rows;
}
