/**
 * Where a reloaded chat opens (issue 38, item 10: it opened at its first turn). The one owner of the
 * position is the webview's saved state (`setState`, which VS Code keeps across a window reload and hands
 * back to a restored tab): the entry at the top of the view and how far the view was scrolled into it
 * (`scrollKey`, `scrollOffset`), or no entry while the user followed the stream (the bottom).
 *
 * The entry may not be here yet (a long chat's older part still to come) and the view may have no size yet
 * (a restored tab behind another one): the position waits for both, and is what is saved meanwhile, so a
 * second reload before it was shown keeps it.
 */
import type { Transcript } from './transcript';

interface Anchor {
  readonly key: string;
  /** Pixels of the entry above the view's top; null: center it (a host's `reveal` of an entry still to come). */
  readonly offset: number | null;
}

/** The saved position, read by type (a state from an older version may lack a field or hold junk). */
function savedAnchor(saved: unknown): Anchor | null {
  if (typeof saved !== 'object' || saved === null) return null;
  const { scrollKey, scrollOffset } = saved as { scrollKey?: unknown; scrollOffset?: unknown };
  if (typeof scrollKey !== 'string') return null;
  return { key: scrollKey, offset: typeof scrollOffset === 'number' && Number.isFinite(scrollOffset) ? scrollOffset : 0 };
}

export class ScrollRestore {
  private pending: Anchor | null;
  /** Whether entries are still to come (the snapshot, or an older part of it): the entry may be in them. */
  private more = true;
  private readonly shown = new ResizeObserver(() => this.apply());
  /**
   * The position just restored, held while the entries around it are built (their heights differ from the
   * estimates the view was scrolled with, and the browser's scroll anchoring does not hold an entry that is
   * itself being built): until the user scrolls, or the content stopped changing size for a few frames.
   */
  private held: Anchor | null = null;
  private quietFrames = 0;
  private readonly settling = new ResizeObserver(() => {
    if (!this.held) return;
    this.quietFrames = 0;
    this.transcript.reveal(this.held.key, false, this.held.offset ?? undefined);
  });

  constructor(
    private readonly transcript: Transcript,
    saved: unknown,
  ) {
    this.pending = savedAnchor(saved);
    this.shown.observe(transcript.scroller);
    const content = transcript.scroller.firstElementChild;
    if (content) this.settling.observe(content);
    const release = (): void => {
      this.held = null;
    };
    for (const e of ['wheel', 'pointerdown', 'touchstart', 'keydown']) transcript.scroller.addEventListener(e, release, { passive: true });
    document.addEventListener('keydown', release);
  }

  /** The host asked to show an entry that has not arrived yet: shown (centred) when it does. */
  later(key: string): void {
    this.pending = { key, offset: null };
  }

  /** Entries arrived (a snapshot, or an older part with `olderCount` more to come). */
  arrived(olderCount: number): void {
    this.more = olderCount > 0;
    this.apply();
  }

  /** What the saved state says: the position still to restore, else the view's own. */
  get state(): { scrollKey: string | null; scrollOffset?: number } {
    const a = this.pending?.offset != null ? this.pending : this.transcript.topAnchor();
    return a ? { scrollKey: a.key, scrollOffset: Math.round(a.offset ?? 0) } : { scrollKey: null };
  }

  private apply(): void {
    const a = this.pending;
    if (!a || this.transcript.scroller.clientHeight === 0) return; // not shown yet: the observer calls again
    if (this.transcript.reveal(a.key, false, a.offset ?? undefined)) this.hold(a);
    else if (this.more) return;
    this.pending = null;
  }

  private hold(a: Anchor): void {
    const waiting = this.held !== null;
    this.held = a;
    this.quietFrames = 0;
    if (waiting) return;
    const frame = (): void => {
      if (!this.held) return;
      if (++this.quietFrames >= 3) this.held = null;
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }
}
