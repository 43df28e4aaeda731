/**
 * The connection supervisor of one chat: it decides what happens when the agent dies or goes quiet, and
 * owns the facts those decisions need (the crash history, the prompt whose delivery is uncertain, the
 * running turn's silence). The chat session does what it says through `SupervisorPorts`; nothing here
 * touches a process, a timer of its own or VS Code, so every path is tested with a manual clock.
 *
 * - Crash: restart at once, then with backoff; after too many crashes in a short time, stop and say so.
 *   A turn that was running is interrupted, never resumed or resent.
 * - A prompt sent but not yet answered by any traffic when the agent died is uncertain: the reattach
 *   asks for a replay (load before resume) and the replay decides whether it landed; if not (or there
 *   is no replay), it is offered back, never resent by itself.
 * - Stall: a running turn with no traffic for the stall time (not while the user is asked something)
 *   gets a quiet notice; a cancel the agent does not acknowledge is given up after a bound.
 */
import type { Notice } from '../notices';
import { promptLanded, ReplayedUserMessages, showsTurnWork, type SentPrompt } from './delivery';
import { RestartPolicy, type RestartLimits, DEFAULT_RESTART_LIMITS } from './restartPolicy';
import type { Clock, TimerHandle } from './timers';
import { TurnWatch, DEFAULT_CANCEL_BOUND_MS } from './turnWatch';

/** The crash notice's own button: it goes by itself once a later turn ends, or now. */
const DISMISS = { id: 'dismiss', label: 'Dismiss' } as const;

/** The notices the supervisor owns, by key (each shown at most once, replaced or removed by key). */
export type RecoveryNoticeKey = 'recovery' | 'stall' | 'undelivered' | 'late';

interface SupervisorSettings {
  readonly restartOnCrash: boolean;
  /** 0: no stall notice. */
  readonly stallNoticeSeconds: number;
}

export interface SupervisorPorts {
  readonly clock: Clock;
  readonly agentName: string;
  settings(): SupervisorSettings;
  /** Starts the agent again and reattaches the session (the chat's own start). */
  reconnect(): void;
  /** Shows, replaces (same key) or removes (null) one of the supervisor's notices. */
  notice(key: RecoveryNoticeKey, notice: Notice | null): void;
  /** The agent ignored a cancel: show the turn as cancelled and let the chat go on. */
  abandonTurn(): void;
  /** The transcript entry of the last prompt sent (the not-delivered notice is drawn on it). */
  promptEntry?(): string | undefined;
  /** The agent is reached by URL: its link drops with the network, and the notices say so. */
  readonly remote?: boolean;
}

export type ExitDecision =
  | { readonly kind: 'off' }
  | { readonly kind: 'restart'; readonly attempt: number; readonly delayMs: number; readonly maxAttempts: number }
  | { readonly kind: 'giveUp'; readonly failures: number; readonly windowMs: number };

export class ConnectionSupervisor<P extends SentPrompt = SentPrompt> {
  private readonly policy: RestartPolicy;
  private readonly watch: TurnWatch;
  private pendingRestart: TimerHandle | undefined;
  private uncertain: P | null = null;
  private replay: ReplayedUserMessages | null = null;
  private undelivered: P | null = null;
  private turnRunning = false;
  /** A turn was given up as cancelled without the agent's word: what it still sends for it is late. */
  private lateWindow = false;

  constructor(
    private readonly ports: SupervisorPorts,
    private readonly limits: RestartLimits = DEFAULT_RESTART_LIMITS,
    cancelBoundMs = DEFAULT_CANCEL_BOUND_MS,
  ) {
    this.policy = new RestartPolicy(ports.clock, limits);
    this.watch = new TurnWatch(
      ports.clock,
      () => Math.max(0, ports.settings().stallNoticeSeconds) * 1000,
      {
        stalled: (ms) =>
          this.ports.notice('stall', {
            severity: 'warning',
            title: `No word from ${this.ports.agentName} for ${Math.round(ms / 1000)} s.`,
            description: 'It may still be working, or be stuck. Nothing is waiting for your answer.',
            actions: [
              { id: 'keepWaiting', label: 'Keep waiting' },
              { id: 'cancel', label: 'Cancel turn' },
              { id: 'restart', label: 'Restart agent' },
            ],
          }),
        resumed: () => this.ports.notice('stall', null),
        cancelUnacknowledged: () => {
          this.turnEnded(); // first: a turn's end clears an older recovery notice, not this one
          this.ports.notice('recovery', {
            severity: 'warning',
            title: `${this.ports.agentName} did not confirm the cancel within ${Math.round(cancelBoundMs / 1000)} s; the turn is shown as cancelled.`,
            description: 'Anything it still sends for that turn is kept in the transcript.',
          });
          this.lateWindow = true;
          this.ports.notice('late', null);
          this.ports.abandonTurn();
        },
      },
      cancelBoundMs,
    );
  }

  // ------------------------------------------------------------ the running turn

  /** A prompt went to the agent: until traffic shows it was taken, its delivery is uncertain. */
  turnStarted(prompt: P): void {
    // What comes now belongs to the new turn (one turn at a time): nothing more is called late.
    this.lateWindow = false;
    this.turnRunning = true;
    this.uncertain = prompt;
    this.ports.notice('undelivered', null);
    this.undelivered = null;
    this.watch.turnStarted();
  }

  turnEnded(): void {
    if (!this.turnRunning) return;
    this.turnRunning = false;
    this.uncertain = null;
    this.watch.turnEnded();
    this.ports.notice('stall', null);
    // A turn came back from the agent since it stopped: the crash banner is old news (issue 38, item 8).
    this.ports.notice('recovery', null);
  }

  /** A message from the agent. While reattaching with an uncertain prompt, it is also replay evidence. */
  traffic(msg: unknown): void {
    this.replay?.observe(msg);
    if (!this.turnRunning) return;
    // Work on a turn after the prompt went out means the agent took the prompt (one turn at a time).
    if (showsTurnWork(msg)) this.uncertain = null;
    this.watch.traffic();
  }

  /**
   * Entries the store added or changed for a message from the agent. After a turn was given up, the first
   * one is marked late (a notice on it): it and what follows came after the turn was shown as cancelled.
   */
  stored(entryKeys: readonly string[]): void {
    const key = entryKeys[0];
    if (!this.lateWindow || key === undefined) return;
    this.lateWindow = false;
    this.ports.notice('late', {
      severity: 'info',
      title: `Late: ${this.ports.agentName} sent this after the turn was shown as cancelled.`,
      description: 'It is kept as it came; the turn did not stop when asked.',
      entryKey: key,
    });
  }

  /** Whether the turn waits on the user (a permission or a question is open): then silence is no stall. */
  waiting(onUser: boolean): void {
    this.watch.waiting(onUser);
  }

  cancelRequested(): void {
    this.watch.cancelRequested();
  }

  /** The user dismissed the crash notice (it also goes by itself once a later turn ends). */
  dismiss(): void {
    this.ports.notice('recovery', null);
  }

  /** The user chose Keep waiting on the stall notice. */
  keepWaiting(): void {
    this.ports.notice('stall', null);
    this.watch.keepWaiting();
  }

  // ------------------------------------------------------------ crashes

  /**
   * The agent exited unexpectedly (`reason`: how, for the notice). Returns what happens next; the chat
   * words its banner from it.
   */
  agentExited(reason: string): ExitDecision {
    const interrupted = this.turnRunning && this.uncertain === null;
    this.turnRunning = false;
    this.watch.turnEnded();
    this.ports.notice('stall', null);
    // An uncertain prompt is not called interrupted yet: the reattach finds out whether it landed.
    const turn = interrupted ? ' The running turn was interrupted; it is not resumed: send a message to go on.' : '';
    const decision = this.decide();
    const name = this.ports.agentName;
    const remote = this.ports.remote === true;
    if (decision.kind === 'giveUp') {
      this.ports.notice('recovery', {
        severity: 'error',
        title: remote
          ? `The connection to ${name} failed ${decision.failures} times within ${Math.round(decision.windowMs / 1000)} s; it is not retried again automatically.`
          : `${name} stopped ${decision.failures} times within ${Math.round(decision.windowMs / 1000)} s and is not restarted again automatically.`,
        description: `Last: ${reason}.${turn} Read the agent log (ACP: Show Agent Log), then restart it.`,
        actions: [{ id: 'restart', label: 'Restart agent' }],
      });
    } else if (decision.kind === 'restart') {
      const what = remote ? `The connection to ${name} was lost; reconnecting` : `${name} stopped unexpectedly and was restarted`;
      this.ports.notice('recovery', {
        severity: 'warning',
        title: `${what} (attempt ${decision.attempt} of ${decision.maxAttempts}).`,
        description: `${reason}.${turn}`,
        actions: [DISMISS],
      });
    } else if (interrupted) {
      this.ports.notice('recovery', {
        severity: 'warning',
        title: 'The running turn was interrupted when the agent stopped.',
        description: 'It is not resumed: send a message to go on.',
        actions: [DISMISS],
      });
    }
    return decision;
  }

  private decide(): ExitDecision {
    if (!this.ports.settings().restartOnCrash) return { kind: 'off' };
    this.cancelPendingRestart();
    const d = this.policy.crashed();
    if (d.kind === 'giveUp') return d;
    this.pendingRestart = this.ports.clock.setTimeout(() => {
      this.pendingRestart = undefined;
      this.ports.reconnect();
    }, d.delayMs);
    return { ...d, maxAttempts: this.limits.maxFailures };
  }

  /** Whether the next reattach should replay the session (load first): only a replay can settle an uncertain prompt. */
  wantsReplay(): boolean {
    return this.uncertain !== null;
  }

  /** The session is being reattached: collect its replayed user messages if they must decide something. */
  reattaching(sessionId: string): void {
    this.replay = this.uncertain ? new ReplayedUserMessages(sessionId) : null;
  }

  /** The reattach finished (`replayed`: by session/load, so the replay was complete). */
  reattached(replayed: boolean): void {
    const sent = this.uncertain;
    const evidence = this.replay?.messages() ?? [];
    this.replay = null;
    this.uncertain = null;
    if (!sent) return;
    if (replayed && promptLanded(sent, evidence)) {
      this.ports.notice('recovery', {
        severity: 'warning',
        title: 'Your last message reached the agent before it stopped; that turn was interrupted.',
        description: 'It is not resumed: send a message to go on.',
      });
      return;
    }
    this.undelivered = sent;
    this.ports.notice('recovery', null);
    // Drawn on the prompt's own entry when there is one (the entry shows the text); else with the text.
    const entryKey = this.ports.promptEntry?.();
    this.ports.notice('undelivered', {
      severity: 'warning',
      title: replayed ? 'This message was not delivered: the agent stopped before taking it.' : 'This message may not have been delivered: the agent stopped before confirming it.',
      description: entryKey !== undefined ? null : sent.text.length > 200 ? `${sent.text.slice(0, 200)}…` : sent.text,
      actions: [
        { id: 'resend', label: 'Resend' },
        { id: 'edit', label: 'Edit' },
      ],
      fill: sent.text,
      ...(entryKey !== undefined ? { entryKey } : {}),
    });
  }

  /** Resend or Edit was chosen: the prompt goes back to the user (once). */
  takeUndelivered(): P | null {
    const p = this.undelivered;
    this.undelivered = null;
    this.ports.notice('undelivered', null);
    return p;
  }

  /**
   * The user restarted by hand: fresh attempts, no restart pending, no give-up notice; a running turn
   * stops being watched (an uncertain prompt stays, for the reattach to decide).
   */
  manualRestart(): void {
    this.policy.reset();
    this.cancelPendingRestart();
    this.turnRunning = false;
    this.watch.turnEnded();
    this.ports.notice('stall', null);
    this.ports.notice('recovery', null);
  }

  dispose(): void {
    this.cancelPendingRestart();
    this.watch.dispose();
  }

  private cancelPendingRestart(): void {
    this.pendingRestart?.cancel();
    this.pendingRestart = undefined;
  }
}
