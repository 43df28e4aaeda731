/**
 * A chat over a recorded capture file (this extension's, or the agent transcripts' `{dir,msg}` format),
 * read-only: no agent and no ACP session of its own. The lines go through the same message store as a
 * live chat, at full speed or in real time (by the records' `t_ms`), and through the same panel feed
 * (panelFeed.ts) into a read-only chat panel and the message tree (which the VS Code glue shows it in).
 */
import { MessageStore, type StoreDelta } from '../../common/store';
import type { Diagnostic, Entry, SessionState } from '../../common/store/model';
import { sessionPanelFields, type PanelState, type WebviewToHost } from '../../common/webview/contract';
import { EMPTY_PANEL } from '../../common/webview/emptyPanel';
import { parseCapture, type CaptureRecord } from '../../common/debug/protocolLog';
import { AgentBehaviour } from '../../common/debug/agentBehaviour';
import { ConformanceChecker, type Finding } from '../../common/conformance';
import { Disposable, Emitter } from '../../common/util/lifecycle';
import { PanelSource } from '../../common/webview/panelFeed';
import type { ChatModel } from '../../common/webview/chatModel';
import type { TreeSource } from '../../common/debug/treeSource';
import { restoreChanges } from '../../common/changes/persist';
import { sessionViews, type ChangeSetView } from '../../common/changes/view';
import { isRecord } from '../../common/util/guards';
import { AgentMethods } from '../../common/protocol/methods';
import { SubagentModel } from '../../common/webview/subagentModel';
import { mayChangeResults, subagentResults } from '../../common/webview/subagentResult';
import { sessionTree, subagentLabel } from '../../common/store/sessionTree';
import { subagentUnder } from '../chat/subagentControls';
import type { ChatUi } from '../chat/chatPorts';

export class CaptureChat extends Disposable implements ChatModel, TreeSource {
  private readonly openedAt = Date.now();
  private recordedAt = this.openedAt;
  /**
   * The store's clock is the recording's (each record's `t_ms`, from when the capture was opened), so a
   * thought's "Thought for N s" is what it was live, however fast the capture is played.
   */
  readonly store = new MessageStore({ now: () => this.recordedAt });
  readonly behaviour = new AgentBehaviour();
  /** The conformance check over the capture's lines (line numbers are the file's, as the store's are). */
  readonly conformance = new ConformanceChecker();
  private readonly records: (CaptureRecord | null)[];
  private next = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shownSessionId: string | null = null;
  private readonly panel = this.register(new PanelSource());
  readonly onDidChange = this.panel.onDidChange;
  private readonly treeChanges = this.register(new Emitter<void>());
  readonly onDidChangeTree = this.treeChanges.event;
  private readonly done = this.register(new Emitter<void>());
  readonly onDidFinish = this.done.event;
  /** Every batch of store deltas, for the views of the capture's subagents. */
  private readonly storeChanges = this.register(new Emitter<readonly StoreDelta[]>());
  /** Each Changes summary the recording's store holds, when it records them (for the subagents' own tabs). */
  private readonly setChanges = this.register(new Emitter<{ readonly id: string; readonly view: ChangeSetView | null }>());

  constructor(
    readonly label: string,
    text: string,
    private readonly ui: Pick<ChatUi, 'openLink' | 'openLocation' | 'copy' | 'insertCode' | 'applyCode' | 'openDiff' | 'openSubagent'>,
  ) {
    super();
    this.records = parseCapture(text);
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  get finished(): boolean {
    return this.next >= this.records.length;
  }

  /** Applies every line at once. */
  playAll(): void {
    while (!this.finished) this.step();
    this.done.fire();
  }

  /** Applies the lines at the pace they were recorded (`speed` 2 = twice as fast). */
  playRealTime(speed = 1): void {
    const tick = () => {
      if (this.isDisposed) return;
      const before = this.records[this.next]?.t_ms ?? 0;
      this.step();
      if (this.finished) {
        this.done.fire();
        return;
      }
      const after = this.records[this.next]?.t_ms ?? before;
      this.timer = setTimeout(tick, Math.min(2000, Math.max(0, (after - before) / speed)));
    };
    tick();
  }

  private step(): void {
    const line = this.next + 1;
    const r = this.records[this.next++];
    if (typeof r?.t_ms === 'number') this.recordedAt = this.openedAt + r.t_ms;
    if (r) this.conformance.observeRecord(r, line);
    if (this.finished) this.conformance.finish();
    if (r === null || r === undefined) {
      this.apply(this.store.ingestLine('not a capture record', line));
      return;
    }
    // A note may carry what the client added (terminal output, a notice): the store reduces it like a message.
    if (r.dir === 'note') return this.apply(this.store.ingestLine(JSON.stringify(r), line));
    this.behaviour.observe(r.dir, r.msg);
    if (r.dir === 'client->agent' || r.dir === 'agent->client') this.apply(this.store.ingest(r.dir, r.msg, line));
  }

  private apply(changes: readonly StoreDelta[]): void {
    if (!changes.length) return;
    this.storeChanges.fire(changes);
    // A capture shows its first session.
    const added = this.shownSessionId === null ? changes.find((c) => c.type === 'sessionAdded') : undefined;
    if (added?.type === 'sessionAdded') this.shownSessionId = added.sessionId;
    this.treeChanges.fire();
    if (added) return this.panel.reset();
    this.panel.storeChanged(changes, this.shownSessionId, () => (this.shownSessionId === null ? undefined : this.store.session(this.shownSessionId)));
    if (this.shownSessionId !== null && mayChangeResults(changes))
      this.panel.fire([{ type: 'panel', fields: { subagentResults: subagentResults(this.store, this.shownSessionId) } }]);
    // The live chat's Changes review recorded its summaries: show them as it did.
    if (changes.some((c) => c.type === 'changesRecorded')) {
      const sets = this.changeSets();
      this.panel.fire(sets.map((set) => ({ type: 'changeSet', id: set.id, set })));
      for (const set of sets) this.setChanges.fire({ id: set.id, view: set });
    }
  }

  /** The Changes summaries the store holds for the shown session, paths relative to its folder as the live chat shows them. */
  private changeSets(): ChangeSetView[] {
    const cwd = this.cwd();
    const shown = (p: string) => (cwd && (p.startsWith(cwd + '/') || p.startsWith(cwd + '\\')) ? p.slice(cwd.length + 1) : p);
    return sessionViews(restoreChanges(this.store.changes()).state, this.shownSessionId, shown);
  }

  /** The folder the capture's first session ran in (from its session/new or session/load). */
  private cwd(): string | null {
    for (const r of this.records) {
      const params = r && isRecord(r.msg) && (r.msg['method'] === AgentMethods.sessionNew || r.msg['method'] === AgentMethods.sessionLoad) ? r.msg['params'] : undefined;
      if (isRecord(params) && typeof params['cwd'] === 'string') return params['cwd'].replace(/[\\/]+$/, '');
    }
    return null;
  }

  sessions(): readonly SessionState[] {
    return this.store.sessions();
  }
  findings(sessionId: string): readonly Finding[] {
    return this.conformance.findings().filter((f) => f.sessionId === undefined || f.sessionId === sessionId);
  }
  diagnostics(sessionId: string): readonly Diagnostic[] {
    return this.store.diagnostics().filter((d) => d.sessionId === undefined || d.sessionId === sessionId);
  }
  protocolRecords(seqs: ReadonlySet<number>): readonly CaptureRecord[] {
    // The store numbers lines by position in the file; return those records with their line as seq.
    return [...seqs]
      .sort((a, b) => a - b)
      .flatMap((line) => {
        const r = this.records[line - 1];
        return r ? [{ ...r, seq: line }] : [];
      });
  }

  snapshot(): { entries: readonly Entry[]; panel: PanelState } {
    const s = this.shownSessionId === null ? undefined : this.store.session(this.shownSessionId);
    return {
      entries: s?.entries ?? [],
      panel: {
        ...EMPTY_PANEL,
        agentName: `Capture: ${this.label}`,
        sessionId: this.shownSessionId,
        turn: this.finished ? 'idle' : 'busy',
        readOnly: true,
        canFork: false,
        canOpenSubagents: this.ui.openSubagent !== undefined,
        subagentResults: this.shownSessionId === null ? {} : subagentResults(this.store, this.shownSessionId),
        ...sessionPanelFields(s),
        notices: this.store.notices(this.shownSessionId),
        changeSets: this.changeSets(),
      },
    };
  }

  /** A subagent of the shown session, in a read-only view of its own (as a live chat opens it; nothing waits to be answered). */
  private openSubagent(childSessionId: string): void {
    const card = subagentUnder(this.store, this.shownSessionId, childSessionId);
    const model = card && this.ui.openSubagent ? this.subagentView(childSessionId, true) : undefined;
    if (card && model) this.ui.openSubagent?.(this.register(model), subagentLabel(card));
  }

  /**
   * A subagent of the shown session (any depth) as a model: its transcript expanded in its card, or its own
   * view (`ownTab`), whose cards show the Changes of its root turn as a live chat's subagent tab does (the
   * capture shows one root session: the shown one).
   */
  subagentView(childSessionId: string, ownTab = false): SubagentModel | undefined {
    if (!subagentUnder(this.store, this.shownSessionId, childSessionId)) return undefined;
    return new SubagentModel({
      sessionId: childSessionId,
      agentName: `Capture: ${this.label}`,
      session: (id) => this.store.session(id),
      notices: (id) => this.store.notices(id),
      onStoreChanged: this.storeChanges.event,
      ...(ownTab ? { changes: { views: () => this.changeSets(), onDidChange: this.setChanges.event } } : {}),
      act: (m) => this.handleWebviewMessage(m),
    });
  }

  /** An entry of the shown session or of a subagent under it, by key (a diff opened on a card of an expanded subagent). */
  private shownEntry(key: string): Entry | undefined {
    const shown = this.shownSessionId;
    for (const sid of shown === null ? [] : sessionTree(this.store, shown)) {
      const e = this.store.session(sid)?.entries.find((x) => x.key === key);
      if (e) return e;
    }
    return undefined;
  }

  handleWebviewMessage(m: WebviewToHost): void {
    // Read-only: only navigation and copying (or using a code block) do anything.
    if (m.type === 'openLink') this.ui.openLink(m.href);
    else if (m.type === 'openLocation') this.ui.openLocation(m.path, m.line);
    else if (m.type === 'copy') this.ui.copy(m.text);
    else if (m.type === 'insertCode') this.ui.insertCode?.(m.text);
    else if (m.type === 'applyCode') this.ui.applyCode?.(m.path, m.text);
    else if (m.type === 'openSubagent') this.openSubagent(m.childSessionId);
    else if (m.type === 'openDiff') {
      const e = this.shownEntry(m.key);
      if (e) this.ui.openDiff(e, m.index);
    }
  }
}
