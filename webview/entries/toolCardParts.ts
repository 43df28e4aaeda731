/**
 * The pieces of a tool card that need nothing of the card itself (toolCallView.ts): a diff's rows and line
 * counts, what review made of the card's change, and how paths, sizes and printed output are shown.
 */
import { h, icon } from '../dom';
import type { PatchRow } from '../lineDiff';
import type { CardReview } from '../../src/common/changes/toolCards';

const REVIEW_ICONS: Record<CardReview['state'], string> = { kept: 'check', undone: 'discard', partly: 'diff-multiple' };

/** What review made of the card's change (Kept, Undone, Partly …), beside its status; null while nothing was reviewed. */
export function reviewBadge(r: CardReview | undefined): HTMLElement | null {
  if (!r) return null;
  return h('span', { class: `status review-${r.state}`, 'data-review': r.state, title: `Changes review: ${r.label}` }, icon(REVIEW_ICONS[r.state]), r.label);
}

/** Longest diff shown inline; the rest is one click away in the diff editor. */
const MAX_DIFF_ROWS = 80;

/**
 * A diff's rows as a real (ARIA) table: rows of a change cell and a line cell, so a screen reader can walk
 * it. The column headers are labels, not text, so search and copy do not find them.
 */
export function diffBody(rows: readonly PatchRow[], label: string): HTMLElement {
  const body = h('div', { class: 'diff-body', role: 'table', 'aria-label': label });
  body.append(h('div', { class: 'sr-only', role: 'row' }, h('span', { role: 'columnheader', 'aria-label': 'Change' }), h('span', { role: 'columnheader', 'aria-label': 'Line' })));
  const skip = (text: string): HTMLElement => h('div', { class: 'diff-row diff-skip', role: 'row' }, h('span', { role: 'cell', 'aria-colspan': 2 }, text));
  const shown = rows.slice(0, MAX_DIFF_ROWS);
  for (const r of shown) {
    if (r.t === 'skip') body.append(skip(`⋯ ${r.count} unchanged line${r.count === 1 ? '' : 's'}`));
    else if (r.t === 'hunk') body.append(skip(`⋯ line ${r.line}`));
    else {
      const kind = r.t === '+' ? 'add' : r.t === '-' ? 'del' : 'ctx';
      body.append(
        h(
          'div',
          { class: `diff-row diff-${kind}`, role: 'row' },
          h('span', { class: 'diff-sign', role: 'cell', 'aria-label': DIFF_SIGN_NAMES[kind] }, r.t),
          h('span', { role: 'cell' }, r.text),
        ),
      );
    }
  }
  if (rows.length > shown.length) body.append(skip(`⋯ ${rows.length - shown.length} more rows in the diff editor`));
  return body;
}

/** A diff's line counts: +added −removed. */
export function diffStat(added: number, removed: number): HTMLElement {
  return h('span', { class: 'diff-stat' }, h('span', { class: 'added' }, `+${added}`), ' ', h('span', { class: 'removed' }, `−${removed}`));
}

/** A `pre` shows the newline that ends printed output as an empty last line. */
export function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

const DIFF_SIGN_NAMES: Record<string, string> = { add: 'added', del: 'removed', ctx: 'unchanged' };

export function formatSize(chars: number): string {
  return chars >= 1024 ? `${(chars / 1024).toFixed(chars >= 10 * 1024 ? 0 : 1)} KB` : `${chars} B`;
}

export function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}
