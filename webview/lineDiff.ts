/**
 * A small line diff for the compact inline diff on tool-call cards. The full diff opens in VS Code's
 * own diff editor ("Open diff"), so this only has to be right and cheap, not minimal on huge files.
 */
export type DiffLine = { readonly t: ' ' | '-' | '+'; readonly text: string };
/** A run of unchanged lines hidden from the compact view. */
export type DiffRow = DiffLine | { readonly t: 'skip'; readonly count: number };

/** Above this many DP cells (old × new changed lines) we stop looking for common lines in the middle. */
const MAX_CELLS = 250_000;

export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = oldText === '' ? [] : oldText.split('\n');
  const b = newText === '' ? [] : newText.split('\n');
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const out: DiffLine[] = a.slice(0, pre).map((text) => ({ t: ' ', text }));
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  out.push(...middle(am, bm));
  out.push(...a.slice(a.length - suf).map((text): DiffLine => ({ t: ' ', text })));
  return out;
}

/** LCS over the changed middle; falls back to "all removed, all added" when it would be too big. */
function middle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS || n === 0 || m === 0) {
    return [...a.map((text): DiffLine => ({ t: '-', text })), ...b.map((text): DiffLine => ({ t: '+', text }))];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], flattened.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ t: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) out.push({ t: '-', text: a[i++]! });
    else out.push({ t: '+', text: b[j++]! });
  }
  while (i < n) out.push({ t: '-', text: a[i++]! });
  while (j < m) out.push({ t: '+', text: b[j++]! });
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
