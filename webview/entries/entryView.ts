/**
 * One transcript entry on screen. The wrapper element exists from the start (it carries the stable
 * `data-key` / `data-kind` selectors and keeps the scroll height about right); its contents are built
 * only when the entry first comes near the viewport (`hydrate`) and are then updated in place, never
 * rebuilt for a finished entry.
 */
import type { ViewEntry as Entry } from '../../src/common/webview/viewEntry';
import type { PermissionView, TerminalView, WebviewToHost } from '../../src/common/webview/contract';
import { h } from '../dom';
import { entryLabel, estimateHeight } from '../entryModel';

export interface ViewContext {
  post(message: WebviewToHost): void;
  agentName(): string;
  /** True while this entry is the one the agent is still writing. */
  isStreaming(key: string): boolean;
  /** The request the number keys and Esc answer (the oldest unanswered), if any. */
  oldestPermission(): string | null;
  /** Live output of a terminal the client runs for the agent, if known. */
  terminal(terminalId: string): TerminalView | undefined;
}

export abstract class EntryView<E extends Entry = Entry> {
  readonly el: HTMLElement;
  hydrated = false;
  private dirty = false;

  constructor(
    public entry: E,
    protected readonly ctx: ViewContext,
  ) {
    this.el = h('div', {
      class: `entry entry-${entry.kind} placeholder`,
      role: 'article',
      'data-key': entry.key,
      'data-kind': entry.kind,
      'aria-label': entryLabel(entry, ctx.agentName()),
      tabindex: -1,
    });
    // A plain estimated height until the real content is built (CSSOM, allowed by the CSP). Placeholders
    // are deliberately not `content-visibility: auto`: on 10,000 of them that bookkeeping costs more than it saves.
    this.el.style.height = `${estimateHeight(entry)}px`;
  }

  get key(): string {
    return this.entry.key;
  }

  hydrate(): void {
    if (this.hydrated) return;
    this.hydrated = true;
    this.el.classList.remove('placeholder');
    this.el.style.containIntrinsicSize = `auto ${this.el.style.height}`;
    this.el.style.height = '';
    this.build();
    this.dirty = false;
  }

  /** Records a new version of the entry; it is drawn by `flush` (once per frame), or on hydration. */
  set(entry: E): void {
    this.entry = entry;
    this.dirty = true;
    const label = entryLabel(entry, this.ctx.agentName());
    if (this.el.getAttribute('aria-label') !== label) this.el.setAttribute('aria-label', label);
  }

  /** Draws pending changes; returns whether anything was drawn. */
  flush(): boolean {
    if (!this.dirty || !this.hydrated) return false;
    this.dirty = false;
    this.render();
    return true;
  }

  /** Called when a later entry appears (a thought collapses once the answer starts). */
  followed(): void {}

  setPermissions(_perms: readonly PermissionView[], _answered: ReadonlySet<string>): void {}

  protected abstract build(): void;
  protected abstract render(): void;
}
