/**
 * Whether the agent works with no prompt of ours pending: "in the background". Agents do that with
 * subagents: a child runs on after the turn that started it ended, and when it reports back the agent runs
 * a turn of its own on the parent session, after the `session/prompt` response, with no end marker but its
 * last update (claude-agent-acp's background agents; test/fixtures/transcripts/claude-next-subagent-bg.jsonl).
 *
 * The work is on while a subagent under the chat's session is not done (reported `running` or waiting on the
 * user), or while updates of the session or its subagents keep coming; it is over once no subagent is busy
 * and none came for `quietMs`. Updates that only describe the session (commands, title, usage, modes,
 * config, v2 state) do not start it: agents send them around turns and on their own.
 *
 * Owns: whether background work is on, and when the last update of it came. The busy subagents are the
 * store's (read through `busySubagents`); the turn shown is the thread's (told through `changed`).
 */
import type { Clock, TimerHandle } from '../../common/recovery/timers';

/**
 * 3 s: longer than the pauses within one streamed answer (chunks come tens of milliseconds apart; a model's
 * first token after a tool result takes a second or two), short enough that the chat reads "Ready" soon
 * after the last word. Only what the chat shows depends on it: a prompt can be sent at any time, and an
 * update after the quiet period simply starts the work again.
 */
export const BACKGROUND_QUIET_MS = 3_000;

/** What the turn's message says while the agent works in the background. */
export const BACKGROUND_MESSAGE = 'Working in the background';

/** Updates about the session, not work on it (v2's `state_update` too: its `idle` ends a turn, its chunks are the work). */
const DESCRIBES_SESSION = new Set(['available_commands_update', 'session_info_update', 'usage_update', 'config_option_update', 'current_mode_update', 'state_update']);

export class BackgroundWork {
  private on = false;
  /** A prompt of ours is pending: what comes is its turn's, not background work. */
  private foreground = false;
  private lastUpdate = Number.NEGATIVE_INFINITY;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    /** How many subagents under the chat's session are not done (the store's). */
    private readonly busySubagents: () => number,
    /** Background work started or ended. */
    private readonly changed: () => void,
    private readonly quietMs = BACKGROUND_QUIET_MS,
  ) {}

  get active(): boolean {
    return this.on;
  }

  /** A prompt of ours went out (true) or was answered (false); after it, busy subagents carry on in the background. */
  setForeground(pending: boolean): void {
    // What came before our prompt is over as far as the chat shows: its turn takes over.
    if (pending) this.reset();
    this.foreground = pending;
    if (!pending) this.check();
  }

  /** An update of the chat's session or of a subagent under it (the store has taken it). */
  update(kind: string): void {
    if (this.foreground || (!this.on && DESCRIBES_SESSION.has(kind))) return;
    this.lastUpdate = this.clock.now();
    this.check();
  }

  /** The connection or the session changed, or the user stopped the work: nothing is running any more. */
  reset(): void {
    this.foreground = false;
    this.lastUpdate = Number.NEGATIVE_INFINITY;
    this.stop();
  }

  private stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.on = false;
  }

  private check(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.foreground) return;
    const quietFor = this.clock.now() - this.lastUpdate;
    const busy = this.busySubagents() > 0;
    const on = busy || quietFor < this.quietMs;
    // While a subagent is busy no timer runs: its state change (a subagent_update) checks again.
    if (on && !busy) this.timer = this.clock.setTimeout(() => this.check(), this.quietMs - quietFor);
    if (on === this.on) return;
    this.on = on;
    this.changed();
  }
}
