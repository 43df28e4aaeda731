/** User messages, agent messages and agent thoughts. */
import type { ViewMessage as MessageEntry } from '../../src/common/webview/viewEntry';
import { button, h, icon, keepFocus, onUserFold } from '../dom';
import { entryPlainText, thoughtSeconds } from '../entryModel';
import { StreamingMarkdown } from '../streamingMarkdown';
import { renderBlock } from './blocks';
import { carriedSummary, splitCarried, type CarriedView } from '../../src/common/rewind/carriedView';
import { renderMarkdown } from '../markdown';
import { EntryView } from './entryView';
import { setUserText, userTextBlock } from './userText';

export class MessageView extends EntryView<MessageEntry> {
  /** Made in `build`: a view that is never built costs no elements. */
  private body: HTMLElement | null = null;
  /** One slot per content block: a live markdown renderer for agent text, else a static element. */
  private slots: (StreamingMarkdown | HTMLElement)[] = [];
  private shape: readonly string[] = [];
  private details: HTMLDetailsElement | null = null;
  private summaryText: HTMLElement | null = null;
  private userToggled = false;
  /** The open state we set last; a toggle event showing anything else came from the user. */
  private expectedOpen = false;
  /** Shown when a session/load replay told this message in other words (the agent's history differs from what you saw). */
  private differs: HTMLElement | null = null;

  protected build(): void {
    const e = this.entry;
    this.body = h('div', { class: 'entry-body' });
    const copy = button('Copy message', 'copy', { class: 'icon-button copy-message' });
    copy.addEventListener('click', () => this.ctx.post({ type: 'copy', text: entryPlainText(this.entry) }));
    const inTree = button('Show in Message Tree', 'list-tree', { class: 'icon-button show-in-tree' });
    inTree.addEventListener('click', () => this.ctx.post({ type: 'revealInTree', key: this.entry.key }));
    if (e.kind === 'agent_thought') {
      this.summaryText = h('span', { class: 'thought-label' });
      const summary = h('summary', {}, icon('lightbulb'), this.summaryText);
      this.details = h('details', { class: 'thought' }, summary, this.body);
      this.expectedOpen = this.ctx.isStreaming(e.key);
      this.details.open = this.expectedOpen;
      onUserFold(
        this.details,
        () => (this.userToggled = true),
        () => this.expectedOpen,
      );
      this.el.append(this.details);
    } else {
      const who = e.kind === 'user_message' ? h('span', { class: 'who' }, icon('account'), 'You') : h('span', { class: 'who' }, icon('sparkle'), this.ctx.agentName());
      const actions = h('span', { class: 'actions' }, inTree, copy);
      if (e.kind === 'user_message') {
        const fork = button('Fork Chat Here', 'repo-forked', { class: 'icon-button fork-chat' });
        fork.addEventListener('click', () => this.ctx.post({ type: 'forkChat', key: this.entry.key }));
        const edit = button('Edit and Rerun (a new branch)', 'edit', { class: 'icon-button edit-message' });
        edit.addEventListener('click', () => this.ctx.post({ type: 'editMessage', key: this.entry.key }));
        const restore = button('Restore to Here (undo later changes, fold later turns)', 'discard', { class: 'icon-button restore-here' });
        restore.addEventListener('click', () => this.ctx.post({ type: 'restoreHere', key: this.entry.key }));
        actions.prepend(restore, edit, fork);
      }
      const why = "When the chat was reloaded, the agent replayed this message in other words. This is the text you saw; the agent's history differs.";
      this.differs = h('span', { class: 'replay-differs', role: 'note', title: why, 'aria-label': why }, icon('warning'), 'History differs');
      this.el.append(h('div', { class: 'entry-head' }, who, this.differs, actions), this.body);
    }
    this.render();
  }

  protected render(): void {
    if (this.body)
      keepFocus(
        this.body,
        () => this.renderBody(),
        () => this.el,
      );
    const e = this.entry;
    if (this.differs) this.differs.hidden = e.replayDiffers !== true;
    if (this.summaryText) {
      const streaming = this.ctx.isStreaming(e.key);
      this.summaryText.textContent = streaming ? 'Thinking…' : `Thought for ${thoughtSeconds(e)} s`;
      if (!streaming) this.collapse();
    }
  }

  private renderBody(): void {
    const e = this.entry;
    const body = this.body;
    if (!body) return;
    // A branch's first message: the transcript it carried is one folded block in front of the message's own.
    const { carried, own } = e.kind === 'user_message' ? splitCarried(e.content) : { carried: null, own: e.content };
    const shape = [...(carried ? ['carried'] : []), ...own.map((b) => b.type)];
    // Same block layout as before, maybe with blocks added (the streaming case): update slots in place.
    if (!this.shape.every((t, i) => shape[i] === t)) {
      body.replaceChildren();
      this.slots = [];
    }
    if (carried && !this.slots[0]) this.addSlot(carriedBlock(carried));
    const offset = carried ? 1 : 0;
    // Only text appended since the last drawing, and no block added: it all went to the last block.
    const grown = this.appended !== null && this.slots.length === shape.length ? this.appended : null;
    own.forEach((b, at) => {
      const i = at + offset;
      const slot = this.slots[i];
      if (b.type === 'text') {
        if (e.kind === 'user_message') {
          if (slot instanceof HTMLElement) setUserText(slot, b.text);
          else this.addSlot(userTextBlock(b.text));
        } else if (slot instanceof StreamingMarkdown) {
          if (grown !== null && at === own.length - 1) slot.extend(b.text, grown);
          else slot.setText(b.text);
        } else this.addSlot(new StreamingMarkdown(b.text));
      } else if (!slot) this.addSlot(renderBlock(b));
    });
    this.shape = shape;
  }

  private addSlot(slot: StreamingMarkdown | HTMLElement): void {
    this.slots.push(slot);
    this.body?.append(slot instanceof StreamingMarkdown ? slot.el : slot);
  }

  override followed(): void {
    if (this.entry.kind !== 'agent_thought') return;
    if (this.summaryText) this.summaryText.textContent = `Thought for ${thoughtSeconds(this.entry)} s`;
    this.collapse();
  }

  /** Once the answer starts the thought gets out of the way, unless the user opened it on purpose. */
  private collapse(): void {
    if (!this.details || this.userToggled || !this.details.open) return;
    this.expectedOpen = false;
    this.details.open = false;
  }
}

/**
 * The carried transcript, folded to one line (what was sent, its size); opened, the lead line the agent
 * read and the transcript (rendered Markdown when it went embedded, else the file the agent was given).
 */
function carriedBlock(v: CarriedView): HTMLElement {
  const body = h('div', { class: 'carried-body' });
  if (v.lead !== null) body.append(h('div', { class: 'user-text carried-lead' }, v.lead));
  if (v.markdown !== null) body.append(h('div', { class: 'markdown carried-markdown' }, renderMarkdown(v.markdown)));
  if (v.uri !== null) body.append(renderBlock({ type: 'resource_link', uri: v.uri, name: v.markdown === null ? 'Open the file sent as a link' : 'Open as a file' }));
  return h('details', { class: 'carried' }, h('summary', {}, icon('history'), h('span', {}, carriedSummary(v))), body);
}
