/**
 * A subagent's own transcript as a chat model: the child session of a chat's store, shown read-only in a
 * panel of its own ("Open" on a delegation card). The child is not prompted by the user (its parent agent
 * does that), but what it asks is answered here: its pending permission requests and questions come from
 * the chat's brokers, and the answers go to the chat that owns them.
 *
 * Owns nothing it shows: the entries and the card (title, state) are the store's, the pending requests
 * their brokers'. Used by the live chat and by an opened capture alike, through `SubagentDeps`.
 */
import type { StoreDelta } from '../store';
import type { Entry, SessionState, SubagentEntry } from '../store/model';
import type { Notice } from '../notices';
import { Disposable, type Event } from '../util/lifecycle';
import type { ChatModel, ChildModel } from './chatModel';
import { sessionPanelFields, type ElicitationPrompt, type PanelState, type PermissionView, type TurnState, type WebviewToHost } from './contract';
import { EMPTY_PANEL } from './emptyPanel';
import { PanelSource } from './panelFeed';
import { announcementOf, isUnder, subagentLabel } from '../store/sessionTree';
import type { ChangeSetView } from '../changes/view';

export interface SubagentDeps {
  readonly sessionId: string;
  readonly agentName: string;
  session(sessionId: string): SessionState | undefined;
  notices(sessionId: string): readonly Notice[];
  /** Every batch of store deltas of the chat (the model keeps what concerns its session). */
  readonly onStoreChanged: Event<readonly StoreDelta[]>;
  /** What waits for the user in this session (none for a capture); `onDidChange` when that changes. */
  readonly pending?: { permissions(): readonly PermissionView[]; elicitations(): readonly ElicitationPrompt[]; readonly onDidChange: Event<void> };
  /** The user's actions that mean something here (answers, links, copy, diffs), handled by the chat. */
  act(message: WebviewToHost): void;
  /** The chat's Changes of this session's turns, for its tool cards' Kept / Undone (the review owns them; none for a capture). */
  readonly changes?: { views(): readonly ChangeSetView[]; readonly onDidChange: Event<{ readonly id: string; readonly view: ChangeSetView | null }> };
}

/** The chat's sets as this view shows them: on the cards only (the summary is the chat's own panel's). */
const onCards = (v: ChangeSetView): ChangeSetView => ({ ...v, cardsOnly: true });

/** The webview's messages a read-only subagent view passes on: answers and navigation, never a prompt. */
const PASSED_ON = new Set<WebviewToHost['type']>([
  'permission',
  'elicitation',
  'openLink',
  'openLocation',
  'copy',
  'insertCode',
  'applyCode',
  'openDiff',
  'openSubagent',
  'cancelSubagent',
]);

export class SubagentModel extends Disposable implements ChatModel {
  private readonly source = this.register(new PanelSource());
  readonly onDidChange = this.source.onDidChange;

  constructor(private readonly d: SubagentDeps) {
    super();
    this.register(d.onStoreChanged((changes) => this.storeChanged(changes)));
    if (d.changes) this.register(d.changes.onDidChange((c) => this.source.fire([{ type: 'changeSet', id: c.id, set: c.view && onCards(c.view) }])));
    if (d.pending) {
      const pending = d.pending;
      this.register(
        pending.onDidChange(() => this.source.fire([{ type: 'panel', fields: { permissions: pending.permissions(), elicitations: pending.elicitations(), turn: this.turn() } }])),
      );
    }
  }

  /** The parent's card for this child: its title and state. */
  card(): SubagentEntry | undefined {
    return announcementOf(this.d, this.d.sessionId);
  }

  title(): string {
    const c = this.card();
    return c ? subagentLabel(c) : 'Subagent';
  }

  /** Busy while the child works or waits for the user (the panel says "Waiting for you" itself when a request is open). */
  private turn(): TurnState {
    const state = this.card()?.state;
    return state === 'running' || state === 'requires_action' ? 'busy' : 'idle';
  }

  private storeChanged(changes: readonly StoreDelta[]): void {
    const sid = this.d.sessionId;
    this.source.storeChanged(changes, sid, () => this.d.session(sid));
    // The card lives in the parent: its state is this view's turn, its title the view's title. Only the child's
    // own parent holds a card for it (the store refuses any other announcement), so its id names it.
    if (cardChanged(changes, sid)) this.source.fire([{ type: 'panel', fields: { turn: this.turn(), title: this.title() } }]);
  }

  /** The session that started this one, named as the user knows it: its own card's title, else its title or the agent's name. */
  private parentSession(): Pick<PanelState, 'parentSession'> {
    const parentId = this.d.session(this.d.sessionId)?.parentSessionId;
    if (!parentId) return {};
    const card = announcementOf(this.d, parentId);
    return { parentSession: { sessionId: parentId, title: card ? subagentLabel(card) : (this.d.session(parentId)?.title ?? this.d.agentName) } };
  }

  snapshot(): { entries: readonly Entry[]; panel: PanelState } {
    const s = this.d.session(this.d.sessionId);
    return {
      entries: s?.entries ?? [],
      panel: {
        ...EMPTY_PANEL,
        agentName: `${this.d.agentName} · subagent`,
        sessionId: this.d.sessionId,
        turn: this.turn(),
        readOnly: true,
        ...sessionPanelFields(s),
        title: this.title(),
        ...this.parentSession(),
        permissions: this.d.pending?.permissions() ?? [],
        elicitations: this.d.pending?.elicitations() ?? [],
        notices: this.d.notices(this.d.sessionId),
        changeSets: this.d.changes?.views().map(onCards) ?? [],
      },
    };
  }

  handleWebviewMessage(m: WebviewToHost): void {
    if (PASSED_ON.has(m.type)) this.d.act(m);
  }

  /** A subagent under this one (any depth), expanded in its card: shown, not answered (the panel's own requests are). */
  subagentView(childSessionId: string): ChildModel | undefined {
    const d = this.d;
    if (!isUnder(d, childSessionId, d.sessionId)) return undefined;
    return new SubagentModel({
      sessionId: childSessionId,
      agentName: d.agentName,
      session: (id) => d.session(id),
      notices: (id) => d.notices(id),
      onStoreChanged: d.onStoreChanged,
      act: (m) => d.act(m),
    });
  }
}

/** Whether the parent's card for `sid` changed: a loop, not `some` with a closure, as this runs for every batch of the chat. */
function cardChanged(changes: readonly StoreDelta[], sid: string): boolean {
  for (const c of changes) if (c.type === 'entryUpdated' && c.entry.kind === 'subagent' && c.entry.childSessionId === sid) return true;
  return false;
}
