/**
 * ChatView: what the chat's panel and tree are told. It builds the panel's state and snapshot from their
 * owners, turns store deltas into panel deltas (`showStoreDeltas`, the one place that does), and
 * fires the panel's and the tree's change events.
 *
 * Owns: the two change events. It owns no state it shows: the transcript and notices are the store's,
 * the attached and earlier sessions and the agent the connection's, the turn, queue and chips the
 * thread's (`ThreadFields`), the pending requests their brokers', the Changes summaries the review's.
 */
import { agentOrigin } from '../../common/config/agentUrl';
import { reattachedPanelFields, sessionPanelFields, type EarlierTranscript, type PanelState } from '../../common/webview/contract';
import type { Entry, SessionState } from '../../common/store/model';
import type { StoreDelta } from '../../common/store';
import type { PermissionBroker } from '../../common/permissionBroker';
import type { ElicitationBroker } from '../../common/elicitationBroker';
import { PanelSource } from '../../common/webview/panelFeed';
import { activityOf, touchedSubagents } from '../../common/webview/subagentActivity';
import { mayChangeResults, sameResults, subagentResults } from '../../common/webview/subagentResult';
import { announcementOf, sessionTree, subagentLabel } from '../../common/store/sessionTree';
import { supportsOperation } from '../../common/protocol/sessionOps';
import { Disposable, Emitter } from '../../common/util/lifecycle';
import type { ChatOptions } from './chatPorts';
import type { ChatConnection } from './chatConnection';
import type { ChatTraffic } from './chatTraffic';

/** The thread's part of the panel state. */
export type ThreadFields = Pick<PanelState, 'turn' | 'lastTurnEnd' | 'message' | 'queuedPrompts' | 'context'>;

export interface ViewDeps {
  readonly options: ChatOptions;
  readonly connection: ChatConnection;
  /** What the store changed, and what reached only the capture: shown as they come. */
  readonly traffic: Pick<ChatTraffic, 'onDidApply' | 'onDidNote'>;
  readonly broker: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  /** The thread, reached late: it is built after the view. */
  readonly thread: () => ThreadFields;
}

export class ChatView extends Disposable {
  /** The shipped store → panel step (the same one captures, benches and tests run). */
  private readonly source = this.register(new PanelSource());
  readonly onDidChange = this.source.onDidChange;
  private readonly treeChanges = this.register(new Emitter<void>());
  /** Fires (unbatched) on every store change; the tree coalesces. */
  readonly onDidChangeTree = this.treeChanges.event;
  private readonly storeChanges = this.register(new Emitter<readonly StoreDelta[]>());
  /** Every batch of store deltas, for the views of the chat's subagents (subagentModel.ts). */
  readonly onDidChangeStore = this.storeChanges.event;

  constructor(private readonly d: ViewDeps) {
    super();
    this.shown = this.transcriptShown();
    this.register(d.traffic.onDidApply((changes) => this.showStoreDeltas(changes)));
    this.register(d.traffic.onDidNote(() => this.treeChanged()));
    // A turn waiting on the user's answer is not stalled.
    const waiting = () => d.connection.supervisor.waiting(this.permissions().length > 0 || this.questions().length > 0);
    this.register(
      d.broker.onDidChange(() => {
        waiting();
        this.panel({ permissions: this.permissions() });
      }),
    );
    this.register(
      d.elicitations.onDidChange(() => {
        waiting();
        this.panel({ elicitations: this.questions() });
      }),
    );
    const review = d.options.review;
    if (review) this.register(review.onDidChange((c) => c.sessionId === this.sessionId && this.source.fire([{ type: 'changeSet', id: c.id, set: c.view }])));
  }

  private get sessionId(): string | null {
    return this.d.connection.sessionId;
  }

  /** The transcript the panel was last given whole (transcriptShown): its patches since are of that one. */
  private shown: string;

  current(): SessionState | undefined {
    return this.sessionId === null ? undefined : this.d.options.store.session(this.sessionId);
  }
  entries(): readonly Entry[] {
    return this.current()?.entries ?? [];
  }

  /** What the panel shows: the earlier transcript (if any) read-only, then this session's entries. */
  snapshot(): { entries: readonly Entry[]; panel: PanelState } {
    const earlier = this.earlierEntries();
    return { entries: earlier.length ? [...earlier, ...this.entries()] : this.entries(), panel: this.panelState() };
  }

  /** An entry the panel shows, by key: this session's, the earlier transcript's, or a subagent's under it (its transcript expanded, or its own view). */
  shownEntry(key: string): { readonly sessionId: string; readonly entry: Entry } | undefined {
    const shown = this.sessionId === null ? [] : sessionTree(this.d.options.store, this.sessionId);
    for (const sid of [...shown, this.d.connection.earlier?.sessionId]) {
      const entry = sid === null || sid === undefined ? undefined : this.d.options.store.session(sid)?.entries.find((e) => e.key === key);
      if (sid && entry) return { sessionId: sid, entry };
    }
    return undefined;
  }

  private earlierEntries(): readonly Entry[] {
    const earlier = this.d.connection.earlier;
    return earlier ? (this.d.options.store.session(earlier.sessionId)?.entries ?? []) : [];
  }

  private earlierForPanel(): EarlierTranscript | null {
    const earlier = this.d.connection.earlier;
    const count = this.earlierEntries().length;
    return earlier && count ? { sessionId: earlier.sessionId, entryCount: count, reason: earlier.reason } : null;
  }

  panelState(): PanelState {
    const { store, review } = this.d.options;
    const { connection } = this.d;
    const s = this.current();
    const earlier = connection.earlier;
    const facts = connection.facts();
    const t = this.d.thread();
    return {
      agentName: connection.agent.name,
      agentOrigin: agentOrigin(connection.agent),
      sessionId: this.sessionId,
      turn: t.turn,
      lastTurnEnd: t.lastTurnEnd,
      message: t.message,
      readOnly: false,
      canOpenSubagents: this.d.options.ui.openSubagent !== undefined,
      subagentActivity: this.activity,
      subagentResults: this.results,
      canFork: supportsOperation(facts?.capabilities, 'fork'),
      canSteer: facts?.canSteer ?? false,
      missingAgent: connection.missingAgent,
      ...sessionPanelFields(s),
      queuedPrompts: t.queuedPrompts,
      context: t.context,
      permissions: this.permissions(),
      elicitations: this.questions(),
      notices: store.notices(this.sessionId),
      // Terminal cards of the earlier transcript keep their output too.
      ...(earlier ? { terminals: { ...store.session(earlier.sessionId)?.terminals, ...s?.terminals } } : {}),
      earlier: this.earlierForPanel(),
      changeSets: review?.views(this.sessionId) ?? [],
      worktree: this.d.options.worktree?.() ?? null,
    };
  }

  /** The store changed: the panel gets view deltas, the tree a refresh. The one place store deltas become panel deltas. */
  private showStoreDeltas(changes: readonly StoreDelta[]): void {
    this.treeChanges.fire();
    this.storeChanges.fire(changes);
    this.showActivity(changes);
    this.showResults(changes);
    // The panel lists the earlier transcript first: this session's indexes count from after it.
    const offset = this.d.connection.earlier ? this.earlierEntries().length : 0;
    const diagnostics = this.source.storeChanged(changes, this.sessionId, () => this.current(), offset);
    for (const d of diagnostics) this.d.options.log(d.severity === 'error' ? 'error' : 'warn', `message store: ${d.message}${d.line !== undefined ? ` (message ${d.line})` : ''}`);
  }

  /** The cards' "now" lines: posted only when a subagent's open tool call changed what it says. */
  private activity: Readonly<Record<string, string>> = {};
  private showActivity(changes: readonly StoreDelta[]): void {
    const sid = this.sessionId;
    if (sid === null) return;
    const store = this.d.options.store;
    let next: Record<string, string> | undefined;
    for (const child of touchedSubagents(store, sid, changes)) {
      const now = activityOf(store.session(child));
      if ((this.activity[child] ?? '') !== now) (next ??= { ...this.activity })[child] = now;
    }
    if (next) this.panel({ subagentActivity: (this.activity = next) });
  }

  /** The cards' results where their replies are not (a background subagent's "launched"): posted when they change. */
  private results: PanelState['subagentResults'] = {};
  private showResults(changes: readonly StoreDelta[]): void {
    const sid = this.sessionId;
    if (sid === null || !mayChangeResults(changes)) return;
    const next = subagentResults(this.d.options.store, sid);
    if (!sameResults(next, this.results ?? {})) this.panel({ subagentResults: (this.results = next) });
  }

  panel(fields: Partial<PanelState>): void {
    this.source.fire([{ type: 'panel', fields }]);
  }

  /** The chat shows another session: the panel starts over. */
  reset(): void {
    this.shown = this.transcriptShown();
    this.source.reset();
  }

  /**
   * The agent is (re)attached. The panel starts over only if it now shows another transcript (a new session,
   * a failed reattach's earlier one). A reattached session's replay reached the panel as patches as it came,
   * and a fresh snapshot re-sent all of a long chat on each reload and agent restart; so the rest of its
   * state (what the connection learnt: capabilities, modes, commands) goes as fields (reattachedPanelFields).
   */
  attached(): void {
    if (this.transcriptShown() !== this.shown) return this.reset();
    this.panel(reattachedPanelFields(this.panelState()));
  }

  /** Which transcript the panel shows: the session and the earlier transcript above it. */
  private transcriptShown(): string {
    return JSON.stringify([this.sessionId, this.d.connection.earlier?.sessionId ?? null]);
  }

  /** Something only the tree shows changed (a skipped line, another session). */
  treeChanged(): void {
    this.treeChanges.fire();
  }

  /**
   * The permission requests and questions the panel shows: its session's and those of the subagents under
   * it (any depth), each of those saying which subagent asks, since the chat is where the user asked for
   * the work they are part of.
   */
  private permissions(): PanelState['permissions'] {
    const sid = this.sessionId;
    return sid === null ? [] : this.d.broker.pendingIn(new Set(sessionTree(this.d.options.store, sid))).map((p) => this.fromSubagent(p));
  }

  private questions(): PanelState['elicitations'] {
    const sid = this.sessionId;
    return this.d.elicitations.pendingIn(new Set(sid === null ? [] : sessionTree(this.d.options.store, sid))).map((p) => this.fromSubagent(p));
  }

  private fromSubagent<V extends { readonly fromSubagent?: string }>(p: { readonly sessionId: string | null; readonly view: V }): V {
    const asking = p.sessionId === null || p.sessionId === this.sessionId ? undefined : announcementOf(this.d.options.store, p.sessionId);
    return asking ? { ...p.view, fromSubagent: subagentLabel(asking) } : p.view;
  }
}
