/**
 * Restore in place's folds in the transcript (the store's `SessionState.folds`, sent as `PanelState.folds`):
 * the folded entries are hidden behind one row per fold, a button that opens and closes it (Enter or Space;
 * `aria-expanded`, and a name that says how many entries and why they are folded). Which folds are open is
 * this view's own state, like a thought's disclosure: never the store's.
 */
import type { Fold } from '../src/common/store/fold';
import { h, icon } from './dom';
import type { EntryView } from './entries/entryView';

/** What the folds need of the transcript. */
export interface FoldTranscript {
  readonly views: readonly EntryView[];
  /** Puts an entry in the document (out of its block) and builds it. */
  build(v: EntryView): void;
}

export class FoldedTurns {
  private readonly rows = new Map<string, { readonly el: HTMLElement; readonly button: HTMLButtonElement }>();
  private readonly open = new Set<string>();
  private last: { folds: readonly Fold[]; t: FoldTranscript } | null = null;

  /** Hides each fold's entries (unless opened) and puts its row before its first entry; idempotent. */
  render(folds: readonly Fold[], t: FoldTranscript): void {
    this.last = { folds, t };
    if (folds.length === 0 && this.rows.size === 0) return; // most chats: no walk over every entry
    const order = t.views;
    const index = new Map(order.map((v, i) => [v.key, i] as const));
    const live = new Set<string>();
    for (const f of folds) {
      const start = index.get(f.first);
      const end = index.get(f.last);
      const first = start === undefined ? undefined : order[start];
      if (start === undefined || end === undefined || !first) continue;
      live.add(f.first);
      const open = this.open.has(f.first);
      for (let i = start; i <= end; i++) order[i]?.el.classList.toggle('folded', !open);
      const row = this.row(f.first);
      const count = end - start + 1;
      const what = `${count} ${count === 1 ? 'entry' : 'entries'} from when the chat was restored to an earlier message`;
      row.button.setAttribute('aria-expanded', String(open));
      row.button.setAttribute('aria-label', `${open ? 'Fold' : 'Show'} ${what}`);
      row.button.replaceChildren(icon(open ? 'chevron-down' : 'chevron-right'), h('span', {}, `Restored here: ${count} later ${count === 1 ? 'entry' : 'entries'} folded`));
      if (first.el.previousElementSibling !== row.el || !row.el.isConnected) {
        t.build(first);
        first.el.before(row.el);
      }
    }
    for (const [key, row] of this.rows)
      if (!live.has(key)) {
        row.el.remove();
        this.rows.delete(key);
      }
  }

  private row(key: string): { readonly el: HTMLElement; readonly button: HTMLButtonElement } {
    const known = this.rows.get(key);
    if (known) return known;
    const button = h('button', { class: 'fold-toggle', type: 'button', 'aria-expanded': 'false' });
    button.addEventListener('click', () => {
      if (!this.open.delete(key)) this.open.add(key);
      if (this.last) this.render(this.last.folds, this.last.t);
    });
    const row = { el: h('div', { class: 'fold-row', 'data-fold': key }, button), button };
    this.rows.set(key, row);
    return row;
  }
}
