/**
 * Built entries far from the viewport rest: `content-visibility: hidden` at their measured size, so the
 * browser skips their style, layout and paint. Without it every frame's style, layout, pre-paint and
 * paint grew with the number of entries ever built: in a Chromium trace of scrolling up a 10,000-entry
 * chat they doubled from the first to the last of 240 frames (1,000 to 7,500 layout objects), although
 * only a few entries changed per frame. Resting keeps it at about 1,800.
 *
 * An entry rests once it is more than FAR_PX from the viewport and wakes when it comes back within
 * FAR_PX, beyond the margin at which entries are built: near the viewport nothing switches (what made
 * `content-visibility: auto` on every entry cost several ms a frame, see chat.css). Not `auto` for the
 * resting ones either: the browser then checks every one of them against the viewport in every frame
 * (an internal IntersectionObserver), 1.5 ms a frame after 250 entries and growing.
 *
 * A resting entry is like an entry not built yet: its wrapper keeps its role, label and size, its
 * contents are not rendered. Whatever needs them goes through `Transcript.build`, which wakes it
 * (search, reveal, jumps, pending permissions); an entry holding the focus never rests.
 *
 * Found from the scroll position like olderEntries.ts: a binary search over the entries (document
 * order) for the ones within FAR_PX, and a walk over the entries awake, which stay few.
 */
import type { EntryView } from './entries/entryView';

/** Entries farther than this from the viewport rest: twice the margin at which entries are built (transcript.ts). */
export const FAR_PX = 2400;

interface Writes {
  readonly near: readonly EntryView[];
  readonly toRest: readonly { readonly v: EntryView; readonly size: string }[];
}

export class RestingEntries {
  /** Entries not resting that may be built: the only ones checked on each scroll. */
  private readonly awake = new Set<EntryView>();
  private readonly resting = new Set<EntryView>();
  /** Writes found by the last check, done in the next animation frame. */
  private pending: Writes | null = null;
  private frame = 0;

  constructor(
    private readonly scroller: HTMLElement,
    /** Entries in document order. */
    private readonly views: () => readonly EntryView[],
    /** The element standing for an entry (its block while it waits in one). */
    private readonly elementOf: (v: EntryView) => HTMLElement,
  ) {
    // Registered before the older-entry blocks' listener (transcript.ts), so its reads see the last
    // frame's clean layout; its writes wait for the frame's animation callbacks, so they do not make
    // the blocks' reads lay out again (a forced layout of ~1 ms a frame in the trace).
    scroller.addEventListener('scroll', () => this.check(), { passive: true });
  }

  /** Forgets every entry (a snapshot replaced them). */
  clear(): void {
    this.awake.clear();
    this.resting.clear();
    this.pending = null;
  }

  /** Renders an entry again now (it is about to be built, shown, focused or measured). */
  wake(v: EntryView): void {
    this.awake.add(v);
    if (!this.resting.delete(v)) return;
    v.el.classList.remove('resting');
    v.el.style.containIntrinsicSize = '';
  }

  /** An entry left the transcript. */
  forget(v: EntryView): void {
    this.wake(v);
    this.awake.delete(v);
  }

  isResting(v: EntryView): boolean {
    return this.resting.has(v);
  }

  /** Finds what to wake and what to rest for the current scroll position (reads only). */
  check(): void {
    const views = this.views();
    const height = this.scroller.clientHeight;
    // A hidden panel has no layout: every offset reads 0.
    if (views.length === 0 || height === 0) return;
    const top = this.scroller.scrollTop - FAR_PX;
    const bottom = this.scroller.scrollTop + height + FAR_PX;
    // offsetTop is relative to the scroller's content (`.transcript` is positioned), as scrollTop is.
    let lo = 0;
    let hi = views.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const el = this.elementOf(views[mid]!);
      if (el.offsetTop + el.offsetHeight > top) hi = mid;
      else lo = mid + 1;
    }
    const near = new Set<EntryView>();
    for (let i = lo; i < views.length; i++) {
      const v = views[i]!;
      const el = this.elementOf(v);
      if (el.offsetTop >= bottom) break;
      if (el === v.el && v.hydrated) near.add(v);
    }
    const toRest: { v: EntryView; size: string }[] = [];
    for (const v of this.awake) {
      if (near.has(v) || !v.hydrated || !v.el.isConnected || v.el.contains(document.activeElement)) continue;
      toRest.push({ v, size: contentSize(v.el) });
    }
    this.pending = { near: [...near], toRest };
    if (!this.frame) this.frame = requestAnimationFrame(() => this.apply());
  }

  /** The writes of the last check. */
  private apply(): void {
    this.frame = 0;
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    for (const v of p.near) if (v.el.isConnected) this.wake(v);
    for (const { v, size } of p.toRest) {
      // Gone, focused or woken since the check: stays as it is.
      if (!this.awake.has(v) || this.resting.has(v) || !v.el.isConnected || v.el.contains(document.activeElement)) continue;
      this.awake.delete(v);
      this.resting.add(v);
      v.el.style.containIntrinsicSize = size;
      v.el.classList.add('resting');
    }
  }
}

/** The content box's size as `contain-intrinsic-size` wants it (padding and border come on top of it). */
function contentSize(el: HTMLElement): string {
  const cs = getComputedStyle(el);
  const px = (s: string): number => parseFloat(s) || 0;
  // Fractional, unlike offsetWidth/offsetHeight: a size rounded to whole pixels would move what is below.
  const box = el.getBoundingClientRect();
  const w = box.width - px(cs.paddingLeft) - px(cs.paddingRight) - px(cs.borderLeftWidth) - px(cs.borderRightWidth);
  const h = box.height - px(cs.paddingTop) - px(cs.paddingBottom) - px(cs.borderTopWidth) - px(cs.borderBottomWidth);
  return `${Math.max(0, w)}px ${Math.max(0, h)}px`;
}
