/**
 * The History view's "Agent sessions" section: folded at first (opening it is what asks every agent for its
 * sessions, so no agent is started before that); then one line per agent saying where its listing is
 * (listing, N sessions not in ACP Chat, none, not supported, failed and why) with a button per session,
 * which opens it as a chat (and leaves the list: it is a chat now). Agent text is shown as text only.
 */
import type { HistoryToHost, HostToHistory } from '../../src/common/history/historyContract';
import type { AgentSessionsRow } from '../../src/common/history/agentSessions';
import { h } from '../dom';

type Rows = Extract<HostToHistory, { type: 'agentSessions' }>;

export class AgentSessionsSection {
  private readonly body = h('div', { class: 'history-agents-body', role: 'status', 'aria-live': 'polite' });
  private readonly again = h('button', { type: 'button', class: 'history-agents-again', disabled: true }, 'List again');
  readonly element = h('details', { class: 'history-agents' }, h('summary', {}, 'Agent sessions'), this.again, this.body);
  private asked = false;
  /** Sessions opened from here: not shown again even before the next listing. */
  private readonly opened = new Set<string>();

  constructor(private readonly post: (m: HistoryToHost) => void) {
    this.element.addEventListener('toggle', () => {
      if (this.element.open && !this.asked) this.list();
    });
    this.again.addEventListener('click', () => this.list());
  }

  private list(): void {
    this.asked = true;
    this.again.disabled = true;
    this.body.replaceChildren(h('div', { class: 'history-agents-note' }, 'Asking each agent for its sessions of this folder…'));
    this.post({ type: 'listAgentSessions' });
  }

  show(m: Rows): void {
    this.again.disabled = !m.done;
    if (m.note !== undefined) return void this.body.replaceChildren(h('div', { class: 'history-agents-note' }, m.note));
    this.body.replaceChildren(...m.rows.map((r) => this.row(r)));
  }

  private row(r: AgentSessionsRow): HTMLElement {
    const sessions = r.sessions.filter((s) => !this.opened.has(`${r.agentId}\u0000${s.sessionId}`));
    const note = r.state === 'listed' && sessions.length === 0 ? 'no sessions that ACP Chat does not show' : r.note;
    const list = h('ul', { class: 'agent-sessions-list' });
    for (const s of sessions) {
      const b = h(
        'button',
        { type: 'button', class: 'agent-session', title: s.sessionId },
        s.title ?? 'Untitled session',
        s.updatedAt ? h('span', { class: 'history-meta' }, ` · ${when(s.updatedAt)}`) : null,
      );
      b.addEventListener('click', () => {
        this.opened.add(`${r.agentId}\u0000${s.sessionId}`);
        b.closest('li')?.remove();
        this.post({ type: 'openAgentSession', agentId: r.agentId, sessionId: s.sessionId });
      });
      list.append(h('li', {}, b));
    }
    return h(
      'div',
      { class: `agent-sessions-row state-${r.state}`, 'data-agent-id': r.agentId },
      h('div', { class: 'agent-sessions-head' }, h('strong', {}, r.name), ` — ${note}`),
      list,
    );
  }
}

function when(updatedAt: string): string {
  const d = new Date(updatedAt);
  return Number.isNaN(d.getTime()) ? updatedAt : d.toLocaleString();
}
