/**
 * Watches a running turn for silence. A turn whose agent sends nothing for `stallMs` is stalled (told
 * once, until traffic resumes or the user chooses to keep waiting); a turn waiting on the user (a
 * permission or a question is open) is not stalled, however long the user takes. After a cancel, the
 * agent has `cancelBoundMs` to end the turn; if it does not, the turn is given up as cancelled.
 *
 * One timer at most per concern, armed for the remaining time: traffic only records a timestamp, so a
 * fast stream costs no timer churn, and an idle chat runs no timer at all.
 */
import type { Clock, TimerHandle } from './timers';

export interface TurnWatchEvents {
  /** The turn has been silent for `silentMs` (at least the stall time). */
  stalled(silentMs: number): void;
  /** Traffic came back after a stall. */
  resumed(): void;
  /** The agent did not end the turn within the bound after a cancel. */
  cancelUnacknowledged(): void;
}

export const DEFAULT_CANCEL_BOUND_MS = 10_000;

export class TurnWatch {
  private running = false;
  private cancelling = false;
  private waitingOnUser = false;
  private stalledNow = false;
  private last = 0;
  private stallTimer: TimerHandle | undefined;
  private cancelTimer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    /** Read at every arming, so a settings change applies to the next check (0: never a stall). */
    private readonly stallMs: () => number,
    private readonly events: TurnWatchEvents,
    private readonly cancelBoundMs = DEFAULT_CANCEL_BOUND_MS,
  ) {}

  get stalled(): boolean {
    return this.stalledNow;
  }

  turnStarted(): void {
    this.turnEnded();
    this.running = true;
    this.last = this.clock.now();
    this.arm();
  }

  /** Any message from the agent (or a response to us) while the turn runs. */
  traffic(): void {
    if (!this.running) return;
    this.last = this.clock.now();
    if (this.stalledNow) {
      this.stalledNow = false;
      this.events.resumed();
    }
    this.arm();
  }

  /** Whether the user is asked something (an open permission request or question); a fact kept across turns. */
  waiting(onUser: boolean): void {
    if (this.waitingOnUser === onUser) return;
    this.waitingOnUser = onUser;
    // The silence counts from when the user answered, not from before they were asked.
    this.last = this.clock.now();
    if (onUser) this.stopStallTimer();
    else this.arm();
  }

  /** The user chose to keep waiting: a new stall period starts now. */
  keepWaiting(): void {
    if (!this.running) return;
    this.stalledNow = false;
    this.last = this.clock.now();
    this.arm();
  }

  cancelRequested(): void {
    if (!this.running || this.cancelling) return;
    this.cancelling = true;
    this.stopStallTimer();
    this.cancelTimer = this.clock.setTimeout(() => {
      this.cancelTimer = undefined;
      if (this.running && this.cancelling) this.events.cancelUnacknowledged();
    }, this.cancelBoundMs);
  }

  /** The turn ended (or was given up): every timer stops. */
  turnEnded(): void {
    this.running = false;
    this.cancelling = false;
    this.stalledNow = false;
    this.stopStallTimer();
    this.cancelTimer?.cancel();
    this.cancelTimer = undefined;
  }

  dispose(): void {
    this.turnEnded();
  }

  private stopStallTimer(): void {
    this.stallTimer?.cancel();
    this.stallTimer = undefined;
  }

  private arm(): void {
    const stallMs = this.stallMs();
    if (!this.running || this.cancelling || this.waitingOnUser || this.stalledNow || stallMs <= 0 || this.stallTimer) return;
    const remaining = Math.max(0, stallMs - (this.clock.now() - this.last));
    this.stallTimer = this.clock.setTimeout(() => this.check(), remaining);
  }

  private check(): void {
    this.stallTimer = undefined;
    const stallMs = this.stallMs();
    if (!this.running || this.cancelling || this.waitingOnUser || stallMs <= 0) return;
    const silent = this.clock.now() - this.last;
    if (silent < stallMs) return this.arm();
    this.stalledNow = true;
    this.events.stalled(silent);
  }
}
