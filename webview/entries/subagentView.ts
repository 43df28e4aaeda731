/**
 * A subagent's delegation card: where the agent started a child session, what the parent calls it, how
 * its work stands (a badge with the time in that state: "running · 12 s", kept current by the panel's one
 * ElapsedClock; "done · 40 s", how long it worked, once it finished), and the messages between the parent
 * and the child (the task sent, the result returned), drawn here by their own views (sessionMessageView.ts).
 * The child's own transcript is a session of its own: a host that can show it sets `canOpenSubagents`,
 * and the card then offers it (`openSubagent`); the chevron expands it in place, inside the card
 * (subagentTranscripts.ts). While the child runs the card shows no result (Claude's background form replies
 * "launched" at once); once it is done, its reply, or the child's own last message when the host says the
 * reply is not its result (`subagentResults`).
 */
import type { ViewSubagent } from '../../src/common/webview/viewEntry';
import { subagentElapsed } from '../../src/common/webview/subagentText';
import { button, h, icon, keepFocus } from '../dom';
import { subagentStateLabel } from '../entryModel';
import type { Ticking } from '../elapsedClock';
import { EntryView } from './entryView';
import { resultDrawing, type SessionMessageView } from './sessionMessageView';
import { reviewBadge } from './toolCardParts';
import type { ContentBlock } from '../../src/common/protocol/content';

/** The badge of each state: its icon and the status colour it borrows from tool cards (chat.css). */
const STATE_LOOK: Record<string, { readonly icon: string; readonly status: string }> = {
  running: { icon: 'loading', status: 'in_progress' },
  done: { icon: 'pass', status: 'completed' },
  stopped: { icon: 'circle-slash', status: 'cancelled' },
  requires_action: { icon: 'bell-dot', status: 'needs-you' },
  unknown: { icon: 'question', status: 'unknown' },
};
const NO_LOOK = { icon: 'circle-large-outline', status: 'unknown' };
const NONE: readonly SessionMessageView[] = [];

export class SubagentView extends EntryView<ViewSubagent> implements Ticking {
  private title: HTMLElement | null = null;
  private badge: HTMLElement | null = null;
  private elapsed: HTMLElement | null = null;
  private description: HTMLElement | null = null;
  private stop: HTMLButtonElement | null = null;
  private activity: HTMLElement | null = null;
  private readonly messagesSlot = h('div', { class: 'subagent-messages' });
  /** The toggle that expands the child's transcript in this card, and where it is drawn (subagentTranscripts.ts). */
  private expander: HTMLButtonElement | null = null;
  private readonly transcriptSlot = h('div', { class: 'subagent-transcript-slot' });
  /** What review made of the child's edits (toolCards.ts: the card is named with its child's edits), beside the state. */
  private readonly reviewSlot = h('span', { class: 'subagent-review' });
  private messages: readonly SessionMessageView[] = NONE;
  /** The result drawn from the child's own last message, and what it was drawn from (subagentResults). */
  private instead: { readonly content: readonly ContentBlock[]; readonly el: HTMLElement } | null = null;
  private disposed = false;

  protected build(): void {
    this.title = h('span', { class: 'subagent-title' });
    this.badge = h('span', { class: 'status subagent-state' });
    this.elapsed = h('span', { class: 'subagent-elapsed' });
    this.description = h('div', { class: 'subagent-description' });
    const tree = button('Show in Message Tree', 'list-tree', { class: 'icon-button show-in-tree' });
    tree.addEventListener('click', () => this.ctx.post({ type: 'revealInTree', key: this.entry.key }));
    const head = h('div', { class: 'subagent-head' }, h('span', { class: 'subagent-icon' }, icon('hubot')), this.title, tree, this.badge, this.reviewSlot);
    const expansion = this.ctx.subagentTranscripts;
    if (expansion) {
      // A disclosure button before the icon: Enter and Space toggle it, aria-expanded says how it stands.
      const expander = button('', null, { class: 'icon-button subagent-expander', 'aria-expanded': 'false' });
      expander.addEventListener('click', () => {
        expansion.toggle(this.entry.childSessionId);
        this.showExpansion();
      });
      this.expander = expander;
      head.prepend(expander);
    }
    // Stop: the child's current work only (its parent goes on); offered while it runs and said it can be cancelled.
    const stop = button('Stop the subagent', 'debug-stop', { class: 'icon-button stop-subagent' });
    stop.addEventListener('click', () => this.ctx.post({ type: 'cancelSubagent', childSessionId: this.entry.childSessionId }));
    this.stop = stop;
    head.append(stop);
    if (this.ctx.canOpenSubagents()) {
      const open = button("Open the subagent's transcript", 'link-external', { class: 'icon-button open-subagent' });
      open.addEventListener('click', () => this.ctx.post({ type: 'openSubagent', childSessionId: this.entry.childSessionId }));
      head.append(open);
    }
    this.activity = h('div', { class: 'subagent-activity' });
    this.el.append(h('div', { class: 'entry-body subagent' }, head, this.description, this.activity, this.messagesSlot, this.transcriptSlot));
    for (const m of this.messages) m.hydrate();
    this.render();
    this.showExpansion();
  }

  protected render(): void {
    const e = this.entry;
    if (this.title) this.title.textContent = e.title || 'Subagent';
    if (this.description) {
      this.description.textContent = e.description ?? '';
      this.description.hidden = !e.description;
    }
    const badge = this.badge;
    if (badge) {
      const label = subagentStateLabel(e.state, e.stopReason);
      const look = STATE_LOOK[label === 'done' ? 'done' : label.startsWith('stopped') ? 'stopped' : (e.state ?? '')] ?? NO_LOOK;
      badge.className = `status subagent-state status-${look.status}`;
      badge.dataset['state'] = e.state ?? '';
      // One text child: the badge is a flex box, and its items would read as separate lines.
      badge.replaceChildren(icon(look.icon), h('span', {}, label, this.elapsed ?? ''));
    }
    const review = reviewBadge(this.ctx.cardReview(e.key));
    this.reviewSlot.replaceChildren(...(review ? [review] : []));
    this.el.classList.toggle('awaiting', e.state === 'requires_action');
    if (this.stop) this.stop.hidden = !(e.canCancel && (e.state === 'running' || e.state === 'requires_action'));
    this.showPanelFacts();
    this.showElapsed(this.ctx.clock.now());
    // Only a running card listens to the clock; the clock stops when none does.
    if (e.state === 'running' && !this.disposed) this.ctx.clock.add(this);
    else this.ctx.clock.remove(this);
  }

  /**
   * Expanded: the child's own transcript in this card, which has the task and the result among its entries,
   * so the card's own task and result step aside (nothing twice). Collapsed: the card alone.
   */
  private showExpansion(): void {
    const expansion = this.ctx.subagentTranscripts;
    const expander = this.expander;
    if (!expansion || !expander) return;
    const id = this.entry.childSessionId;
    const open = expansion.isExpanded(id);
    const label = open ? "Hide the subagent's transcript" : "Show the subagent's transcript here";
    expander.setAttribute('aria-expanded', String(open));
    expander.setAttribute('aria-label', label);
    expander.title = label;
    expander.replaceChildren(icon(open ? 'chevron-down' : 'chevron-right'));
    const nested = open ? expansion.element(id, this.entry.title || 'Subagent') : null;
    if (nested) {
      nested.id ||= `subagent-transcript-${this.entry.key}`;
      expander.setAttribute('aria-controls', nested.id);
    } else expander.removeAttribute('aria-controls');
    this.messagesSlot.hidden = open;
    if (nested ? this.transcriptSlot.firstChild !== nested : this.transcriptSlot.firstChild) this.transcriptSlot.replaceChildren(...(nested ? [nested] : []));
  }

  /** What the panel says of this child: what it does now, and its result when its reply is not it. */
  showPanelFacts(): void {
    this.showActivity();
    if (this.hydrated) this.showMessages();
  }

  /** "Now: <its open tool call>" while it runs (the panel's `subagentActivity`); nothing once it stopped. */
  private showActivity(): void {
    if (!this.activity) return;
    const now = this.entry.state === 'running' || this.entry.state === 'requires_action' ? (this.ctx.subagentActivity(this.entry.childSessionId) ?? '') : '';
    const text = now ? `Now: ${now}` : '';
    if (this.activity.textContent !== text) this.activity.textContent = text;
    this.activity.hidden = text === '';
  }

  tick(now: number): boolean {
    if (this.disposed || this.entry.state !== 'running') return false;
    this.showElapsed(now);
    return true;
  }

  override dispose(): void {
    this.disposed = true;
    this.ctx.clock.remove(this);
  }

  /** The task and result messages drawn in this card, in transcript order; they are built with it. */
  setMessages(messages: readonly SessionMessageView[]): void {
    this.messages = messages;
    if (this.hydrated) for (const m of messages) m.hydrate();
    this.showMessages();
  }

  /**
   * The task, and the result: none while the child runs (a background child's reply, "launched", is no
   * result), then its reply, or its own last message when the host says the reply is not it.
   */
  private showMessages(): void {
    const running = this.entry.state === 'running' || this.entry.state === 'requires_action';
    const content = running ? undefined : this.ctx.subagentResult(this.entry.childSessionId);
    if (!content) this.instead = null;
    else if (this.instead?.content !== content) this.instead = { content, el: resultDrawing(content) };
    const drawings = this.messages.filter((m) => !m.isResult || (!running && !content)).map((m) => m.drawing);
    if (this.instead) drawings.push(this.instead.el);
    // Compared by what they draw: a message whose role changed (its route did) has a new drawing.
    const shown = this.messagesSlot.children;
    if (drawings.length === shown.length && drawings.every((d, i) => d === shown[i])) return;
    const slot = this.messagesSlot;
    keepFocus(
      slot,
      () => slot.replaceChildren(...drawings),
      () => this.el,
    );
  }

  private showElapsed(now: number): void {
    const text = subagentElapsed(this.entry, now);
    if (!this.elapsed) return;
    const shown = text === null ? '' : ` · ${text}`;
    if (this.elapsed.textContent !== shown) this.elapsed.textContent = shown;
    if (this.badge) this.badge.title = text === null ? '' : this.entry.state === 'running' ? `Running for ${text}` : `Worked for ${text}`;
  }
}
