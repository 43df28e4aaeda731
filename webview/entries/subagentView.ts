/**
 * A subagent's delegation card: where the agent started a child session, what the parent calls it, and
 * how its work stands (with the time in that state). The child's own transcript is a session of its own.
 */
import type { ViewSubagent } from '../../src/common/webview/viewEntry';
import { h } from '../dom';
import { subagentStateLabel } from '../entryModel';
import { EntryView } from './entryView';

export class SubagentView extends EntryView<ViewSubagent> {
  private title: HTMLElement | null = null;
  private state: HTMLElement | null = null;
  private description: HTMLElement | null = null;

  protected build(): void {
    this.title = h('span', { class: 'subagent-title' });
    this.state = h('span', { class: 'subagent-state' });
    this.description = h('div', { class: 'subagent-description' });
    this.el.append(h('div', { class: 'entry-body subagent' }, h('div', { class: 'subagent-head' }, this.title, this.state), this.description));
    this.render();
  }

  protected render(): void {
    const e = this.entry;
    if (this.title) this.title.textContent = e.title ?? 'Subagent';
    if (this.state) {
      this.state.textContent = subagentStateLabel(e.state, e.stopReason);
      this.state.dataset['state'] = e.state ?? '';
    }
    if (this.description) {
      this.description.textContent = e.description ?? '';
      this.description.hidden = !e.description;
    }
  }
}
