/**
 * Built entries that scrolled far from the viewport leave the document (parked in blocks, entryBlocks.ts)
 * and come back as they are when the viewport nears them. Without it every frame's style, layout,
 * pre-paint and paint grew with the number of entries ever built: in a Chromium trace of scrolling up a
 * 10,000-entry chat they doubled from the first to the last of 240 frames, although only a few entries
 * changed per frame. Keeping far entries in the document unrendered (`content-visibility: hidden`, or
 * their children `display: none`) still left 1,200 frames of scrolling at a p95 of 20-28 ms: the browser
 * still walked every one of them, in every frame.
 *
 * An entry is parked once it is more than FAR_PX from the viewport, twice the margin at which blocks open
 * again, so nothing near the viewport goes back and forth. It stays in the document while it holds the
 * focus, is part of the selection, or is a search match (the search's ranges would collapse). What needs
 * a parked entry goes through `Transcript.build`, which puts it back (search, reveal, jumps, pending
 * permissions). Like an older entry not shown yet, a parked entry is not in the accessibility tree; the
 * ones within FAR_PX are.
 *
 * Found from the scroll position like entryBlocks.ts: a binary search over the entries (document order)
 * for the ones within FAR_PX, and a walk over the entries in the document, which stay few.
 */
import { firstEndingBelow } from './dom';
import type { EntryView } from './entries/entryView';
import { bottomOf } from './entryBlocks';

/** Built entries farther than this from the viewport leave the document. */
const FAR_PX = 2400;

interface Far {
  readonly v: EntryView;
  /** Where its box was, when measured (px, fractional: whole pixels would move what is below). */
  readonly top: number;
  readonly height: number;
}

export class FarEntries {
  /** Built entries in the document: the only ones checked on each scroll. */
  private readonly placed = new Set<EntryView>();
  /** Entries found far by the last check, parked in the next animation frame. */
  private pending: Far[] = [];
  private frame = 0;

  constructor(
    private readonly scroller: HTMLElement,
    /** Entries in document order. */
    private readonly views: () => readonly EntryView[],
    /** The element standing for an entry (its block while it is in one). */
    private readonly elementOf: (v: EntryView) => HTMLElement,
    /** Takes consecutive entries out of the document, with their heights. */
    private readonly park: (views: readonly EntryView[], heights: readonly number[]) => void,
    /** Entries that must stay in the document (search matches). */
    private readonly keep: (v: EntryView) => boolean,
  ) {
    // Registered before the blocks' listener (transcript.ts), so its reads see the last frame's clean
    // layout; its writes wait for the frame's animation callbacks, so they do not make the blocks'
    // reads lay out again (a forced layout of ~1 ms a frame in the trace).
    scroller.addEventListener('scroll', () => this.check(), { passive: true });
  }

  /** Forgets every entry (a snapshot replaced them). */
  clear(): void {
    this.placed.clear();
    this.pending = [];
  }

  /** A built entry is in the document (built, or back from a block): it may be parked once it is far. */
  track(v: EntryView): void {
    this.placed.add(v);
  }

  /** An entry left the transcript. */
  forget(v: EntryView): void {
    this.placed.delete(v);
  }

  /** Finds the built entries far from the viewport (reads only; they are parked in the next frame). */
  check(): void {
    const views = this.views();
    const height = this.scroller.clientHeight;
    // A hidden panel has no layout: every offset reads 0.
    if (views.length === 0 || height === 0) return;
    const top = this.scroller.scrollTop - FAR_PX;
    const bottom = this.scroller.scrollTop + height + FAR_PX;
    // offsetTop is relative to the scroller's content (`.transcript` is positioned), as scrollTop is.
    const lo = firstEndingBelow(views.length, (i) => bottomOf(this.elementOf(views[i]!)), top);
    const near = new Set<EntryView>();
    for (let i = lo; i < views.length; i++) {
      const v = views[i]!;
      const el = this.elementOf(v);
      if (el.offsetTop >= bottom) break;
      near.add(v);
    }
    const sel = document.getSelection();
    const selection = sel && sel.rangeCount > 0 && !sel.isCollapsed ? sel : null;
    const active = document.activeElement;
    const far: Far[] = [];
    for (const v of this.placed) {
      if (near.has(v)) continue;
      if (!v.hydrated || !v.el.isConnected) {
        this.placed.delete(v);
        continue;
      }
      if (this.keep(v) || (active && v.el.contains(active)) || selection?.containsNode(v.el, true)) continue;
      const box = v.el.getBoundingClientRect();
      far.push({ v, top: box.top, height: box.height });
    }
    this.pending = far;
    if (far.length && !this.frame) this.frame = requestAnimationFrame(() => this.apply());
  }

  /** Parks what the last check found, in runs of entries that are siblings in the list. */
  private apply(): void {
    this.frame = 0;
    const active = document.activeElement;
    const far = this.pending.filter(({ v }) => this.placed.has(v) && v.el.isConnected && !(active && v.el.contains(active))).sort((a, b) => a.top - b.top);
    this.pending = [];
    let run: Far[] = [];
    const flush = (): void => {
      if (!run.length) return;
      for (const { v } of run) this.placed.delete(v);
      this.park(
        run.map((f) => f.v),
        run.map((f) => f.height),
      );
      run = [];
    };
    for (const f of far) {
      const last = run[run.length - 1];
      if (last && last.v.el.nextElementSibling !== f.v.el) flush();
      run.push(f);
    }
    flush();
  }
}
