/**
 * The prompt box's completion list (an ARIA 1.2 combobox popup, `#slash-list`): the agent's commands after
 * a leading `/`, and after `@` the context words (`@problems`…) then the workspace files the host matches.
 * It reads and writes the prompt's textarea; what the box does after a choice (save the draft, update its
 * buttons) is `accepted`. Split from promptBox.ts, which keeps the typing, sending and editing.
 */
import type { AvailableCommand } from '../src/common/store/model';
import type { WebviewToHost } from '../src/common/webview/contract';
import { h, icon } from './dom';
import { completeCommand, matchCommands, slashQuery } from './slash';
import { mentionQuery, mentionText } from '../src/common/mentions';
import { matchMentionSources, type MentionSource } from '../src/common/webview/contextSources';

export class PromptCompletion {
  readonly list = h('div', { class: 'completion', role: 'listbox', id: 'slash-list', 'aria-label': 'Commands' });
  private commands: readonly AvailableCommand[] = [];
  private matches: AvailableCommand[] = [];
  /** `@` completion: the token being typed, and the host's matching workspace files for it. */
  private mention: { query: string; start: number } | null = null;
  private files: readonly string[] = [];
  /** The `@` words (`@problems`, `@symbol`…) the query starts: listed before the files. */
  private sources: readonly MentionSource[] = [];
  private mentionTimer = 0;
  private selected = 0;

  constructor(
    private readonly textarea: HTMLTextAreaElement,
    private readonly post: (m: WebviewToHost) => void,
    /** A read-only session offers no `@` files. */
    private readonly readOnly: () => boolean,
    /** An item was chosen and written into the textarea. */
    private readonly accepted: () => void,
  ) {
    this.list.hidden = true;
  }

  /** The agent's commands changed; an open list follows them. */
  setCommands(commands: readonly AvailableCommand[]): void {
    this.commands = commands;
    if (!this.list.hidden) this.update();
  }

  /**
   * A key while the list is open: the arrows move, Tab and Enter (without Shift) choose, Escape closes.
   * True when the key was the list's (the box then does nothing else with it).
   */
  key(e: KeyboardEvent): boolean {
    const count = this.itemCount();
    if (this.list.hidden || count === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      this.selected = (this.selected + (e.key === 'ArrowDown' ? 1 : count - 1)) % count;
      this.render();
    } else if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
      e.preventDefault();
      this.accept(this.selected);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.close();
    } else return false;
    return true;
  }

  /** Answers for the `@` query posted earlier; stale answers (the user typed on) are ignored. */
  setMentionResults(query: string, paths: readonly string[]): void {
    if (this.mention?.query !== query) return;
    this.files = paths;
    this.selected = 0;
    this.render();
  }

  private itemCount(): number {
    return this.mention ? this.sources.length + this.files.length : this.matches.length;
  }

  private accept(i: number): void {
    if (this.mention) {
      const source = this.sources[i];
      const path = this.files[i - this.sources.length];
      if (source === undefined && path === undefined) return;
      const v = this.textarea.value;
      const caret = this.textarea.selectionStart ?? v.length;
      // An `@` word adds its context as a chip (the host asks for the rest) and leaves no text behind.
      if (source) this.post({ type: 'addContext', source: source.source });
      const insert = path === undefined ? '' : mentionText(path);
      this.textarea.value = v.slice(0, this.mention.start) + insert + v.slice(caret).replace(/^\S*/, '');
      const at = this.mention.start + insert.length;
      this.textarea.setSelectionRange(at, at);
      this.close();
      this.accepted();
      this.textarea.focus();
      return;
    }
    const cmd = this.matches[i];
    if (!cmd) return;
    this.textarea.value = completeCommand(cmd);
    this.textarea.setSelectionRange(this.textarea.value.length, this.textarea.value.length);
    this.close();
    this.accepted();
    this.textarea.focus();
  }

  /** The text or the caret changed: what is being completed now. */
  update(): void {
    const caret = this.textarea.selectionStart ?? this.textarea.value.length;
    const q = slashQuery(this.textarea.value, caret);
    this.matches = q === null ? [] : matchCommands(this.commands, q);
    const m = q === null && !this.readOnly() ? mentionQuery(this.textarea.value, caret) : null;
    if (m?.query !== this.mention?.query) this.files = [];
    this.mention = m;
    this.sources = m ? matchMentionSources(m.query) : [];
    if (m) {
      // Ask the host once typing pauses; its answer arrives as `mentionResults`.
      clearTimeout(this.mentionTimer);
      this.mentionTimer = window.setTimeout(() => this.post({ type: 'mentionQuery', query: m.query }), 80);
    }
    this.selected = 0;
    this.render();
  }

  private render(): void {
    // One list, two kinds of item: workspace files after `@`, the agent's commands after a leading `/`.
    const items: { attrs: Record<string, string>; parts: (HTMLElement | null)[] }[] = this.mention
      ? [
          ...this.sources.map((s) => ({
            attrs: { 'data-source': s.source },
            parts: [icon(s.icon), h('span', { class: 'cmd-name' }, `@${s.word}`), h('span', { class: 'cmd-desc' }, s.description)],
          })),
          ...this.files.map((f) => {
            const slash = f.lastIndexOf('/');
            return {
              attrs: { 'data-file': f },
              parts: [h('span', { class: 'cmd-name' }, `@${f.slice(slash + 1)}`), h('span', { class: 'cmd-desc' }, slash > 0 ? f.slice(0, slash) : '')],
            };
          }),
        ]
      : this.matches.map((c) => ({
          attrs: { 'data-command': c.name },
          parts: [
            h('span', { class: 'cmd-name' }, `/${c.name}`),
            h('span', { class: 'cmd-desc' }, c.description),
            c.input?.hint ? h('span', { class: 'cmd-hint' }, c.input.hint) : null,
          ],
        }));
    this.list.hidden = items.length === 0;
    this.textarea.setAttribute('aria-expanded', String(!this.list.hidden));
    this.list.setAttribute('aria-label', this.mention ? 'Files' : 'Commands');
    this.list.replaceChildren(
      ...items.map(({ attrs, parts }, i) => {
        const item = h('div', { class: 'completion-item', role: 'option', id: `slash-${i}`, 'aria-selected': String(i === this.selected), ...attrs }, ...parts);
        item.addEventListener('mousedown', (e) => {
          e.preventDefault(); // keep focus in the textarea
          this.accept(i);
        });
        return item;
      }),
    );
    if (!this.list.hidden) {
      this.textarea.setAttribute('aria-activedescendant', `slash-${this.selected}`);
      this.list.children[this.selected]?.scrollIntoView({ block: 'nearest' });
    } else this.textarea.removeAttribute('aria-activedescendant');
  }

  /** Empties and hides the list (a choice, Escape, a send, the prompt losing focus). */
  close(): void {
    this.matches = [];
    this.mention = null;
    this.files = [];
    this.sources = [];
    clearTimeout(this.mentionTimer);
    this.render();
  }
}
