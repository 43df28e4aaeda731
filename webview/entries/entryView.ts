/**
 * One transcript entry on screen. The wrapper element is made when the transcript first puts the entry
 * in the document (older entries of a long chat wait in blocks, see transcript.ts); it carries the stable
 * `data-key` / `data-kind` selectors and keeps the scroll height about right. Its contents are built
 * only when the entry first comes near the viewport (`hydrate`) and are then updated in place, never
 * rebuilt for a finished entry.
 */
import type { ViewEntry as Entry } from '../../src/common/webview/viewEntry';
import type { ContentBlock } from '../../src/common/protocol/content';
import type { PermissionView, TerminalView, WebviewToHost } from '../../src/common/webview/contract';
import { h } from '../dom';
import { entryLabel, estimateHeight } from '../entryModel';
import type { ElapsedClock } from '../elapsedClock';
import type { CardReview } from '../../src/common/changes/toolCards';

export interface ViewDeps {
  post(message: WebviewToHost): void;
  agentName(): string;
  /** The folders the session works in: paths under them are shown relative (PanelState.roots). */
  roots(): readonly string[];
  /** True while this entry is the one the agent is still writing. */
  isStreaming(key: string): boolean;
  /** The request the number keys and Esc answer (the oldest unanswered), if any. */
  oldestPermission(): string | null;
  /** Live output of a terminal the client runs for the agent, if known. */
  terminal(terminalId: string): TerminalView | undefined;
  /** The session this panel shows: a message between sessions is "to" or "from" the other one. */
  sessionId(): string | null;
  /** What the panel calls a session (a subagent card's title, the chat's title), if anything. */
  sessionTitle(sessionId: string): string | null;
  /** The host opens a subagent's own transcript (`openSubagent`): only then does a card offer it. */
  canOpenSubagents(): boolean;
  /** What a running subagent is doing now (its open tool call's title; '' or undefined: nothing to say). */
  subagentActivity(childSessionId: string): string | undefined;
  /** A done subagent's result where its card's reply is not it (PanelState.subagentResults), if any. */
  subagentResult(childSessionId: string): readonly ContentBlock[] | undefined;
  /** What review made of the change a tool card made (toolCards.ts), if anything yet. */
  cardReview(key: string): CardReview | undefined;
  /** The one timer behind every running subagent's time. */
  readonly clock: ElapsedClock;
  /** Subagent transcripts expanded in their cards (absent: cards do not offer it). */
  readonly subagentTranscripts?: SubagentExpansion;
}

/** What a delegation card asks of the subagent transcripts expanded in cards (subagentTranscripts.ts). */
export interface SubagentExpansion {
  isExpanded(childSessionId: string): boolean;
  /** Expands or collapses the child's transcript in its card. */
  toggle(childSessionId: string): void;
  /** The element that shows the child's transcript, named for the card's title (made on first use). */
  element(childSessionId: string, title: string): HTMLElement;
}

export abstract class EntryView<E extends Entry = Entry> {
  hydrated = false;
  private dirty = false;
  /**
   * Text appended to the entry's content since it was last drawn, when that is all that changed in its
   * content (the `appendText` rule: to the last block when it is text, else as a new text block); null
   * when the content changed otherwise, or nothing was drawn yet. Lets a renderer add to what it shows
   * instead of comparing all of it.
   */
  protected appended: string | null = null;
  private elValue: HTMLElement | null = null;
  /** Part of an earlier session's transcript (read-only), shown with the `earlier` class. */
  private earlierValue = false;
  /** The view this entry is drawn in (a question's tool card, a subagent's card, a step's tool call), or null. */
  private hostValue: EntryView | null = null;

  constructor(
    public entry: E,
    protected readonly ctx: ViewDeps,
  ) {}

  /** The wrapper element, made on first use. */
  get el(): HTMLElement {
    if (this.elValue) return this.elValue;
    const entry = this.entry;
    const el = h('div', {
      class: `entry entry-${entry.kind} placeholder${this.earlierValue ? ' earlier' : ''}`,
      role: 'article',
      'data-key': entry.key,
      'data-kind': entry.kind,
      'aria-label': entryLabel(entry, this.ctx.agentName()),
      tabindex: -1,
    });
    // A plain estimated height until the real content is built (CSSOM, allowed by the CSP).
    el.style.height = `${estimateHeight(entry)}px`;
    this.elValue = el;
    return el;
  }

  /** Whether the wrapper element exists yet. */
  get hasElement(): boolean {
    return this.elValue !== null;
  }

  get earlier(): boolean {
    return this.earlierValue;
  }

  set earlier(on: boolean) {
    this.earlierValue = on;
    this.elValue?.classList.toggle('earlier', on);
  }

  get key(): string {
    return this.entry.key;
  }

  /** The view whose card draws this entry, when it is drawn in another one (its own element shows nothing). */
  get drawnIn(): EntryView | null {
    return this.hostValue;
  }

  /** Where this entry is on screen: its own element, or what it draws in its host's card. */
  get shownEl(): HTMLElement {
    return this.el;
  }

  /**
   * Draws this entry in `host`'s card (null: back in its own element). The own element stays in the list
   * with no height rather than `hidden`: the transcript finds entries near the viewport by binary search
   * over their elements' offsets, which a `display: none` element (offset 0) would throw off.
   */
  protected setDrawnIn(host: EntryView | null): void {
    this.hostValue = host;
    // `visibility: hidden` (chat.css) also takes it out of the accessibility tree.
    this.el.classList.toggle('hosted', host !== null);
  }

  /** The entry left the transcript (removed, or a snapshot replaced everything): stop anything it runs. */
  dispose(): void {}

  hydrate(): void {
    if (this.hydrated) return;
    this.hydrated = true;
    this.el.classList.remove('placeholder');
    this.el.style.height = '';
    this.build();
    this.dirty = false;
    this.appended = '';
  }

  /**
   * Records a new version of the entry; it is drawn by `flush` (once per frame), or on hydration.
   * `appendedText`: the new version's content is the old one's with this text appended (streamed text).
   */
  set(entry: E, appendedText?: string): void {
    this.entry = entry;
    this.appended = appendedText === undefined || this.appended === null ? null : this.appended + appendedText;
    this.dirty = true;
    if (!this.elValue) return; // made with the current label when needed
    const label = entryLabel(entry, this.ctx.agentName());
    if (this.elValue.getAttribute('aria-label') !== label) this.elValue.setAttribute('aria-label', label);
  }

  /** Draws pending changes; returns whether anything was drawn. */
  flush(): boolean {
    if (!this.dirty || !this.hydrated) return false;
    this.dirty = false;
    this.render();
    this.appended = '';
    return true;
  }

  /** Called when a later entry appears (a thought collapses once the answer starts). */
  followed(): void {}

  setPermissions(_perms: readonly PermissionView[], _answered: ReadonlySet<string>): void {}

  protected abstract build(): void;
  protected abstract render(): void;
}
