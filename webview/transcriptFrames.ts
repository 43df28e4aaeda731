/**
 * The transcript's work per animation frame: drawing the views that changed, and building entries that came
 * near the viewport. Its own file because both are one policy, how much of a frame the transcript may use:
 * patches only mark views dirty, and streamed text alone is drawn at most every third frame (~20 times a
 * second; text a person reads looks as fluid, and each drawing costs the frame's style, layout, paint and
 * scroll-follow whatever it adds); anything else is drawn in the next frame. Entries near the viewport are
 * built newest first, BUILD_BUDGET_MS per frame, the rest waiting a frame.
 */
import type { EntryView } from './entries/entryView';

/** Time per frame spent building entries that scrolled near the viewport; the rest waits a frame. */
const BUILD_BUDGET_MS = 6;
/**
 * Streamed text is drawn when this long has passed since the last drawing: every third frame at 60 Hz (45,
 * not 50: frame times jitter, and a frame due at 49.9 ms would wait for the fourth). In a trace of the paced
 * stream each drawing cost ~9 ms of the renderer's main thread and ~5 ms of its other threads whatever it
 * added; every other frame (25) was ~0.34 of a core for the paced stream, every third ~0.25 (interleaved
 * rounds, bench/pacedProfile.mjs, on a loaded machine).
 */
const TEXT_FRAME_MS = 45;
/**
 * Once an answer has streamed steadily for STEADY_AFTER_MS (text drawn with no pause over PAUSE_MS and
 * nothing else drawn), its text is drawn every STEADY_FRAME_MS instead (about 10 times a second): the
 * start of an answer, and any answer after a pause or a new entry, shows at once, while a long answer costs
 * about half the drawings. In the paced stream (bench/pacedProfile.mjs) 95 ms instead of 45 took the
 * renderer from ~0.31 to ~0.22 of a core.
 */
const STEADY_AFTER_MS = 2000;
const STEADY_FRAME_MS = 95;
const PAUSE_MS = 400;
/** One frame at 60 Hz: a timer that waits for a drawing ends this much early, and the frame follows. */
const FRAME_MS = 16;

export class TranscriptFrames {
  private readonly dirty = new Set<EntryView>();
  /** Entries near the viewport waiting to be built. */
  private readonly toBuild = new Set<EntryView>();
  private buildFrame = 0;
  private frame = 0;
  /** Waits until streamed text may be drawn again (then a frame is asked for). */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether something other than streamed text waits to be drawn (drawn in the next frame, not later). */
  private pendingNotText = false;
  private lastDraw = -Infinity;
  /** When the current steady stream of text drawings began (see STEADY_AFTER_MS). */
  private steadySince = Infinity;
  /** Whether steadyChanged last said true, and the timer that says false after a pause. */
  private steady = false;
  private steadyEnd: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** Builds one entry's contents (the transcript's hydrate). */
    private readonly build: (v: EntryView) => void,
    /** After each frame that drew something. */
    private readonly drawn: () => void,
    /**
     * An answer's text starts or stops streaming steadily (see STEADY_AFTER_MS; it stops after PAUSE_MS
     * with no text drawn): the panel's turn spinner rests meanwhile, as the text shows the agent at work.
     */
    private readonly steadyChanged: (steady: boolean) => void,
  ) {}

  /** `v` changed: drawn in the next frame, or (`textOnly`, streamed text) within TEXT_FRAME_MS. */
  markDirty(v: EntryView, textOnly = false): void {
    this.dirty.add(v);
    if (!textOnly) this.pendingNotText = true;
    this.schedule();
  }

  /** `v` came near the viewport: built in a coming frame. */
  buildSoon(v: EntryView): void {
    this.toBuild.add(v);
    this.scheduleBuild();
  }

  /** `v` is built now or gone: nothing for it waits. */
  forget(v: EntryView): void {
    this.toBuild.delete(v);
    this.dirty.delete(v);
  }

  /** `v` was built now: it no longer waits to be built. */
  built(v: EntryView): void {
    this.toBuild.delete(v);
  }

  clear(): void {
    this.dirty.clear();
    this.toBuild.clear();
  }

  /** Draws everything pending now. */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.stopTimer();
    const now = performance.now();
    // Text drawn after text, without a pause, continues a steady stream; anything else starts it again.
    if (this.pendingNotText) this.steadySince = Infinity;
    else if (this.steadySince === Infinity || now - this.lastDraw > PAUSE_MS) this.steadySince = now;
    this.pendingNotText = false;
    this.lastDraw = now;
    this.setSteady(now - this.steadySince >= STEADY_AFTER_MS);
    let drew = false;
    for (const v of this.dirty) drew = v.flush() || drew;
    this.dirty.clear();
    if (drew) this.drawn();
  }

  /**
   * Asks for the frame that draws what waits (also when only a layout change, not a view, waits). Text
   * that may not be drawn yet waits on a timer, not on a frame asked for again and again: every frame asked
   * for costs the renderer a frame's work (style, paint, the compositor) even when nothing is drawn, and
   * in the paced stream that was 60 frames a second for 10 drawings.
   */
  schedule(): void {
    if (this.frame) return;
    const now = performance.now();
    const wait = this.pendingNotText ? 0 : this.lastDraw + this.interval(now) - now;
    if (wait > FRAME_MS) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait - FRAME_MS);
      return;
    }
    this.stopTimer();
    this.frame = requestAnimationFrame((t) => {
      this.frame = 0;
      if (this.pendingNotText || t - this.lastDraw >= this.interval(t)) return this.flush();
      this.schedule();
    });
  }

  /** Says when a steady stream starts, and ends it PAUSE_MS after its last drawing. */
  private setSteady(steady: boolean): void {
    clearTimeout(this.steadyEnd);
    this.steadyEnd = steady ? setTimeout(() => this.setSteady(false), PAUSE_MS) : undefined;
    if (steady === this.steady) return;
    this.steady = steady;
    this.steadyChanged(steady);
  }

  /** How long after the last drawing streamed text may be drawn again. */
  private interval(now: number): number {
    return now - this.steadySince >= STEADY_AFTER_MS ? STEADY_FRAME_MS : TEXT_FRAME_MS;
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private scheduleBuild(): void {
    if (this.buildFrame || this.toBuild.size === 0) return;
    this.buildFrame = requestAnimationFrame(() => {
      this.buildFrame = 0;
      const t0 = performance.now();
      for (const v of this.toBuild) {
        this.toBuild.delete(v);
        this.build(v);
        if (performance.now() - t0 > BUILD_BUDGET_MS) break;
      }
      this.scheduleBuild();
    });
  }
}
