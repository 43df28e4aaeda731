/**
 * A message between two sessions of the chat (`session_message`): a parent's task for its subagent, or
 * the subagent's reply. Sent to or from a child whose card the transcript shows, it is drawn in that card
 * (subagentPlacer.ts): the task as a folded "Task", the reply as the card's "Result"; its own element then
 * shows nothing. Otherwise it is a row of its own headed "From …" or "To …". Either way the one drawing is
 * fed by its one entry, and the text goes through the sanitized Markdown path.
 */
import type { ContentBlock } from '../../src/common/protocol/content';
import type { ViewMessage } from '../../src/common/webview/viewEntry';
import type { HostRole } from '../../src/common/webview/subagentPlacement';
import { withoutToolsUsed } from '../../src/common/webview/subagentText';
import { button, h, icon, keepFocus } from '../dom';
import { entryPlainText } from '../entryModel';
import { renderMarkdown } from '../markdown';
import { renderBlock } from './blocks';
import { EntryView } from './entryView';

export type MessageRole = Exclude<HostRole, 'step'>;

export class SessionMessageView extends EntryView<ViewMessage> {
  private bodyValue: HTMLElement | null = null;
  private drawingValue: HTMLElement | null = null;
  private card: EntryView | null = null;
  private role: MessageRole = 'task';
  /** The entry the body shows now: unrelated redraws leave it alone. */
  private shown: ViewMessage | null = null;

  /** The message's text, drawn on first use. */
  private get body(): HTMLElement {
    this.bodyValue ??= h('div', { class: 'session-message-body' });
    this.drawBody();
    return this.bodyValue;
  }

  /** What a card holds of this message: the folded task, or the result with its label. */
  get drawing(): HTMLElement {
    if (this.drawingValue) return this.drawingValue;
    const label = this.role === 'task' ? 'Task' : 'Result';
    this.drawingValue =
      this.role === 'task'
        ? h('details', { class: 'subagent-message subagent-task' }, h('summary', {}, icon('comment'), h('span', {}, label)), this.body)
        : h(
            'div',
            { class: 'subagent-message subagent-result', role: 'group', 'aria-label': label },
            h('div', { class: 'subagent-message-label' }, icon('reply'), label),
            this.body,
          );
    return this.drawingValue;
  }

  /** Drawn in a card as the child's result (not its task). */
  get isResult(): boolean {
    return this.card !== null && this.role === 'result';
  }

  override get shownEl(): HTMLElement {
    return this.card ? this.drawing : this.el;
  }

  /** Draws the message in a subagent's card as its task or result (null: as a row of its own). */
  setHost(card: EntryView | null, role: MessageRole): void {
    if (card === this.card && role === this.role) return;
    if (role !== this.role) this.drawingValue = null; // made again, with the new label, when the card asks
    this.card = card;
    this.role = role;
    this.setDrawnIn(card);
    if (!card && this.hydrated) this.el.replaceChildren(this.head(), this.body);
  }

  protected build(): void {
    if (!this.card) this.el.append(this.head(), this.body);
    this.render();
  }

  protected render(): void {
    if (this.bodyValue) this.drawBody();
  }

  private drawBody(): void {
    const body = this.bodyValue;
    if (!body || this.shown === this.entry) return;
    this.shown = this.entry;
    const { content, toolsUsed } = withoutToolsUsed(this.entry.content);
    const parts: HTMLElement[] = content.map(block);
    if (toolsUsed.length) parts.unshift(h('div', { class: 'subagent-tools-used' }, `Tools used: ${toolsUsed.join(', ')}`));
    keepFocus(
      body,
      () => body.replaceChildren(...parts),
      () => this.el,
    );
  }

  /** "From <sender>" on a message this session received, "To <recipient>" on one it sent. */
  private head(): HTMLElement {
    const r = this.entry.route;
    const me = this.ctx.sessionId();
    const name = (id: string | null | undefined): string => (id ? (this.ctx.sessionTitle(id) ?? `session ${short(id)}`) : 'an unknown session');
    const from = r?.senderSessionId ?? null;
    const to = r?.recipientSessionId ?? null;
    const outgoing = me !== null && from === me;
    const text = outgoing ? `To ${name(to)}` : to === null || to === me ? `From ${name(from)}` : `From ${name(from)} to ${name(to)}`;
    const copy = button('Copy message', 'copy', { class: 'icon-button copy-message' });
    copy.addEventListener('click', () => this.ctx.post({ type: 'copy', text: entryPlainText(this.entry) }));
    return h('div', { class: 'entry-head' }, h('span', { class: 'who' }, icon(outgoing ? 'arrow-right' : 'arrow-left'), text), h('span', { class: 'actions' }, copy));
  }
}

/** A card's result drawn from the child's own last message (PanelState.subagentResults), as a reply's is drawn. */
export function resultDrawing(content: readonly ContentBlock[]): HTMLElement {
  const { content: shown, toolsUsed } = withoutToolsUsed(content);
  const body = h(
    'div',
    { class: 'session-message-body' },
    ...(toolsUsed.length ? [h('div', { class: 'subagent-tools-used' }, `Tools used: ${toolsUsed.join(', ')}`)] : []),
    ...shown.map(block),
  );
  return h(
    'div',
    { class: 'subagent-message subagent-result', role: 'group', 'aria-label': 'Result' },
    h('div', { class: 'subagent-message-label' }, icon('reply'), 'Result'),
    body,
  );
}

function block(b: ContentBlock): HTMLElement {
  if (b.type !== 'text') return renderBlock(b);
  return h('div', { class: 'markdown' }, renderMarkdown(b.text));
}

/** A session id as a person can tell it apart: its first eight characters. */
function short(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}
