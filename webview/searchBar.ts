/**
 * Search in the transcript (Ctrl/Cmd+F). Matching entries are found in the model (so entries not yet
 * built are found too), built, and their matches highlighted with the CSS Custom Highlight API, which
 * marks text without changing the DOM the renderers own. An entry drawn in another's card (a question, a
 * subagent's task or step) is matched where it is drawn, and only there: its host's matches leave it out.
 */
import { button, h } from './dom';
import { entryPlainText } from './entryModel';
import { drawnBy } from './subagentPlacer';
import type { Transcript } from './transcript';

export class SearchBar {
  readonly el: HTMLElement;
  private readonly input = h('input', { type: 'search', 'aria-label': 'Search in conversation', placeholder: 'Search', class: 'search-input' });
  private readonly count = h('span', { class: 'search-count', 'aria-live': 'polite' });
  private ranges: Range[] = [];
  private current = -1;
  private hits: HTMLElement[] = [];
  /** Where focus was when search opened; it goes back there on close. */
  private returnFocus: HTMLElement | null = null;

  constructor(private readonly transcript: Transcript) {
    const prev = button('Previous match (Shift+Enter)', 'arrow-up', { class: 'icon-button' });
    const next = button('Next match (Enter)', 'arrow-down', { class: 'icon-button' });
    const close = button('Close search (Esc)', 'close', { class: 'icon-button' });
    this.el = h('div', { class: 'search-bar', role: 'search' }, this.input, this.count, prev, next, close);
    this.el.hidden = true;
    this.input.addEventListener('input', () => this.run(true));
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        this.step(e.shiftKey ? -1 : 1);
      }
    });
    // Esc anywhere in the bar (field or buttons) closes the search and nothing else.
    this.el.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      this.close();
    });
    prev.addEventListener('click', () => this.step(-1));
    next.addEventListener('click', () => this.step(1));
    close.addEventListener('click', () => this.close());
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  open(): void {
    const active = document.activeElement;
    if (active instanceof HTMLElement && !this.el.contains(active) && active !== document.body) this.returnFocus = active;
    this.el.hidden = false;
    this.input.focus();
    this.input.select();
    if (this.input.value) this.run(false);
  }

  close(): void {
    const hadFocus = this.el.contains(document.activeElement);
    this.el.hidden = true;
    this.clear();
    if (!hadFocus) return;
    const back = this.returnFocus?.isConnected && !this.returnFocus.closest('[hidden]') ? this.returnFocus : this.transcript.scroller;
    this.returnFocus = null;
    back.focus({ preventScroll: true });
  }

  /** Re-highlights after the transcript drew (streamed text may add matches); keeps the current position. */
  refresh(): void {
    if (this.isOpen && this.input.value) this.run(false);
  }

  private clear(): void {
    for (const el of this.hits) el.classList.remove('search-hit');
    this.hits = [];
    this.ranges = [];
    this.current = -1;
    this.count.textContent = '';
    if (typeof CSS !== 'undefined' && CSS.highlights) {
      CSS.highlights.delete('acp-search');
      CSS.highlights.delete('acp-search-current');
    }
  }

  private run(jump: boolean): void {
    const prevCurrent = this.current;
    this.clear();
    const q = this.input.value.toLowerCase();
    if (!q) return;
    const views = this.transcript.views;
    const guests = new Set(views.filter((v) => v.drawnIn).map((v) => v.shownEl));
    for (const v of views) {
      // The model first (entries not built yet are found too); built ones also by what they show.
      if (!entryPlainText(v.entry).toLowerCase().includes(q) && !(v.hydrated && (v.el.textContent ?? '').toLowerCase().includes(q))) continue;
      this.transcript.build(v);
      v.flush();
      const found = findRanges(v.shownEl, q, guests);
      if (!found.length) continue;
      // The element that stays in the document while searched is the outermost card's.
      const hit = drawnBy(v).el;
      hit.classList.add('search-hit');
      this.hits.push(hit);
      this.ranges.push(...found);
    }
    if (typeof CSS !== 'undefined' && CSS.highlights && this.ranges.length) CSS.highlights.set('acp-search', new Highlight(...this.ranges));
    if (!this.ranges.length) {
      this.count.textContent = 'No results';
      return;
    }
    // A new query starts at the latest match (the bottom of the conversation is what the user just read).
    this.current = jump || prevCurrent < 0 ? this.ranges.length - 1 : Math.min(prevCurrent, this.ranges.length - 1);
    this.show(jump);
  }

  private step(delta: number): void {
    if (!this.ranges.length) return this.run(true);
    this.current = (this.current + delta + this.ranges.length) % this.ranges.length;
    this.show(true);
  }

  private show(scroll: boolean): void {
    const r = this.ranges[this.current];
    this.count.textContent = `${this.current + 1} of ${this.ranges.length}`;
    if (!r) return;
    if (typeof CSS !== 'undefined' && CSS.highlights) CSS.highlights.set('acp-search-current', new Highlight(r));
    if (!scroll) return;
    const el = r.startContainer.parentElement;
    // A match inside a collapsed thought or raw-output toggle must be visible.
    for (let d = el?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    el?.scrollIntoView({ block: 'center' });
  }
}

/** The matches of `q` in `root`, leaving out what is drawn there for other entries (`guests`). */
function findRanges(root: HTMLElement, q: string, guests: ReadonlySet<Element>): Range[] {
  const out: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, (n) =>
    n !== root && guests.has(n as Element) ? NodeFilter.FILTER_REJECT : n.nodeType === Node.TEXT_NODE ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP,
  );
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.nodeValue ?? '').toLowerCase();
    for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + q.length)) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + q.length);
      out.push(r);
    }
  }
  return out;
}
