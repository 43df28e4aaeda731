/**
 * A context compaction: a compact row in the transcript (not a chat bubble) saying how it stands, with the
 * error of a failed one and, once the agent sent it, the summary behind a disclosure. The summary is the
 * agent's text: rendered as Markdown through the same allowlist as agent messages (markdownDom.ts), never
 * as HTML; other blocks as their safe previews. Redrawn only when the summary (an immutable array) changes.
 */
import type { ContentBlock } from '../../src/common/protocol/content';
import type { ViewCompaction } from '../../src/common/webview/viewEntry';
import { h, icon } from '../dom';
import { compactionStateLabel } from '../entryModel';
import { renderMarkdown } from '../markdown';
import { renderBlock } from './blocks';
import { EntryView } from './entryView';

const STATE_ICON: Readonly<Record<string, string>> = { in_progress: 'loading', completed: 'fold', failed: 'error', cancelled: 'circle-slash' };

export class CompactionView extends EntryView<ViewCompaction> {
  private badge: HTMLElement | null = null;
  private error: HTMLElement | null = null;
  private details: HTMLDetailsElement | null = null;
  private summaryBody: HTMLElement | null = null;
  private shownSummary: readonly ContentBlock[] | null = null;

  protected build(): void {
    this.badge = h('span', { class: 'compaction-state' });
    this.error = h('div', { class: 'compaction-error' });
    this.summaryBody = h('div', { class: 'compaction-summary-body markdown' });
    this.details = h('details', { class: 'compaction-summary' }, h('summary', {}, 'Summary'), this.summaryBody);
    this.el.append(h('div', { class: 'entry-body compaction' }, this.badge, this.error, this.details));
    this.render();
  }

  protected render(): void {
    const e = this.entry;
    if (!this.badge || !this.error || !this.details || !this.summaryBody) return;
    this.badge.className = `compaction-state status-${e.status}`;
    this.badge.replaceChildren(icon(STATE_ICON[e.status] ?? 'fold'), compactionStateLabel(e.status));
    this.error.hidden = !e.error;
    this.error.textContent = e.error ?? '';
    this.details.hidden = e.summary.length === 0;
    if (this.shownSummary !== e.summary) {
      this.shownSummary = e.summary;
      this.summaryBody.replaceChildren(...e.summary.map((b) => (b.type === 'text' ? renderMarkdown(b.text) : renderBlock(b))));
    }
  }
}
