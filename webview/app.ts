/**
 * The chat panel: wires the transcript, panel chrome, prompt box and search to the host contract
 * (ready -> snapshot -> patches), and owns the document-level keys and link/location clicks.
 */
import { OrphanQuestions } from './orphanQuestions';
import type { ViewEntry as Entry } from '../src/common/webview/viewEntry';
import type { HostToWebview, PanelState, PatchOp, TerminalView, WebviewPersistedState, WebviewToHost } from '../src/common/webview/contract';
import { EMPTY_PANEL } from '../src/common/webview/emptyPanel';
// Not via contract.ts: that module also builds the zod schema the host uses, which the webview does not need.
import { WEBVIEW_PROTOCOL_VERSION } from '../src/common/webview/version';
import { WireDecoder, type EntryOp } from '../src/common/webview/wireDecoder';
import { h } from './dom';
import { Narrator } from './narrator';
import { JumpToLatest } from './jumpToLatest';
import { EntryNotices } from './entryNotices';
import { classifyLink } from '../src/common/links';
import { PanelView } from './panelView';
import { PromptBox } from './promptBox';
import { SearchBar } from './searchBar';
import { Transcript } from './transcript';
import { ChangesView } from './changesView';
import { RerunBar } from './rerunBar';
import type { VsCodeApi } from './vscodeApi';

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
  /** Requests answered here but not yet removed by the host: hidden at once so a second key press answers the next one. */
  private readonly answered = new Set<string>();
  /** Terminals' live output, from the snapshot and `terminal` ops. */
  private readonly terminals = new Map<string, TerminalView>();
  private protocolMismatch: string | null = null;
  private draft = '';
  private restoreScrollKey: string | null = null;
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
    this.transcript = new Transcript({
      post,
      agentName: () => this.panel.agentName,
      oldestPermission: () => this.pendingPermissions()[0]?.requestId ?? null,
      terminal: (id) => this.terminals.get(id),
      isStreaming: (key) => {
        const entries = this.transcript.views;
        return (this.panel.turn === 'busy' || this.panel.turn === 'cancelling') && entries[entries.length - 1]?.key === key;
      },
    });
    this.transcript.onOutOfSync = (why) => this.resync(why);
    this.narrator = new Narrator((key) => this.transcript.view(key)?.entry);
    this.jump = new JumpToLatest(() => this.transcript.jumpToLatest(), (t) => this.narrator.say(t), () => this.transcript.scroller.focus({ preventScroll: true }));
    this.transcript.onNewBelow = () => this.jump.newBelow();
    this.transcript.onFollowing = () => this.jump.hide();
    this.entryNotices = new EntryNotices((n) => this.panelView.noticeElement(n), (el, key) => this.transcript.placeAfter(el, key));
    this.changes = new ChangesView({ post, place: (el, key) => this.transcript.placeAfter(el, key), say: (t) => this.narrator.say(t) });
    this.panelView = new PanelView(post, () => this.prompt.focus());
    this.orphanQuestions = new OrphanQuestions(post);
    this.rerun = new RerunBar(post, () => this.prompt.focus());
    this.prompt = new PromptBox(post, (d) => {
      this.draft = d;
      this.saveState();
    });
    this.search = new SearchBar(this.transcript);
    this.transcript.onDrawn = () => this.search.refresh();
    this.panelView.onSearch = () => this.search.open();
    this.panelView.onEditPrompt = (text) => {
      this.prompt.setDraft(text);
      this.draft = text;
      this.saveState();
      this.prompt.focus();
    };

    const saved = api.getState() as Partial<WebviewPersistedState> | undefined;
    if (saved && typeof saved === 'object') {
      this.draft = typeof saved.draft === 'string' ? saved.draft : '';
      this.restoreScrollKey = typeof saved.scrollKey === 'string' ? saved.scrollKey : null;
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
    root.addEventListener('click', (e) => this.onClick(e));
    document.addEventListener('keydown', (e) => this.onKey(e));
    window.addEventListener('message', (e: MessageEvent<HostToWebview>) => this.receive(e.data));
    this.transcript.scroller.addEventListener('scroll', () => this.saveStateSoon(), { passive: true });
  }

  /** Announces the webview; the host answers with a snapshot (again after every reload). */
  start(): void {
    // Remember which chat this tab shows right away, so a reload before any typing or scrolling restores it.
    const chatId = document.body.dataset['chatId'];
    if (chatId) this.api.setState({ v: WEBVIEW_PROTOCOL_VERSION, draft: this.draft, scrollKey: this.restoreScrollKey, chatId });
    this.post({ type: 'ready', protocol: WEBVIEW_PROTOCOL_VERSION });
  }

  /** Draws pending changes immediately (tests and the bench; normally a frame callback does this). */
  flush(): void {
    this.transcript.flush();
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
          if (this.restoreScrollKey && this.transcript.reveal(this.restoreScrollKey, false)) this.restoreScrollKey = null;
          return;
        case 'patch':
          for (const op of msg.ops) this.applyOp(op);
          return;
        case 'reveal':
          if (!this.transcript.reveal(msg.key)) console.warn(`[acp-chat] reveal: no entry ${msg.key}`);
          return;
        case 'focusPrompt':
          return this.prompt.focus();
        case 'editPrompt':
          return this.prompt.beginEdit(msg.key, msg.text, msg.images);
        case 'mentionResults':
          return this.prompt.setMentionResults(msg.query, msg.paths);
        case 'raw':
          return this.transcript.setRaw(msg.key, msg.raw);
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
    this.protocolMismatch = protocol === WEBVIEW_PROTOCOL_VERSION ? null : `This panel is from another version of ACP Chat (protocol ${WEBVIEW_PROTOCOL_VERSION}, host ${protocol}). Close and reopen it.`;
    this.panel = { ...EMPTY_PANEL, ...panel };
    this.answered.clear();
    this.terminals.clear();
    for (const [id, t] of Object.entries(panel.terminals ?? {})) this.terminals.set(id, t);
    this.narrator.reset();
    this.transcript.reset(entries, this.panel.earlier, olderCount);
    this.changes.reset(this.panel.changeSets ?? []);
    this.renderPanel();
    // The entry to scroll back to may still be on its way (an `older` part of this snapshot).
    if (this.restoreScrollKey && (this.transcript.reveal(this.restoreScrollKey, false) || olderCount === 0)) this.restoreScrollKey = null;
  }

  private applyOp(op: PatchOp): void {
    try {
      switch (op.op) {
        case 'insert':
        case 'replace':
        case 'appendText':
        case 'fields':
          return this.applyEntryOp(this.wire.entryOp(op));
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
          if (turnChanged) this.narrator.turn(before.turn, this.panel.turn, this.panel.message);
          if (op.panel.permissions) for (const id of this.answered) if (!op.panel.permissions.some((p) => p.requestId === id)) this.answered.delete(id);
          if (turnChanged) this.transcript.refreshStreaming();
          if (op.panel.earlier !== undefined) this.transcript.setEarlier(op.panel.earlier);
          return this.renderPanel();
        }
        default:
          console.warn('[acp-chat] unknown patch op', op);
      }
    } catch (err) {
      console.error('[acp-chat] failed to apply patch op', op, err);
      this.resync(String(err));
    }
  }

  /** An op on an entry, decoded from the wire (keys, whole entries). */
  private applyEntryOp(op: EntryOp): void {
    switch (op.op) {
      case 'insert':
        if (!this.transcript.view(op.entry.key)) this.narrator.inserted(op.entry, this.panel.turn);
        this.transcript.insert(op.index, op.entry);
        if (this.panel.turn === 'idle') this.renderRerun();
        return;
      case 'replace': {
        const prev = this.transcript.view(op.entry.key)?.entry;
        if (prev?.kind === 'tool_call' && op.entry.kind === 'tool_call') this.narrator.toolChanged(prev, op.entry);
        // ACP v2 streams a message as whole-message upserts: the same news as appended text.
        else if (prev && op.entry.kind === 'agent_message') this.narrator.appended(op.entry.key, this.panel.turn);
        return this.transcript.replace(op.entry);
      }
      case 'fields': {
        const changed = this.transcript.patchFields(op.key, op.patch);
        if (changed?.before.kind === 'tool_call' && changed.after.kind === 'tool_call') this.narrator.toolChanged(changed.before, changed.after);
        else if (changed && changed.after.kind === 'agent_message') this.narrator.appended(op.key, this.panel.turn);
        return;
      }
      case 'appendText':
        this.narrator.appended(op.key, this.panel.turn);
        return this.transcript.appendText(op.key, op.text);
    }
  }

  private renderPanel(): void {
    const p = this.panel;
    this.transcript.setPermissions(p.permissions, this.answered);
    this.transcript.setElicitations(p.elicitations ?? []);
    this.orphanQuestions.render(this.transcript.orphanElicitations(), p.agentName);
    this.panelView.render(p, this.transcript.orphanPermissions(), this.answered, this.protocolMismatch, this.pendingPermissions()[0]?.requestId ?? null);
    this.entryNotices.render(p.notices);
    this.prompt.setState(p.turn, p.readOnly, p.availableCommands, p.canSteer);
    this.renderRerun();
    this.prompt.setContext(p.context ?? []);
    this.root.classList.toggle('busy', p.turn === 'busy');
    // A read-only transcript (a capture, an earlier session) cannot be forked, nor can a session whose
    // agent does not offer session/fork: the button would only lead to "not supported".
    this.root.classList.toggle('read-only', p.readOnly);
    this.root.classList.toggle('no-fork', !p.canFork);
    // An agent that could not start: the banner says why; "Ask the agent anything" would contradict it.
    this.root.classList.toggle('agent-down', p.turn === 'error' || p.turn === 'exited');
  }

  /** Retry and Regenerate follow the turn and the newest entries: whether the last prompt has an answer. */
  private renderRerun(): void {
    const views = this.transcript.views;
    let answered = false;
    let asked = false;
    for (let i = views.length - 1; i >= 0 && !asked; i--) {
      const kind = views[i]!.entry.kind;
      if (kind === 'user_message') asked = true;
      else if (kind === 'agent_message') answered = true;
    }
    this.rerun.render(this.panel, asked, answered && asked);
  }

  private pendingPermissions(): PanelState['permissions'] {
    return this.panel.permissions.filter((p) => !this.answered.has(p.requestId));
  }

  private answer(requestId: string, optionId: string | null): void {
    this.post({ type: 'permission', requestId, optionId });
  }

  private post(m: WebviewToHost): void {
    if (m.type === 'permission') {
      // Hide the request at once; the host confirms by dropping it from `permissions`.
      const active = document.activeElement;
      const hadFocus = active instanceof Element && (this.transcript.scroller.contains(active) || this.panelView.orphanPerms.contains(active));
      this.answered.add(m.requestId);
      this.api.postMessage(m);
      this.renderPanel();
      if (hadFocus) this.focusAfterAnswer(active);
      return;
    }
    this.api.postMessage(m);
  }

  /**
   * After an answer the keyboard user goes on to the next request; with none left, to the prompt box
   * when the answered card took the focus with it (focus on the transcript itself stays there).
   */
  private focusAfterAnswer(before: Element): void {
    const next = this.pendingPermissions()[0];
    const card = next ? this.root.querySelector<HTMLElement>(`.permission[data-request-id="${CSS.escape(next.requestId)}"]`) : null;
    if (card) {
      card.querySelector<HTMLElement>('button')?.focus();
      card.scrollIntoView({ block: 'nearest' });
    } else if (!before.isConnected || document.activeElement === document.body || before.closest('[hidden]')) this.prompt.focus();
  }

  /**
   * Keys that answer permissions act only where the user is looking at the conversation: on the
   * transcript itself (not a control inside it) or on a request card. Elsewhere a digit is a digit and
   * Esc belongs to the control or the innermost popup (completion, then search).
   */
  private onKey(e: KeyboardEvent): void {
    const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
    if (mod && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      this.search.open();
      return;
    }
    if (mod && e.key.toLowerCase() === 'l') {
      // Back to writing from anywhere in the panel.
      e.preventDefault();
      this.prompt.focus();
      return;
    }
    if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      // Jump between your own prompts: the landmarks of a long conversation.
      e.preventDefault();
      this.jumpToPrompt(e.key === 'ArrowUp' ? -1 : 1, e.target);
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.defaultPrevented) return;
    const target = e.target instanceof Element ? e.target : null;
    const card = target?.closest<HTMLElement>('.permission[data-request-id]') ?? null;
    const reading = target !== null && this.transcript.scroller.contains(target) && !isControl(target);
    const pending = this.pendingPermissions();
    const request = card ? pending.find((p) => p.requestId === card.dataset['requestId']) : reading ? pending[0] : undefined;
    if (/^[1-9]$/.test(e.key)) {
      const option = request?.options[Number(e.key) - 1];
      if (request && option) {
        e.preventDefault();
        this.answer(request.requestId, option.optionId);
      }
      return;
    }
    if (e.key !== 'Escape') return;
    if (target && this.search.el.contains(target)) return; // the search bar closes itself
    if (target && !card && !reading && target !== this.prompt.textarea && isControl(target)) return;
    if (this.search.isOpen) {
      e.preventDefault();
      this.search.close();
    } else if (request) {
      e.preventDefault();
      const reject = request.options.find((o) => o.kind === 'reject_once') ?? request.options.find((o) => o.kind.startsWith('reject'));
      this.answer(request.requestId, reject ? reject.optionId : null);
    } else if (this.panel.turn === 'busy' && (reading || target === this.prompt.textarea)) {
      e.preventDefault();
      this.post({ type: 'cancel' });
    }
  }

  private jumpToPrompt(dir: -1 | 1, from: EventTarget | null): void {
    const views = this.transcript.views;
    const current = from instanceof Element ? from.closest<HTMLElement>('[data-key]')?.dataset['key'] : undefined;
    let i = current ? views.findIndex((v) => v.key === current) : dir < 0 ? views.length : -1;
    for (i += dir; i >= 0 && i < views.length; i += dir) {
      const v = views[i]!;
      if (v.entry.kind !== 'user_message') continue;
      this.transcript.reveal(v.key, false);
      v.el.focus({ preventScroll: true });
      return;
    }
  }

  /** Links, file chips and code copy buttons, by delegation: agent HTML never carries handlers of its own. */
  private onClick(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    const copy = target.closest('.code-copy');
    if (copy) {
      const code = copy.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
      this.post({ type: 'copy', text: code });
      copy.classList.add('done');
      setTimeout(() => copy.classList.remove('done'), 1200);
      return;
    }
    const a = target.closest('a');
    if (a) {
      // Never navigate the webview; VS Code opens the link after our scheme check.
      e.preventDefault();
      this.openHref(a.getAttribute('href') ?? '');
      return;
    }
    const loc = target.closest<HTMLElement>('[data-path]');
    if (loc) {
      const line = loc.dataset['line'];
      this.post({ type: 'openLocation', path: loc.dataset['path'] ?? '', line: line ? Number(line) : null });
      return;
    }
    const href = target.closest<HTMLElement>('[data-href]')?.dataset['href'];
    if (href) this.openHref(href);
  }

  /** Files open in the editor, web links in the browser (the host checks again); anything else is ignored. */
  private openHref(href: string): void {
    const t = classifyLink(href);
    if (t.kind === 'file') this.post({ type: 'openLocation', path: t.path, line: t.line });
    else if (t.kind === 'external') this.post({ type: 'openLink', href: t.uri });
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
    this.api.setState({ v: WEBVIEW_PROTOCOL_VERSION, draft: this.draft, scrollKey: this.transcript.topVisibleKey(), ...(chatId ? { chatId } : {}) });
  }
}

/** Controls keep their keys (a digit in a field is text; Esc in a picker is the picker's). */
function isControl(el: Element): boolean {
  return el.matches('button, a[href], input, select, textarea, summary, [contenteditable=""], [contenteditable="true"], [role="button"], [role="combobox"]');
}
