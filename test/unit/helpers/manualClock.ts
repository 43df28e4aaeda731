/** A Clock driven by hand: time moves only when a test calls advance(), and due timers run in order. */
import type { Clock, TimerHandle } from '../../../src/common/recovery/timers';

export class ManualClock implements Clock {
  private time = 0;
  private seq = 0;
  private timers: { at: number; seq: number; run: () => void }[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): TimerHandle {
    const t = { at: this.time + ms, seq: this.seq++, run };
    this.timers.push(t);
    return { cancel: () => (this.timers = this.timers.filter((x) => x !== t)) };
  }

  /** Timers waiting to run (for "no timer runs at rest" assertions). */
  get pending(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.run();
    }
    this.time = end;
  }
}
