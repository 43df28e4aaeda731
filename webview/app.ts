/**
 * The chat panel: wires the transcript, panel chrome, prompt box and search to the host contract
 * (ready -> snapshot -> patches: every host message is decoded here, by `WireDecoder`). The document-level
 * keys are panelKeys.ts; link, location and copy clicks panelClicks.ts.
 */
import { OrphanQuestions } from './orphanQuestions';
import type { ViewEntry as Entry } from '../src/common/webview/viewEntry';
import type { HostToWebview, PanelState, PatchOp, TerminalView, WebviewPersistedState, WebviewToHost } from '../src/common/webview/contract';
import { EMPTY_PANEL } from '../src/common/webview/emptyPanel';
// Not via contract.ts: that module also builds the zod schema the host uses, which the webview does not need.
import { WEBVIEW_PROTOCOL_VERSION } from '../src/common/webview/version';
import { WireDecoder } from '../src/common/webview/wireDecoder';
import { applyEntryOp } from './entryOps';
import { h } from './dom';
import { Narrator } from './narrator';
import { JumpToLatest } from './jumpToLatest';
import { EntryNotices } from './entryNotices';
import { PanelView } from './panelView';
import { PromptBox } from './promptBox';
import { SearchBar } from './searchBar';
import { Transcript } from './transcript';
import { ChangesView } from './changesView';
import { RerunBar } from './rerunBar';
import { PanelKeys } from './panelKeys';
import { onPanelClick } from './panelClicks';
import type { VsCodeApi } from './vscodeApi';
import { SubagentView } from './entries/subagentView';
import { ElapsedClock } from './elapsedClock';
import { promptTakesArrivingFocus } from './arrivingFocus';
import { bringNewRequestsIntoView, focusAfterAnswer } from './requestsInView';
import { TurnEndMark } from './turnEndMark';
import { FoldedTurns } from './foldedTurns';
import { restoredExpansion, SubagentTranscripts } from './subagentTranscripts';
import { ScrollRestore } from './scrollRestore';

export class ChatApp {
  private panel: PanelState = EMPTY_PANEL;
  private readonly transcript: Transcript;
  private readonly panelView: PanelView;
  private readonly orphanQuestions: OrphanQuestions;
  private readonly prompt: PromptBox;
  private readonly search: SearchBar;
  private readonly narrator: Narrator;
  private readonly jump: JumpToLatest;
  private readonly entryNotices: EntryNotices;
  private readonly changes: ChangesView;
  private readonly rerun: RerunBar;
  private readonly endMark = new TurnEndMark();
  private readonly folds = new FoldedTurns();
  /** Subagent transcripts expanded in their cards, each fed on its own (`subagent` messages). */
  private readonly subagents: SubagentTranscripts;
  /** Where the view was before a reload, until it is back there. */
  private readonly scroll: ScrollRestore;
  /** Requests answered here but not yet removed by the host: hidden at once so a second key press answers the next one. */
  private readonly answered = new Set<string>();
  /** Terminals' live output, from the snapshot and `terminal` ops. */
  private readonly terminals = new Map<string, TerminalView>();
  private protocolMismatch: string | null = null;
  private draft = '';
  private resyncTimer = 0;
  private saveTimer = 0;
  /**
   * Messages held back behind an `older` part of a snapshot: each older part is handled after a frame
   * was painted, one per frame, so the newest entries show first and the panel stays responsive while
   * a long history arrives; everything after it waits its turn, in order.
   */
  private backlog: HostToWebview[] | null = null;
  /** Entries' wire form back to what the transcript holds; patches' handles back to keys. */
  private readonly wire = new WireDecoder();

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {
    const post = (m: WebviewToHost): void => this.post(m);
    const base = {
      post,
      agentName: () => this.panel.agentName,
      roots: () => this.panel.roots ?? [],
      oldestPermission: () => this.pendingPermissions()[0]?.requestId ?? null,
      sessionTitle: (id: string) => this.sessionTitle(id),
      canOpenSubagents: () => this.panel.canOpenSubagents === true,
      subagentActivity: (id: string) => this.panel.subagentActivity?.[id],
      subagentResult: (id: string) => this.panel.subagentResults?.[id],
      cardReview: (key: string) => this.changes.cardReview(key),
      clock: new ElapsedClock(),
    };
    const expansion = { base, post, saved: () => this.saveState(), resync: (why: string) => this.resync(why), placed: () => this.renderPanel() };
    this.subagents = new SubagentTranscripts(expansion, restoredExpansion(api.getState()));
    this.transcript = new Transcript({
      ...base,
      terminal: (id) => this.terminals.get(id),
      sessionId: () => this.panel.sessionId,
      subagentTranscripts: this.subagents,
      isStreaming: (key) => {
        const entries = this.transcript.views;
        return (this.panel.turn === 'busy' || this.panel.turn === 'cancelling') && entries[entries.length - 1]?.key === key;
      },
    });
    this.transcript.onOutOfSync = (why) => this.resync(why);
    this.scroll = new ScrollRestore(this.transcript, api.getState());
    this.narrator = new Narrator((key) => this.transcript.view(key)?.entry);
    this.jump = new JumpToLatest(
      () => this.transcript.jumpToLatest(),
      (t) => this.narrator.say(t),
      () => this.transcript.scroller.focus({ preventScroll: true }),
    );
    this.transcript.onNewBelow = () => this.jump.newBelow();
    this.transcript.onPinChange = (pinned) => (pinned ? this.jump.hide() : this.jump.away());
    this.entryNotices = new EntryNotices(
      (n) => this.panelView.noticeElement(n),
      (el, key) => this.transcript.placeAfter(el, key),
    );
    this.changes = new ChangesView({ post, transcript: this.transcript, transcripts: () => [this.transcript, ...this.subagents.transcripts], say: (t) => this.narrator.say(t) });
    this.panelView = new PanelView(post, () => this.prompt.focus());
    this.orphanQuestions = new OrphanQuestions(post);
    this.rerun = new RerunBar(post, () => this.prompt.focus());
    this.prompt = new PromptBox(post, (d) => {
      this.draft = d;
      this.saveState();
    });
    this.search = new SearchBar(this.transcript);
    this.transcript.onDrawn = () => this.search.refresh();
    // The chat's own answer only: a subagent's expanded transcript streaming does not rest the turn's spinner.
    this.transcript.onSteadyText = (steady) => document.body.classList.toggle('text-streaming', steady);
    this.panelView.onSearch = () => this.search.open();
    // A prompt given back (a notice's Edit) is the draft again, as a restored message is.
    this.panelView.onEditPrompt = (text) => this.prompt.restoreDraft(text, []);

    const saved = api.getState() as Partial<WebviewPersistedState> | undefined;
    if (saved && typeof saved === 'object') {
      this.draft = typeof saved.draft === 'string' ? saved.draft : '';
      this.prompt.setDraft(this.draft);
    }

    // Chrome above and below the conversation may shrink (and scroll) but the conversation keeps at
    // least half the panel, also in a short panel or at 200% zoom; the prompt box never shrinks.
    root.replaceChildren(
      h('div', { class: 'chrome-top' }, this.panelView.header, this.search.el, this.panelView.notices, this.panelView.plan),
      this.transcript.scroller,
      h('div', { class: 'footer' }, this.jump.el, this.orphanQuestions.el, this.rerun.el, this.panelView.footerNotes, this.prompt.el),
      this.narrator.el,
    );
    this.renderPanel();
    root.addEventListener('click', (e) => onPanelClick(e, post));
    const keys = new PanelKeys({
      transcript: this.transcript,
      search: this.search,
      prompt: this.prompt,
      pendingPermissions: () => this.pendingPermissions(),
      turn: () => this.panel.turn,
      post,
    });
    document.addEventListener('keydown', (e) => keys.onKey(e));
    window.addEventListener('message', (e: MessageEvent<HostToWebview>) => this.receive(e.data));
    this.transcript.scroller.addEventListener('scroll', () => this.saveStateSoon(), { passive: true });
  }

  /** Announces the webview; the host answers with a snapshot (again after every reload). */
  start(): void {
    // Remember which chat this tab shows right away, so a reload before any typing or scrolling restores it.
    const chatId = document.body.dataset['chatId'];
    if (chatId) this.saveState();
    this.post({ type: 'ready', protocol: WEBVIEW_PROTOCOL_VERSION });
    promptTakesArrivingFocus(() => this.prompt.focus());
  }

  /** Draws pending changes immediately (tests and the bench; normally a frame callback does this). */
  flush(): void {
    this.transcript.flush();
    this.subagents.flush();
  }

  receive(msg: HostToWebview): void {
    if (this.backlog) {
      this.backlog.push(msg);
      return;
    }
    if (msg?.type === 'older') {
      this.backlog = [msg];
      this.drainSoon();
      return;
    }
    this.handle(msg);
  }

  /** After the next paint: handles held-back messages up to and including the next `older` part. */
  private drainSoon(): void {
    requestAnimationFrame(() =>
      setTimeout(() => {
        const queue = this.backlog ?? [];
        while (queue.length) {
          const m = queue.shift()!;
          this.handle(m);
          if (m.type === 'older' && queue.length) return this.drainSoon();
        }
        this.backlog = null;
      }, 0),
    );
  }

  private handle(msg: HostToWebview): void {
    try {
      switch (msg?.type) {
        case 'snapshot':
          return this.onSnapshot(this.wire.snapshot(msg.entries, msg.olderCount ?? 0), msg.panel, msg.protocol, msg.olderCount ?? 0);
        case 'older':
          this.transcript.prependOlder(this.wire.older(msg.entries, msg.olderCount), msg.olderCount);
          this.renderPanel();
          return this.scroll.arrived(msg.olderCount);
        case 'patch':
          for (const op of msg.ops) this.applyOp(op);
          return;
        case 'reveal':
          if (!this.transcript.reveal(msg.key)) this.scroll.later(msg.key); // an older part still to come: shown when it arrives
          return;
        case 'focusPrompt':
          return this.prompt.focus();
        case 'editPrompt':
          return this.prompt.beginEdit(msg.key, msg.text, msg.images);
        case 'restoreDraft':
          return this.prompt.restoreDraft(msg.text, msg.images);
        case 'mentionResults':
          return this.prompt.setMentionResults(msg.query, msg.paths);
        case 'raw':
          return this.transcript.setRaw(msg.key, msg.raw);
        case 'subagent':
          return this.subagents.receive(msg.childSessionId, msg.message);
        default:
          console.warn('[acp-chat] unknown message from host', msg);
      }
    } catch (err) {
      // One bad message must not take the panel down; a fresh snapshot repairs whatever it left behind.
      console.error('[acp-chat] failed to apply host message', err);
      this.resync(String(err));
    }
  }

  private onSnapshot(entries: readonly Entry[], panel: PanelState, protocol: number, olderCount: number): void {
    this.protocolMismatch =
      protocol === WEBVIEW_PROTOCOL_VERSION
        ? null
        : `This panel is from another version of ACP Chat (protocol ${WEBVIEW_PROTOCOL_VERSION}, host ${protocol}). Close and reopen it.`;
    this.panel = { ...EMPTY_PANEL, ...panel };
    this.answered.clear();
    this.terminals.clear();
    for (const [id, t] of Object.entries(panel.terminals ?? {})) this.terminals.set(id, t);
    this.narrator.reset();
    this.transcript.reset(entries, this.panel.earlier, olderCount);
    this.changes.reset(this.panel.changeSets ?? []);
    this.subagents.afterSnapshot();
    this.renderPanel();
    this.scroll.arrived(olderCount); // where the user was: the entry may still be on its way (an `older` part)
  }

  private applyOp(op: PatchOp): void {
    try {
      switch (op.op) {
        case 'insert':
        case 'replace':
        case 'appendText':
        case 'fields':
          return applyEntryOp(this.wire.entryOp(op), this.transcript, this.narrator, this.panel.turn, () => {
            if (this.panel.turn === 'idle') this.renderRerun();
          });
        case 'terminal': {
          const prev = this.terminals.get(op.terminalId) ?? { output: '', exited: false, exitCode: null, signal: null };
          const output = op.replace ? op.append : prev.output + op.append;
          this.terminals.set(op.terminalId, op.exit ? { output, exited: true, exitCode: op.exit.exitCode, signal: op.exit.signal } : { ...prev, output });
          if (op.exit && !prev.exited) this.narrator.terminalExited(this.transcript.toolCallWithTerminal(op.terminalId), op.exit.exitCode, op.exit.signal);
          return this.transcript.refreshTerminal(op.terminalId);
        }
        case 'changeSet':
          return this.changes.upsert(op.id, op.set);
        case 'panel': {
          const turnChanged = op.panel.turn !== undefined && op.panel.turn !== this.panel.turn;
          const before = this.panel;
          this.panel = { ...this.panel, ...op.panel };
          if (op.panel.permissions) this.narrator.permissions(before.permissions, op.panel.permissions);
          if (op.panel.notices) this.narrator.notices(before.notices, op.panel.notices);
          if (op.panel.elicitations) this.narrator.questions(before.elicitations ?? [], op.panel.elicitations);
          if (turnChanged) this.narrator.turn(before.turn, this.panel.turn, this.panel.message, this.panel.lastTurnEnd);
          if (op.panel.permissions) for (const id of this.answered) if (!op.panel.permissions.some((p) => p.requestId === id)) this.answered.delete(id);
          if (turnChanged) this.transcript.refreshStreaming();
          if (op.panel.earlier !== undefined) this.transcript.setEarlier(op.panel.earlier);
          if (op.panel.subagentActivity || op.panel.subagentResults)
            for (const v of [...this.transcript.views, ...this.subagents.views()]) if (v instanceof SubagentView) v.showPanelFacts();
          this.renderPanel(op.panel);
          if (op.panel.permissions || op.panel.elicitations) bringNewRequestsIntoView(this.root, before, this.panel);
          return;
        }
        default:
          console.warn('[acp-chat] unknown patch op', op);
      }
    } catch (err) {
      console.error('[acp-chat] failed to apply patch op', op, err);
      this.resync(String(err));
    }
  }

  /** `changed`: a panel op's fields. Placing requests and folds walks every entry (30 ms at 100,000): only their own fields do it. */
  private renderPanel(changed?: Partial<PanelState>): void {
    const p = this.panel;
    if (!changed || changed.permissions || changed.elicitations) {
      this.transcript.permissions.set(p.permissions, this.answered);
      this.transcript.questions.setPrompts(p.elicitations ?? []);
      // A request drawn in an expanded subagent's transcript is not an orphan.
      this.subagents.setRequests(p.permissions, this.answered, p.elicitations ?? []);
    }
    this.orphanQuestions.render(
      this.transcript.questions.orphans().filter((q) => !this.subagents.draws(q)),
      p.agentName,
    );
    this.panelView.render(
      p,
      this.transcript.permissions.orphans().filter((x) => !this.subagents.draws(x)),
      this.answered,
      this.protocolMismatch,
      this.pendingPermissions()[0]?.requestId ?? null,
    );
    this.entryNotices.render(p.notices);
    this.prompt.setState(p.turn, p.readOnly, p.availableCommands, p.canSteer);
    this.renderRerun();
    this.prompt.setContext(p.context ?? []);
    if (!changed || changed.folds) this.folds.render(p.folds ?? [], this.transcript);
    this.root.classList.toggle('busy', p.turn === 'busy');
    // A read-only transcript (a capture, an earlier session) cannot be forked, nor can a session whose
    // agent does not offer session/fork: the button would only lead to "not supported".
    this.root.classList.toggle('read-only', p.readOnly);
    this.root.classList.toggle('no-fork', !p.canFork);
    // An agent that could not start: the banner says why; "Ask the agent anything" would contradict it.
    this.root.classList.toggle('agent-down', p.turn === 'error' || p.turn === 'exited');
  }

  /** Retry and Regenerate follow the turn and the newest entries; the turn's end mark follows the last entry. */
  private renderRerun(): void {
    const views = this.transcript.views;
    this.rerun.render(this.panel, views);
    this.endMark.render(this.panel, views.at(-1)?.key ?? null, (el, key) => this.transcript.placeAfter(el, key));
  }

  /** What the panel calls a session: this chat's title for its own, a subagent card's title for a child. */
  private sessionTitle(id: string): string | null {
    if (id === this.panel.sessionId) return this.panel.title ?? 'this chat';
    if (id === this.panel.parentSession?.sessionId) return this.panel.parentSession.title;
    const card = (this.transcript.views.find((v) => v.entry.kind === 'subagent' && v.entry.childSessionId === id) ?? this.subagents.card(id))?.entry;
    return card?.kind === 'subagent' ? card.title : null;
  }

  private pendingPermissions(): PanelState['permissions'] {
    return this.panel.permissions.filter((p) => !this.answered.has(p.requestId));
  }

  private post(m: WebviewToHost): void {
    if (m.type === 'permission') {
      // Hide the request at once; the host confirms by dropping it from `permissions`.
      const active = document.activeElement;
      const hadFocus = active instanceof Element && (this.transcript.scroller.contains(active) || this.panelView.orphanPerms.contains(active));
      this.answered.add(m.requestId);
      this.api.postMessage(m);
      this.renderPanel();
      if (hadFocus) focusAfterAnswer(this.root, this.pendingPermissions()[0]?.requestId, active, () => this.prompt.focus());
      return;
    }
    // Sending goes to the bottom, where your message and its answer will be.
    if (m.type === 'prompt' || m.type === 'retry') this.transcript.jumpToLatest();
    this.api.postMessage(m);
  }

  /** Asks the host for a fresh snapshot (at most once per second): the host's store is the truth. */
  private resync(why: string): void {
    console.warn(`[acp-chat] out of sync (${why}); asking for a snapshot`);
    if (this.resyncTimer) return;
    this.resyncTimer = window.setTimeout(() => {
      this.resyncTimer = 0;
    }, 1000);
    this.post({ type: 'ready', protocol: WEBVIEW_PROTOCOL_VERSION });
  }

  private saveStateSoon(): void {
    if (this.saveTimer) return;
    this.saveTimer = window.setTimeout(() => {
      this.saveTimer = 0;
      this.saveState();
    }, 250);
  }

  private saveState(): void {
    const chatId = document.body.dataset['chatId'];
    const expandedSubagents = this.subagents.ids;
    this.api.setState({
      v: WEBVIEW_PROTOCOL_VERSION,
      draft: this.draft,
      ...this.scroll.state,
      ...(chatId ? { chatId } : {}),
      ...(expandedSubagents.length ? { expandedSubagents } : {}),
    });
  }
}
