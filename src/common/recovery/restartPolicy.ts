/**
 * When to restart an agent that exited unexpectedly: at once for the first crash, then with a doubling
 * delay, and not at all once it crashed `maxFailures` times within `windowMs` (a crash loop: restarting
 * more would only burn CPU and hide the problem; the user gets a Restart button instead).
 * A successful reattach does not reset the count: an agent that comes up and dies again at once is
 * still a crash loop. Only the window forgets.
 */
import type { Clock } from './timers';

export interface RestartLimits {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RESTART_LIMITS: RestartLimits = { maxFailures: 3, windowMs: 120_000, baseDelayMs: 1_000, maxDelayMs: 10_000 };

export type RestartDecision =
  { readonly kind: 'restart'; readonly attempt: number; readonly delayMs: number } | { readonly kind: 'giveUp'; readonly failures: number; readonly windowMs: number };

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    private readonly limits: RestartLimits = DEFAULT_RESTART_LIMITS,
  ) {}

  /** Records a crash now and says what to do about it. */
  crashed(): RestartDecision {
    const now = this.clock.now();
    this.crashes = [...this.crashes.filter((t) => now - t < this.limits.windowMs), now];
    const n = this.crashes.length;
    if (n > this.limits.maxFailures) return { kind: 'giveUp', failures: n, windowMs: this.limits.windowMs };
    // The first restart is immediate: most crashes are one-offs, and the user is waiting.
    const delayMs = n === 1 ? 0 : Math.min(this.limits.baseDelayMs * 2 ** (n - 2), this.limits.maxDelayMs);
    return { kind: 'restart', attempt: n, delayMs };
  }

  /** The user restarted by hand: a fresh start deserves fresh attempts. */
  reset(): void {
    this.crashes = [];
  }
}
