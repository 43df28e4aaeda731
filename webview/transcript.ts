/**
 * The transcript: one view per entry (an `article` named by speaker or tool) inside a scrollable
 * "Conversation" region, kept in step with the host's snapshot and patches. The region is deliberately
 * not live: a live log re-announces replaced and scrolled-in content; `Narrator` says what is new.
 *
 * Long sessions: the newest entries get a cheap wrapper at once; older ones wait in blocks until they
 * near the viewport (entryBlocks.ts); an entry's contents are built when its wrapper comes near the
 * viewport (IntersectionObserver), a few milliseconds' worth per frame; a built entry is laid out and
 * painted on its own (`contain` in chat.css), and leaves the document for a block while it is far from
 * the viewport (farEntries.ts), to come back as it was. Search, reveal, keyboard jumps and pending
 * permissions build what they need at once. Nothing rendered is thrown away and rebuilt.
 * Streaming: patches only mark views dirty; drawing happens once per animation frame (transcriptFrames.ts).
 * ScrollPin keeps the view at the bottom while the user follows it. Pending permission requests and the
 * agent's questions are placed on their cards by permissionPlacer.ts and questionPlacer.ts, a subagent's
 * messages and steps by subagentPlacer.ts (a view drawn in another's card is built with that card).
 */
import type { ViewEntry as Entry } from '../src/common/webview/viewEntry';
import type { EarlierTranscript } from '../src/common/webview/contract';
import { focusTwin, h } from './dom';
import { firstVisible, scrollToEntry, topAnchor } from './entryScroll';
import { appendTextToEntry, applyFieldsToEntry, textAppendedBy } from './entryModel';
import type { EntryPatch } from '../src/common/webview/entryDiff';
import type { EntryView, ViewDeps } from './entries/entryView';
import { createEntryView } from './entries/createView';
import { ToolCallView } from './entries/toolCallView';
import { BLOCK, EntryBlocks } from './entryBlocks';
import { ScrollPin } from './scrollPin';
import { FarEntries } from './farEntries';
import { QuestionPlacer } from './questionPlacer';
import { EarlierSession } from './earlierSession';
import { PermissionPlacer } from './permissionPlacer';
import { SubagentPlacer } from './subagentPlacer';
import { TranscriptFrames } from './transcriptFrames';

/** How far outside the viewport entries are already built, so scrolling does not show blanks. */
const PRELOAD_MARGIN = '1200px 0px';
/** Entries at the end built eagerly on a snapshot (they are what the user sees first). */
const EAGER_TAIL = 12;

export class Transcript {
  readonly scroller: HTMLElement = h('section', { class: 'transcript', 'aria-label': 'Conversation', tabindex: 0 });
  private readonly list: HTMLElement = h('div', { class: 'entries' });
  private readonly empty: HTMLElement = h(
    'div',
    { class: 'empty-state' },
    'Ask the agent anything. Enter sends, Shift+Enter adds a line, / lists commands, @ adds a file or other context, and pasted images go along.',
  );
  /** An earlier, unreattachable session's entries above the new session's. */
  private readonly earlier = new EarlierSession();
  /** Entries of the snapshot still to come before the first one here (`older` messages). */
  private olderCount = 0;
  private order: EntryView[] = [];
  private readonly byKey = new Map<string, EntryView>();
  private readonly observer: IntersectionObserver;
  /** Entries not in the document, in blocks: older ones not shown yet, built ones parked far away. */
  private readonly blocks: EntryBlocks;
  /** Finds the built entries far from the viewport, to park. */
  private readonly far: FarEntries;
  /** Drawing and building, per animation frame. */
  private readonly frames = new TranscriptFrames(
    (v) => this.hydrate(v),
    () => this.onDrawn(),
    (steady) => this.onSteadyText(steady),
  );
  private readonly pin: ScrollPin;
  /** Pending permission requests on their tool cards (`orphans()`: those with no card here, shown above the prompt box). */
  readonly permissions = new PermissionPlacer(this);
  /** Questions waiting for the user, each drawn on its entry or tool card and built at once (`orphans()` as above). */
  readonly questions = new QuestionPlacer(this);
  private readonly subagents = new SubagentPlacer(this);
  /** Called when a patch names an entry we do not have: the host is asked for a fresh snapshot. */
  onOutOfSync: (why: string) => void = () => {};
  /** Called when an entry is added below the view while the user reads further up. */
  onNewBelow: () => void = () => {};
  /** Called after each frame that drew something (search re-highlights). */
  onDrawn: () => void = () => {};
  /** Called when an answer's text starts or stops streaming steadily here (TranscriptFrames). */
  onSteadyText: (steady: boolean) => void = () => {};

  /** `nested`: the label of a subagent's transcript drawn in its card (a box of its own, see subagentTranscripts.ts). */
  constructor(
    private readonly ctx: ViewDeps,
    nested?: string,
  ) {
    if (nested !== undefined) {
      this.scroller.classList.add('subagent-transcript');
      this.scroller.setAttribute('aria-label', nested);
      this.empty.textContent = 'Nothing yet.';
    }
    this.scroller.append(this.list, this.empty);
    this.observer = new IntersectionObserver((records) => this.onIntersect(records), { root: this.scroller, rootMargin: PRELOAD_MARGIN });
    this.pin = new ScrollPin(this.scroller, this.list);
    // Before the blocks: its scroll listener reads the layout their listener then changes.
    this.far = new FarEntries(
      this.scroller,
      () => this.order,
      (v) => this.blocks.elementOf(v),
      (views, heights) => this.blocks.park(views, heights),
      (v) => v.el.classList.contains('search-hit'),
    );
    this.blocks = new EntryBlocks(this.scroller, (views) => {
      for (const v of views) {
        if (v.hydrated) this.far.track(v);
        else this.observer.observe(v.el);
      }
    });
  }

  get entries(): readonly Entry[] {
    return this.order.map((v) => v.entry);
  }

  get views(): readonly EntryView[] {
    return this.order;
  }

  view(key: string): EntryView | undefined {
    return this.byKey.get(key);
  }

  /** Where the new session's entries start when an earlier session's are shown above them (0: none). */
  get earlierEnd(): number {
    return this.earlier.end;
  }

  get isPinned(): boolean {
    return this.pin.isPinned;
  }

  /** Called when the view starts (true) or stops (false) following the bottom. */
  set onPinChange(f: (pinned: boolean) => void) {
    this.pin.onChange = f;
  }

  /** Goes to the newest entry and follows the stream again. */
  jumpToLatest(): void {
    this.pin.pin();
  }

  reset(entries: readonly Entry[], earlier: EarlierTranscript | null = null, olderCount = 0): void {
    // A snapshot rebuilds every entry: focus inside one goes back to the same control of the same entry.
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && this.list.contains(active) ? { el: active, key: active.closest<HTMLElement>('[data-key]')?.dataset['key'] } : null;
    this.observer.disconnect();
    for (const v of this.order) v.dispose();
    this.order = [];
    this.byKey.clear();
    this.frames.clear();
    this.blocks.clear();
    this.far.clear();
    this.olderCount = olderCount;
    for (const e of entries) {
      const v = this.createView(e);
      this.order.push(v);
      this.byKey.set(e.key, v);
    }
    // Newest first: the last BLOCK entries get their wrappers now, older ones wait in blocks.
    const tail = Math.max(0, this.order.length - BLOCK);
    const frag = this.blocks.prepend(this.order.slice(0, tail));
    for (let i = tail; i < this.order.length; i++) frag.append(this.order[i]!.el);
    this.list.replaceChildren(frag);
    this.setEarlier(earlier);
    // Build the tail now so the first paint shows the latest conversation, then let the observer do the rest.
    for (const v of this.order.slice(-EAGER_TAIL)) this.hydrate(v);
    for (let i = tail; i < this.order.length; i++) if (!this.order[i]!.hydrated) this.observer.observe(this.order[i]!.el);
    this.permissions.place();
    this.updateEmpty();
    this.pin.pin();
    if (focused && document.activeElement !== focused.el) {
      const v = focused.key !== undefined ? this.byKey.get(focused.key) : undefined;
      if (v) this.build(v);
      if (!v || (focused.el !== v.el && !focusTwin(v.el, focused.el))) (v?.el ?? this.scroller).focus({ preventScroll: true });
    }
  }

  /**
   * Entries that precede all the others (the rest of a snapshot sent newest first): they go into blocks
   * above everything, so nothing on screen moves; `olderCount` are still to come before them.
   */
  prependOlder(entries: readonly Entry[], olderCount: number): void {
    // What is read stays where it is. The browser's scroll anchoring does that too, but not in a frame
    // where its anchor changes size (an entry being built as it came into view): the view then jumped
    // by the height of everything put above it.
    const anchor = this.pin.isPinned ? undefined : firstVisible(this.order, this.scroller, (v) => this.blocks.elementOf(v));
    const el = anchor && this.blocks.elementOf(anchor);
    const top = el?.getBoundingClientRect().top;
    const views = entries.filter((e) => !this.byKey.has(e.key)).map((e) => this.createView(e));
    for (const v of views) this.byKey.set(v.key, v);
    this.order = views.concat(this.order);
    this.olderCount = olderCount;
    this.list.insertBefore(this.blocks.prepend(views), this.list.firstChild);
    this.setEarlier(this.earlier.transcript);
    this.permissions.place();
    this.updateEmpty();
    if (el?.isConnected && top !== undefined) {
      const moved = el.getBoundingClientRect().top - top;
      if (Math.abs(moved) >= 0.5) this.scroller.scrollTop += moved;
    }
  }

  /** Puts an entry in the document (out of its block, if it waits in one) and builds its contents now. */
  build(v: EntryView): void {
    if (v.drawnIn) this.build(v.drawnIn); // which builds v with it
    this.blocks.place(v);
    this.frames.built(v);
    this.hydrate(v);
  }

  insert(index: number, entry: Entry): void {
    if (this.byKey.has(entry.key)) {
      this.replace(entry);
      return;
    }
    const at = Math.max(0, Math.min(index, this.order.length));
    const v = this.createView(entry);
    const before = this.order[at];
    if (before) this.blocks.place(before);
    this.list.insertBefore(v.el, before ? before.el : null);
    this.order.splice(at, 0, v);
    this.byKey.set(entry.key, v);
    // New entries are where the action is: build them now (older ones wait for the observer).
    if (at >= this.order.length - EAGER_TAIL) this.hydrate(v);
    else this.observer.observe(v.el);
    for (let i = Math.max(0, at - 3); i < at; i++) this.order[i]!.followed();
    if (entry.kind === 'tool_call') this.permissions.place();
    if (entry.kind === 'tool_call' || entry.kind === 'elicitation') this.questions.place();
    if (entry.kind === 'tool_call' || entry.kind === 'subagent' || entry.kind === 'session_message') this.subagents.place();
    this.updateEmpty();
    this.frames.schedule();
    if (!this.pin.isPinned && at === this.order.length - 1) this.onNewBelow();
  }

  replace(entry: Entry): void {
    const v = this.byKey.get(entry.key);
    if (!v) return this.onOutOfSync(`replace of unknown entry ${entry.key}`);
    if (v.entry.kind !== entry.kind) {
      // A kind change needs a different view; rare enough to rebuild just this entry.
      const i = this.order.indexOf(v);
      this.remove(entry.key);
      this.insert(i, entry);
      return;
    }
    const before = v.entry;
    v.set(entry);
    this.frames.markDirty(v);
    this.subagents.changed(before, entry);
  }

  appendText(key: string, text: string): void {
    const v = this.byKey.get(key);
    if (!v) return this.onOutOfSync(`appendText to unknown entry ${key}`);
    v.set(appendTextToEntry(v.entry, text), text);
    this.frames.markDirty(v, true);
  }

  /** A field-level patch; returns the entry before and after it (for the narrator), or null when unknown. */
  patchFields(key: string, patch: EntryPatch): { before: Entry; after: Entry } | null {
    const v = this.byKey.get(key);
    if (!v) {
      this.onOutOfSync(`fields patch of unknown entry ${key}`);
      return null;
    }
    const before = v.entry;
    v.set(applyFieldsToEntry(before, patch), textAppendedBy(patch));
    this.frames.markDirty(v);
    this.subagents.changed(before, v.entry);
    return { before, after: v.entry };
  }

  remove(key: string): void {
    const v = this.byKey.get(key);
    if (!v) return;
    this.blocks.place(v);
    this.observer.unobserve(v.el);
    this.frames.forget(v);
    this.far.forget(v);
    v.el.remove();
    v.dispose();
    this.order.splice(this.order.indexOf(v), 1);
    this.byKey.delete(key);
    if (v.entry.kind === 'tool_call' || v.entry.kind === 'elicitation') this.questions.place();
    if (v.entry.kind === 'tool_call' || v.entry.kind === 'subagent' || v.entry.kind === 'session_message') this.subagents.place();
    this.updateEmpty();
  }

  /**
   * Marks the first `entryCount` entries as an earlier session's (read-only: nothing there can be answered)
   * and puts the marker saying why a new session started after them. Later inserts land after the marker,
   * since they are placed before an existing entry or at the end.
   */
  setEarlier(earlier: EarlierTranscript | null): void {
    this.earlier.set(earlier, this.olderCount, this.order, (marker, first) => {
      if (first) this.blocks.place(first);
      this.list.insertBefore(marker, first ? first.el : null);
    });
    this.questions.place();
    this.subagents.place();
  }

  /**
   * Puts a block that is not an entry (a turn's Changes summary) right after the entry with `key` (put
   * back in the document if it was parked), after any blocks already there; at the end when the entry is
   * unknown. A snapshot's rebuild removes it.
   */
  placeAfter(el: HTMLElement, key: string | null): void {
    const v = key !== null ? this.byKey.get(key) : undefined;
    if (v) this.blocks.place(v);
    let at: Element | undefined = v?.el;
    if (!at) this.list.append(el);
    else {
      while (at.nextElementSibling?.classList.contains('changes') && at.nextElementSibling !== el) at = at.nextElementSibling;
      at.after(el);
    }
  }

  /** The host's answer to a tool call's `getRaw`. */
  setRaw(key: string, raw: { readonly input: unknown; readonly output: unknown } | null): void {
    const v = this.byKey.get(key);
    if (v instanceof ToolCallView) v.setRaw(raw);
  }

  /** Redraws the tool calls that show this terminal (at most once per frame, like any change). */
  refreshTerminal(terminalId: string): void {
    for (const v of this.order) {
      if (!showsTerminal(v.entry, terminalId)) continue;
      v.set(v.entry); // same entry, new output: mark the view itself dirty so the next frame redraws it
      this.frames.markDirty(v);
    }
  }

  /** The tool call that shows this terminal, if any (the latest). */
  toolCallWithTerminal(terminalId: string): Extract<Entry, { kind: 'tool_call' }> | undefined {
    const e = this.order.findLast((v) => showsTerminal(v.entry, terminalId))?.entry;
    return e?.kind === 'tool_call' ? e : undefined;
  }

  /** Redraws entries whose look depends on panel state (the "Thinking…" label ends with the turn). */
  refreshStreaming(): void {
    const last = this.order[this.order.length - 1];
    if (last) {
      last.set(last.entry);
      this.frames.markDirty(last);
    }
  }

  /** Builds and scrolls to an entry, flashing it (`reveal`, search); centred, or `offset` px above the top (a restore). */
  reveal(key: string, flash = true, offset?: number): boolean {
    const found = this.byKey.get(key);
    if (!found) return false;
    this.build(found);
    scrollToEntry(found, this.scroller, flash, offset, () => this.pin.unpin());
    return true;
  }

  /** The first entry in view and how far the view is scrolled into it, to restore after a reload (null when following). */
  topAnchor(): { key: string; offset: number } | null {
    return this.pin.isPinned ? null : topAnchor(this.order, this.scroller, (v) => this.blocks.elementOf(v));
  }

  /** Draws everything pending now (the frame callback; also called by tests and the bench). */
  flush(): void {
    this.frames.flush();
  }

  private createView(e: Entry): EntryView {
    return createEntryView(e, this.ctx, (key) => this.questions.promptFor(key));
  }

  private onIntersect(records: IntersectionObserverEntry[]): void {
    for (const r of records) {
      if (!r.isIntersecting) continue;
      const v = this.byKey.get((r.target as HTMLElement).dataset['key'] ?? '');
      if (!v || v.hydrated) continue;
      this.observer.unobserve(v.el);
      this.frames.buildSoon(v);
    }
  }

  /** Builds an entry's contents (once); from then on it may be parked while far from the viewport. */
  private hydrate(v: EntryView): void {
    v.hydrate();
    this.far.track(v);
  }

  private updateEmpty(): void {
    this.empty.hidden = this.order.length > 0;
  }
}

function showsTerminal(e: Entry, terminalId: string): boolean {
  return e.kind === 'tool_call' && e.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId);
}
