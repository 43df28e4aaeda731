/**
 * The one timer behind every "running · 12 s" on the panel's subagent cards: it ticks once a second while
 * at least one card shows a running time, and is not there at all otherwise, so an idle panel wakes for
 * nothing and ten running subagents cost one timer, not ten.
 */

/** A card that shows a running time: redraws it on a tick, and says whether it still wants ticks. */
export interface Ticking {
  tick(now: number): boolean;
}

export class ElapsedClock {
  private readonly subscribers = new Set<Ticking>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(readonly now: () => number = () => Date.now()) {}

  /** Whether the timer runs (for tests: none while no card is running). */
  get ticking(): boolean {
    return this.timer !== null;
  }

  add(t: Ticking): void {
    this.subscribers.add(t);
    this.timer ??= setInterval(() => this.tick(), 1000);
  }

  remove(t: Ticking): void {
    this.subscribers.delete(t);
    this.stopIfIdle();
  }

  private tick(): void {
    const now = this.now();
    for (const t of [...this.subscribers]) if (!t.tick(now)) this.subscribers.delete(t);
    this.stopIfIdle();
  }

  private stopIfIdle(): void {
    if (this.subscribers.size > 0 || this.timer === null) return;
    clearInterval(this.timer);
    this.timer = null;
  }
}
