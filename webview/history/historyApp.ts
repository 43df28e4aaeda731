/**
 * The side bar's History view: search across every chat as you type, filters (agent, folder, date, state,
 * unread), the chats or the matches grouped by chat (a match opens its chat at that message), and bulk
 * actions on the chats checked or on every chat matching. Plain DOM; every agent string is a text node.
 * The host does the searching (historyQuery.ts); this keeps only what is on screen and the selection.
 */
import type { HistoryChoices, HistoryGroup, HistoryRow, HistoryToHost, HostToHistory, BulkAction } from '../../src/common/history/historyContract';
import type { DateRange, HistoryFilter } from '../../src/common/history/historyFilter';
import { h } from '../dom';
import { AgentSessionsSection } from './agentSessionsSection';
import { historyRow } from './historyRow';

export interface HistoryHost {
  postMessage(m: HistoryToHost): void;
}

/**
 * Rows drawn per frame: a page of 200 rows drawn at once took two to three frames of CPU (30 ms open, a
 * 47 ms frame when the next page arrived mid-scroll; bench/historyWebview.bench.mjs). 20 rows fill a
 * side bar; the rest follow, a batch after each frame, before the list is scrolled that far.
 */
const ROWS_PER_FRAME = 20;

/** Typing settles this long before a query is sent (each keystroke still gets its answer within a frame or two). */
const TYPE_DELAY_MS = 40;

function select(label: string, cls: string, options: readonly [string, string][]): HTMLSelectElement {
  const s = h('select', { class: cls, 'aria-label': label, title: label });
  for (const [value, text] of options) s.append(h('option', { value }, text));
  return s;
}

export class HistoryApp {
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly selected = new Set<string>();
  private total = 0;
  private shown = 0;
  /** Rows the host sent that are not drawn yet (ROWS_PER_FRAME per frame). */
  private pending: HistoryRow[] = [];
  private drawing = false;
  private searching = false;
  private readonly groups = new Map<string, HTMLElement>();
  readonly input = h('input', { type: 'search', class: 'history-search', placeholder: 'Search all chats', 'aria-label': 'Search all chats', spellcheck: 'false' });
  private readonly agent = select('Agent', 'history-agent', [['', 'All agents']]);
  private readonly folder = select('Workspace folder', 'history-folder', [['', 'All folders']]);
  private readonly date = select('Date', 'history-date', [
    ['any', 'Any time'],
    ['today', 'Today'],
    ['week', 'Past week'],
    ['month', 'Past month'],
    ['older', 'Older'],
  ]);
  private readonly state = select('State', 'history-state', [
    ['', 'Not archived'],
    ['running', 'Running'],
    ['needsYou', 'Needs you'],
    ['finished', 'Finished'],
    ['failed', 'Failed'],
    ['archived', 'Archived'],
  ]);
  private readonly unread = h('input', { type: 'checkbox', class: 'history-unread' });
  private readonly all = h('input', { type: 'checkbox', class: 'history-all' });
  private readonly allLabel = h('span', {}, 'Select all');
  private readonly status = h('div', { class: 'history-status', role: 'status', 'aria-live': 'polite' });
  private readonly list = h('ul', { class: 'history-list', 'aria-label': 'Chats' });
  private readonly actions = new Map<BulkAction, HTMLButtonElement>();
  private readonly agentSessions: AgentSessionsSection;

  constructor(
    root: HTMLElement,
    private readonly host: HistoryHost,
  ) {
    this.agentSessions = new AgentSessionsSection((m) => host.postMessage(m));
    const bulk = h('div', { class: 'history-bulk' }, h('label', { class: 'history-all-label' }, this.all, this.allLabel));
    for (const [action, text] of [
      ['archive', 'Archive'],
      ['unarchive', 'Unarchive'],
      ['delete', 'Delete…'],
      ['export', 'Export…'],
      ['markRead', 'Mark read'],
    ] as const) {
      const b = h('button', { type: 'button', class: `history-${action}`, disabled: true }, text);
      b.addEventListener('click', () => this.bulk(action));
      this.actions.set(action, b);
      bulk.append(b);
    }
    root.append(
      h(
        'div',
        { class: 'history-top' },
        this.input,
        h('div', { class: 'history-filters' }, this.agent, this.folder, this.date, this.state, h('label', { class: 'history-unread-label' }, this.unread, 'Unread')),
        bulk,
        this.status,
        this.agentSessions.element,
      ),
      this.list,
    );
    this.input.addEventListener('input', () => this.queryLater());
    for (const s of [this.agent, this.folder, this.date, this.state, this.unread]) s.addEventListener('change', () => this.query());
    this.all.addEventListener('change', () => {
      this.selected.clear();
      for (const c of this.list.querySelectorAll<HTMLInputElement>('input.history-pick')) c.checked = this.all.checked;
      this.updateBulk();
    });
    this.list.addEventListener('scroll', () => this.maybeMore());
    this.list.addEventListener('click', (e) => this.clicked(e));
    this.list.addEventListener('change', (e) => this.picked(e));
    window.addEventListener('message', (e: MessageEvent<HostToHistory>) => this.receive(e.data));
  }

  start(): void {
    this.host.postMessage({ type: 'ready' });
    this.query();
  }

  private filter(): HistoryFilter {
    const state = this.state.value;
    return {
      ...(this.agent.value ? { agent: this.agent.value } : {}),
      ...(this.folder.value ? { folder: this.folder.value } : {}),
      date: this.date.value as DateRange,
      ...(state ? { state: state as NonNullable<HistoryFilter['state']> } : {}),
      ...(this.unread.checked ? { unreadOnly: true } : {}),
    };
  }

  private queryLater(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.query(), TYPE_DELAY_MS);
  }

  query(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.seq++;
    this.all.checked = false;
    this.selected.clear();
    this.updateBulk();
    this.host.postMessage({ type: 'query', seq: this.seq, text: this.input.value, filter: this.filter() });
  }

  receive(m: HostToHistory): void {
    if (m.type === 'notice') {
      this.status.textContent = m.text;
      return;
    }
    if (m.type === 'agentSessions') return this.agentSessions.show(m);
    if (m.seq !== this.seq) return; // an answer to an older query
    this.choices(m.choices);
    if (m.type === 'list') {
      if (m.from === 0) this.clear();
      this.pending.push(...m.rows);
      this.drawSome();
      this.total = m.total;
      this.shown = m.from + m.rows.length;
      this.searching = false;
      this.status.textContent = m.total === 0 ? 'No chats.' : `${m.total} chat${m.total === 1 ? '' : 's'}`;
    } else {
      if (!this.searching) this.clear();
      this.searching = !m.done;
      for (const g of m.groups) this.group(g);
      const n = this.groups.size;
      this.status.textContent = `${m.done ? '' : 'Searching… '}${n} chat${n === 1 ? '' : 's'} match${n === 1 ? 'es' : ''}${m.note ? ` · ${m.note}` : ''}`;
      if (m.done) this.searching = false;
    }
    this.allLabel.textContent = m.type === 'list' ? `Select all ${m.total}` : `Select all ${this.groups.size} matching`;
    this.maybeMore();
  }

  /** Draws the next ROWS_PER_FRAME pending rows now, and the rest a batch a frame (`inFrame`: called in a frame's callback). */
  private drawSome(inFrame = false): void {
    const rows = this.pending.splice(0, ROWS_PER_FRAME);
    // A batch is one block, laid out and painted apart from the others (chat.css .history-batch): a batch
    // added to 900 rows costs what one added to 30 does.
    const batch = h('div', { class: 'history-batch', role: 'none' });
    for (const r of rows) batch.append(this.row(r, null));
    this.list.append(batch);
    if (this.pending.length === 0 || this.drawing) return;
    this.drawing = true;
    // The next batch in the next frame (this one shows the batch just drawn), one batch a frame after it.
    const next = () => {
      this.drawing = false;
      if (this.pending.length === 0) return;
      this.drawSome(true);
      this.maybeMore();
    };
    // A callback asked for in a frame's callback runs in the next frame.
    requestAnimationFrame(inFrame ? next : () => requestAnimationFrame(next));
  }

  private clear(): void {
    this.pending = [];
    this.list.replaceChildren();
    this.groups.clear();
    this.shown = 0;
    this.total = 0;
  }

  private choices(c: HistoryChoices): void {
    fill(
      this.agent,
      'All agents',
      c.agents.map((a) => [a.id, a.name]),
    );
    fill(
      this.folder,
      'All folders',
      c.folders.map((f) => [f, f]),
    );
  }

  private group(g: HistoryGroup): void {
    const item = this.row(g.row, g);
    const old = this.groups.get(g.row.chatId);
    if (old) old.replaceWith(item);
    else this.list.append(item);
    this.groups.set(g.row.chatId, item);
  }

  private row(r: HistoryRow, g: HistoryGroup | null): HTMLElement {
    return historyRow(r, g, this.all.checked || this.selected.has(r.chatId));
  }

  /** A row's title or match clicked: its chat opens (at that message). */
  private clicked(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target.closest<HTMLElement>('.history-title, .history-hit') : null;
    const chatId = target?.closest<HTMLElement>('.history-row')?.dataset['chatId'];
    if (!target || chatId === undefined) return;
    const key = target.classList.contains('history-hit') ? target.dataset['key'] : undefined;
    this.host.postMessage({ type: 'open', chatId, ...(key !== undefined ? { key } : {}) });
  }

  /** A row's box checked or unchecked. */
  private picked(e: Event): void {
    const pick = e.target instanceof HTMLInputElement && e.target.classList.contains('history-pick') ? e.target : undefined;
    const chatId = pick?.closest<HTMLElement>('.history-row')?.dataset['chatId'];
    if (!pick || chatId === undefined) return;
    if (pick.checked) this.selected.add(chatId);
    else {
      this.selected.delete(chatId);
      this.all.checked = false;
    }
    this.updateBulk();
  }

  private updateBulk(): void {
    const any = this.all.checked || this.selected.size > 0;
    for (const b of this.actions.values()) b.disabled = !any;
  }

  private bulk(action: BulkAction): void {
    this.host.postMessage({ type: 'bulk', action, chatIds: [...this.selected], all: this.all.checked });
  }

  /** The list grows as it is scrolled to its end. */
  private maybeMore(): void {
    if (this.searching || this.groups.size > 0 || this.pending.length > 0 || this.shown >= this.total) return;
    if (this.list.scrollTop + this.list.clientHeight < this.list.scrollHeight - 200) return;
    this.host.postMessage({ type: 'more', seq: this.seq, shown: this.shown });
    this.shown = this.total; // asked once; the answer sets it
  }
}

/** Replaces a select's options, keeping its value when still offered. */
function fill(s: HTMLSelectElement, none: string, options: readonly [string, string][]): void {
  const keep = s.value;
  const want = [['', none], ...options];
  if (s.options.length === want.length && want.every(([v, t], i) => s.options[i]?.value === v && s.options[i]?.textContent === t)) return;
  s.replaceChildren(...want.map(([v, t]) => h('option', { value: v ?? '' }, t ?? '')));
  s.value = want.some(([v]) => v === keep) ? keep : '';
}
