/**
 * When the chat's Changes review counts a turn, and which entries are that turn's (turnEntries.ts). A turn
 * of ours runs from its prompt to the review of its end. Work the agent does with no prompt of ours pending
 * (a background subagent's edits after its turn ended, the agent's own turn after it) is a turn of its own
 * for the review: from the moment the chat shows it working in the background to when it is quiet again,
 * so those edits get a summary and name their cards. A prompt sent meanwhile first ends that one; so does
 * the chat's restart (or a switch of session, or its closing).
 *
 * Owns: the marks of the turns in flight. The change sets are the review's.
 */
import type { ChangeReview } from '../../common/changes/review';
import { markTurn, sinceMark, type TurnMark } from '../../common/changes/turnEntries';
import type { MessageStore } from '../../common/store';
import { errorText } from '../../common/util/errors';

export class TurnReview {
  /** The turn of ours whose review has not ended yet (background work waits for it). */
  private ours: TurnMark | null = null;
  private background: { readonly sessionId: string; readonly mark: TurnMark } | null = null;
  /** Background work is on (as last told): its review starts once ours has ended. */
  private working: string | null = null;
  /** Reviews end one after another, in order. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MessageStore,
    private readonly review: ChangeReview | undefined,
    private readonly log: (level: 'error', message: string) => void,
  ) {}

  /** A prompt of ours goes out on `sessionId`: background work's review ends first. */
  async started(sessionId: string): Promise<void> {
    this.working = null;
    await this.endBackground();
    this.ours = markTurn(this.store, sessionId);
    this.review?.turnStarted(sessionId);
  }

  /** Its response came: the review of its end (before the turn counts as over, so a test or the next turn sees it). */
  async ended(sessionId: string): Promise<void> {
    const mark = this.ours;
    if (!mark) return;
    await this.end(sessionId, mark);
    this.ours = null;
    if (this.working !== null) this.startBackground(this.working);
  }

  /** Background work on `sessionId` started (true) or is over (false). */
  backgroundChanged(sessionId: string, active: boolean): void {
    this.working = active ? sessionId : null;
    if (!active) void this.endBackground();
    else if (this.ours === null) this.startBackground(sessionId);
  }

  /** The chat restarted, switched session or closes: background work is over, and its review ends now. */
  stopped(): Promise<void> {
    this.working = null;
    return this.endBackground();
  }

  private startBackground(sessionId: string): void {
    if (this.background || !this.review) return;
    this.background = { sessionId, mark: markTurn(this.store, sessionId) };
    this.review.turnStarted(sessionId);
  }

  private endBackground(): Promise<void> {
    const b = this.background;
    this.background = null;
    return b ? this.end(b.sessionId, b.mark) : this.chain;
  }

  private end(sessionId: string, mark: TurnMark): Promise<void> {
    const { entries, children } = sinceMark(this.store, sessionId, mark);
    const own = this.store.session(sessionId)?.entries ?? [];
    const run = this.chain.then(() => this.review?.turnEnded(sessionId, entries, own.at(-1)?.key ?? null, children));
    this.chain = run.catch((e: unknown) => this.log('error', `could not summarize the turn's changes: ${errorText(e)}`));
    return this.chain;
  }
}
