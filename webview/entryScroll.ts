/**
 * Where a transcript's view scrolls: to an entry shown on purpose (`reveal`, search, a restore), and the
 * anchor a reload restores (the first entry in view and how far into it). Split from transcript.ts, which
 * keeps the entries themselves.
 */
import { firstEndingBelow } from './dom';
import type { EntryView } from './entries/entryView';
import { drawnBy } from './subagentPlacer';

/**
 * Scrolls to a built entry, unfolding the cards it is drawn in: centred, or `offset` px above the top (a
 * restore); `unpin` stops the view following new output; `flash` marks the card the entry is shown on.
 */
export function scrollToEntry(found: EntryView, scroller: HTMLElement, flash: boolean, offset: number | undefined, unpin: () => void): void {
  // An entry drawn in another's card (a question, a step, a subagent's task) is shown there, unfolded.
  const v = drawnBy(found);
  for (let d = found.shownEl.closest('details'); d && v.el.contains(d); d = d.parentElement?.closest('details') ?? null) d.open = true;
  if (offset === undefined) found.shownEl.scrollIntoView({ block: 'center' });
  else scroller.scrollTop += found.el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + offset;
  unpin();
  if (flash) {
    v.el.classList.remove('flash');
    void v.el.offsetWidth; // restart the animation
    v.el.classList.add('flash');
  }
}

/** The first entry at least partly in view (an entry in a block counts with its block's box: `elementOf`). */
export function firstVisible(order: readonly EntryView[], scroller: HTMLElement, elementOf: (v: EntryView) => Element): EntryView | undefined {
  const top = scroller.getBoundingClientRect().top;
  // Entries are in document order: the first whose bottom is below the top edge.
  return order[firstEndingBelow(order.length, (i) => elementOf(order[i]!).getBoundingClientRect().bottom, top)];
}

/** The first entry in view and how far the view is scrolled into it (the anchor a reload restores). */
export function topAnchor(order: readonly EntryView[], scroller: HTMLElement, elementOf: (v: EntryView) => Element): { key: string; offset: number } | null {
  const v = firstVisible(order, scroller, elementOf);
  return v ? { key: v.key, offset: scroller.getBoundingClientRect().top - elementOf(v).getBoundingClientRect().top } : null;
}
