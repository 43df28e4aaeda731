/**
 * ChatThread: what a chat does with its connection, as Zed's `AcpThread` does with its `AgentConnection`:
 * turns (one in flight per session; steering, cancel, retry), the prompt queue, the editor-context chips,
 * the panel's state (through chatView), the client's own notices, and the hooks of the Changes review.
 *
 * Owns: the turn state (turn, its message, how the last turn ended, the turn generation, the turn of ours in
 * flight), the prompt queue (common/promptQueue), the context chips (promptContext) and whether the agent
 * works in the background (backgroundWork: shown as a busy turn with no prompt of ours pending). It reads,
 * never writes: the attached session, the agent and the link (the connection's: turns go to its `TurnAgent`), the transcript (the
 * store's; notices are written through the traffic). What the panel is told goes through the view (chatView), which builds the rest.
 */
import type { PanelState, TurnEnd, TurnState } from '../../common/webview/contract';
import type { PermissionBroker } from '../../common/permissionBroker';
import type { ContentBlock } from '../../common/protocol/content';
import { PromptQueue, type QueuedPrompt } from '../../common/promptQueue';
import type { NoticeActionId } from '../../common/notices';
import { lastUserMessage, promptOfMessage } from '../../common/rewind/rerunPrompt';
import { lastPromptInterrupted } from '../../common/store/connectionEndRules';
import { steered } from '../../common/protocol/steering';
import type { ContextItem } from '../../common/context';
import { promptBlocks } from './promptBlocks';
import type { ReviewAction } from '../../common/changes/review';
import { errorText } from '../../common/util/errors';
import { AcpClosedError } from '../acp/errors';
import { PromptContext } from './promptContext';
import { BACKGROUND_MESSAGE, BackgroundWork } from './backgroundWork';
import { TurnReview } from './turnReview';
import { systemClock } from '../../common/recovery/timers';
import { busySubagents, rootOf } from '../../common/store/sessionTree';
import type { AgentCapabilities, SessionNotification } from '../../common/protocol/requests';
import { runNoticeAction } from './connectionRecovery';
import type { ChatOptions, PromptImage } from './chatPorts';
import type { ChatConnection } from './chatConnection';
import type { ConnectionEvents } from './connectionEvents';
import type { ChatTraffic } from './chatTraffic';
import type { ChatView, ThreadFields } from './chatView';

export interface ThreadDeps {
  readonly options: ChatOptions;
  readonly connection: ChatConnection;
  readonly traffic: ChatTraffic;
  readonly broker: PermissionBroker;
  readonly view: ChatView;
}

export class ChatThread implements ConnectionEvents {
  private turn: TurnState = 'starting';
  private lastTurnEnd: TurnEnd = null;
  private message: string | null = null;
  /** Counts turns; a turn given up (its cancel unanswered) must not end the next one when it finally ends. */
  private turnGen = 0;
  /** The generation of the turn of ours whose prompt is in flight (null: none; a busy turn is then background work). */
  private foregroundGen: number | null = null;
  private readonly background: BackgroundWork;
  private readonly turns: TurnReview;
  private readonly queue = new PromptQueue();
  /** Editor context waiting for the next prompt (chips in the prompt box). */
  private readonly context = new PromptContext();
  private readonly o: ChatOptions;
  private readonly conn: ChatConnection;
  private readonly view: ChatView;

  constructor(private readonly d: ThreadDeps) {
    this.o = d.options;
    this.conn = d.connection;
    this.view = d.view;
    this.turns = new TurnReview(this.o.store, this.o.review, this.o.log);
    this.background = new BackgroundWork(
      this.o.clock ?? systemClock,
      () => this.busySubagents(),
      () => this.showBackground(),
    );
  }

  private get sessionId(): string | null {
    return this.conn.sessionId;
  }
  get turnState(): TurnState {
    return this.turn;
  }
  /** The thread's part of the panel state (the view builds the rest). */
  fields(): ThreadFields {
    return { turn: this.turn, lastTurnEnd: this.lastTurnEnd, message: this.message, queuedPrompts: this.queue.forPanel(), context: this.context.chips() };
  }

  /** Resolves when no turn is running and nothing is queued (or the agent is gone). */
  whenIdle(): Promise<void> {
    return this.queue.whenSettled(this.isSettled());
  }

  // ---------------------------------------------------------------- what the connection tells

  setTurn(turn: TurnState, message: string | null): void {
    this.turn = turn;
    this.message = message;
    this.panel({ turn, message, sessionId: this.sessionId });
  }

  failed(message: string, turn: TurnState): void {
    // A turn of ours cut off by the agent's exit (whichever of the exit and the closed prompt is heard first): Retry sends it again.
    if (this.foregroundGen !== null && (this.turn === 'busy' || this.turn === 'cancelling')) this.endTurnAs('interrupted');
    this.stopBackground();
    this.setTurn(turn, message);
    this.settleIdle();
  }

  ready(): void {
    // A chat reopened after a reload mid-turn: its last prompt carries the interrupted mark; Retry is offered.
    const s = this.turnGen === 0 && this.sessionId !== null ? this.o.store.session(this.sessionId) : undefined;
    if (s && this.lastTurnEnd === null && lastPromptInterrupted(s.entries, this.o.store.notices(s.sessionId))) this.endTurnAs('interrupted');
    this.stopBackground();
    this.setTurn('idle', null);
    this.view.attached();
    this.drainQueue();
  }

  switched(): void {
    if (this.foregroundGen === null && this.background.active) this.setTurn('idle', null);
    this.stopBackground();
    this.view.reset();
    this.view.treeChanged();
  }

  panel(fields: Partial<PanelState>): void {
    this.view.panel(fields);
  }

  abandonTurn(): void {
    this.turnGen++;
    this.foregroundGen = null;
    this.background.setForeground(false);
    this.endTurnAs('cancelled');
    this.setTurn('idle', null);
    this.drainQueue();
  }

  promptEntry(): string | undefined {
    return this.view.entries().findLast((e) => e.kind === 'user_message' && e.provenance === 'local')?.key;
  }

  /** The chat closes: whoever waits for it to settle is released. */
  close(): void {
    this.stopBackground();
    this.settleIdle(true);
  }

  // ---------------------------------------------------------------- background work

  /** An update of the link: one of the attached session or a subagent under it may be background work. */
  sessionUpdate(n: SessionNotification): void {
    const sid = this.sessionId;
    if (sid === null || (this.turn !== 'idle' && this.turn !== 'busy')) return;
    // Background work is a subagent's or comes after one (an agent with none just ends its turn late): asked
    // per update, so only O(1) and O(depth) look-ups here, no walk of the transcript.
    const store = this.o.store;
    if (store.subagentCount(sid) === 0 || (n.sessionId !== sid && rootOf(store, n.sessionId) !== sid)) return;
    this.background.update(n.update.sessionUpdate);
  }

  /** The connection or the session changed, or the chat closes: background work is over, and its review ends now, not at the next prompt. */
  private stopBackground(): void {
    this.background.reset();
    void this.turns.stopped();
  }

  private busySubagents(): number {
    const sid = this.sessionId;
    return sid === null ? 0 : busySubagents(this.o.store, sid).length;
  }

  /** Background work started or ended, outside a turn of ours (whose end shows it): the turn says so. */
  private showBackground(): void {
    if (this.sessionId !== null) this.turns.backgroundChanged(this.sessionId, this.background.active);
    if (this.foregroundGen !== null) return;
    if (this.background.active && this.turn === 'idle') this.setTurn('busy', BACKGROUND_MESSAGE);
    else if (!this.background.active && this.turn === 'busy') {
      this.setTurn('idle', null);
      this.drainQueue();
    }
  }

  // ---------------------------------------------------------------- turns

  /**
   * Sends a prompt, or queues it while a turn is running (one turn per session in flight). `steer`: while
   * a turn runs and the agent supports it, the prompt goes into that turn instead (see steerOrQueue).
   */
  prompt(text: string, images: readonly PromptImage[] = [], steer = false): void {
    const trimmed = text.trim();
    if (!trimmed && images.length === 0 && this.context.items().length === 0) return;
    // The chips go with this prompt (also when it is queued), and the prompt box starts empty again.
    const context = this.context.take();
    const prompt: QueuedPrompt = context.length ? { text: trimmed, images, context } : { text: trimmed, images };
    if (steer && this.turn === 'busy' && this.conn.turnAgent()?.canSteer) {
      this.panel({ context: [] });
      void this.steerOrQueue(prompt);
      return;
    }
    this.enqueue(prompt);
  }

  /** The prompt the user just sent with the chips it takes, not sent here (an edit goes to a branch). */
  takePrompt(text: string, images: readonly PromptImage[]): QueuedPrompt {
    const context = this.context.take();
    this.panel({ context: [] });
    return context.length ? { text: text.trim(), images, context } : { text: text.trim(), images };
  }

  /** Sends a prompt made elsewhere (a branch's first prompt), queued like any other. */
  send(prompt: QueuedPrompt): void {
    this.enqueue(prompt);
  }

  /** Retry: the session's last user message (the store's record of it), sent again in this session. */
  retry(): void {
    const last = this.sessionId === null ? undefined : lastUserMessage(this.o.store.session(this.sessionId)?.entries ?? []);
    if (last) this.enqueue(promptOfMessage(last.content));
  }

  private enqueue(prompt: QueuedPrompt): void {
    this.queue.push(prompt);
    this.panel({ queuedPrompts: this.queue.forPanel(), context: [] });
    if (this.turn === 'exited' || this.turn === 'error') void this.conn.restart();
    else this.drainQueue();
  }

  /**
   * `_session/steering` into the running turn. The store shows the prompt once the turn took it. When no
   * turn was running any more it is queued (and so sent as the next turn); when the agent could not take
   * it, it is queued too, and a notice says so.
   */
  private async steerOrQueue(prompt: QueuedPrompt): Promise<void> {
    const agent = this.conn.turnAgent();
    const sid = this.sessionId;
    if (!agent || sid === null) return this.enqueue(prompt);
    let failure: string | null;
    try {
      const r = await agent.steer(sid, await this.promptBlocks(prompt, agent.capabilities));
      failure = steered(r) || r.outcome === 'promptRequired' ? null : `the agent answered "${r.outcome}"${r.reason ? ` (${r.reason})` : ''}`;
      if (steered(r)) return;
    } catch (e) {
      failure = errorText(e);
    }
    if (this.conn.epoch !== agent.epoch) return;
    if (failure !== null)
      this.d.traffic.notice({ severity: 'warning', title: 'The message could not be steered into the running turn; it was queued instead.', description: failure });
    this.enqueue(prompt);
  }

  /** session/cancel: pending permission requests are answered `cancelled`, open tool calls shown cancelled. */
  cancel(): void {
    const agent = this.conn.turnAgent();
    const sid = this.sessionId;
    if (!agent || sid === null || (this.turn !== 'busy' && this.turn !== 'cancelling')) return;
    if (this.foregroundGen === null) {
      // Background work: no prompt of ours waits for the cancel's answer; the agent is told and the chat is free.
      agent.cancel(sid);
      this.stopBackground();
      this.setTurn('idle', null);
      this.drainQueue();
      return;
    }
    this.setTurn('cancelling', null);
    this.conn.supervisor.cancelRequested();
    agent.cancel(sid);
  }

  private drainQueue(): void {
    // Background work does not hold the queue: no prompt of ours is pending, so the next one may go.
    if (this.turn !== 'idle' && !(this.turn === 'busy' && this.foregroundGen === null)) return;
    const next = this.queue.shift();
    if (next === undefined) {
      this.settleIdle();
      return;
    }
    this.panel({ queuedPrompts: this.queue.forPanel() });
    void this.runTurn(next);
  }

  /** The content blocks of a prompt (promptBlocks.ts); dropped images are told as a notice. */
  private promptBlocks(prompt: QueuedPrompt, caps: AgentCapabilities | undefined): Promise<ContentBlock[]> {
    return promptBlocks(prompt, caps, this.o.buildPrompt, () =>
      this.d.traffic.notice({ severity: 'warning', title: `${this.conn.agent.name} does not accept images; the prompt was sent without them.` }),
    );
  }

  private async runTurn(prompt: QueuedPrompt): Promise<void> {
    const live = this.conn.turnAgent();
    const sid = this.sessionId;
    if (!live || sid === null) return;
    const notice = this.d.traffic.notice.bind(this.d.traffic);
    const agent = this.conn.agent.name;
    const gen = ++this.turnGen;
    this.foregroundGen = gen;
    this.background.setForeground(true);
    this.setTurn('busy', null);
    this.endTurnAs(null);
    this.conn.supervisor.turnStarted(prompt);
    let ended: TurnEnd = null;
    try {
      await this.turns.started(sid);
      const r = await live.prompt(sid, await this.promptBlocks(prompt, live.capabilities));
      if (r.stopReason === 'cancelled') ended = 'cancelled';
      if (r.stopReason === 'refusal')
        notice({ severity: 'warning', title: `${agent} refused this request.`, description: 'The prompt and the answer are left out of the next turn.' });
      else if (r.stopReason === 'max_tokens' || r.stopReason === 'max_turn_requests')
        notice({ severity: 'warning', title: `The turn stopped early (${r.stopReason}).`, description: 'Send "continue" to let the agent go on.' });
    } catch (e) {
      // The connection closed: the link's exit follows and judges the turn (onExit), not a failed prompt.
      if (e instanceof AcpClosedError) {
        if (this.turnGen === gen) this.endTurnAs('interrupted'); // cut off: Retry sends it again
        return this.foregroundEnded(gen);
      }
      // When the agent exited, onExit explained it.
      if (this.conn.epoch === live.epoch) notice({ severity: 'error', title: `The prompt failed: ${errorText(e)}`, description: 'Try again, or restart the agent.' });
      ended = 'error';
    }
    // After an exit the supervisor already knows (and keeps the prompt whose delivery is uncertain).
    if (this.conn.epoch === live.epoch && this.turnGen === gen) this.conn.supervisor.turnEnded();
    // What the agent sends from now on (its subagents' work, a turn of its own) is background work.
    if (this.turnGen === gen) this.background.setForeground(false);
    await this.turns.ended(sid);
    this.foregroundEnded(gen);
    if (this.conn.epoch !== live.epoch || this.turnGen !== gen) return;
    this.endTurnAs(ended);
    this.setTurn(this.background.active ? 'busy' : 'idle', this.background.active ? BACKGROUND_MESSAGE : null);
    this.drainQueue();
  }

  private foregroundEnded(gen: number): void {
    if (this.foregroundGen === gen) this.foregroundGen = null;
  }

  /** How the last turn ended (Retry is offered after an error or a cancel). */
  private endTurnAs(end: TurnEnd): void {
    if (this.lastTurnEnd === end) return;
    this.lastTurnEnd = end;
    this.panel({ lastTurnEnd: end });
  }

  reviewChanges(setId: string, index: number | null, action: ReviewAction): void {
    void this.o.review?.act(setId, index, action);
  }

  noticeAction(action: NoticeActionId): void {
    runNoticeAction(this.conn.supervisor, action, { cancel: () => this.cancel(), restart: () => this.conn.restart(), resend: (p) => this.enqueue(p) });
  }

  // ---------------------------------------------------------------- queue and context chips

  /** An edit of an earlier message begins: the chips become its context (the user's own come back at `endEdit`). */
  beginEdit(items: readonly Omit<ContextItem, 'id'>[]): void {
    this.context.beginEdit(items);
    this.panel({ context: this.context.chips() });
  }

  /** The edit was sent or cancelled: the chips the user had before it are back. */
  endEdit(): void {
    if (this.context.endEdit()) this.panel({ context: this.context.chips() });
  }

  /** Attaches editor context to the next prompt; the same file and range added twice is kept once. */
  addContext(item: Omit<ContextItem, 'id'>): void {
    if (this.context.add(item)) this.panel({ context: this.context.chips() });
  }

  removeContext(id: string): void {
    if (this.context.remove(id)) this.panel({ context: this.context.chips() });
  }

  /** The context attached to the next prompt (for tests and the API). */
  contextItems(): readonly ContextItem[] {
    return this.context.items();
  }

  removeQueued(id: string): void {
    if (this.queue.remove(id)) this.panel({ queuedPrompts: this.queue.forPanel() });
  }

  editQueued(id: string, text: string): void {
    if (this.queue.edit(id, text)) this.panel({ queuedPrompts: this.queue.forPanel() });
  }

  moveQueued(id: string, offset: number): void {
    if (this.queue.move(id, offset)) this.panel({ queuedPrompts: this.queue.forPanel() });
  }

  private isSettled(): boolean {
    return this.queue.length === 0 && (this.turn === 'idle' || this.turn === 'exited' || this.turn === 'error');
  }

  private settleIdle(force = false): void {
    if (!force && !this.isSettled()) return;
    this.queue.settle();
  }
}
