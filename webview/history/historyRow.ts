/**
 * One chat's row in the History view (a chat of the list, or a search's group with its matches). Rows are
 * clones of one template filled with text nodes (agent strings are never markup), with no listeners of
 * their own: the list handles clicks and checks for all of them (HistoryApp). Building 200 rows with an
 * element builder and three listeners each took most of a page's 30 ms (bench/historyWebview.bench.mjs).
 */
import type { HistoryGroup, HistoryRow } from '../../src/common/history/historyContract';
import { h } from '../dom';

/**
 * A row's time as `Date.toLocaleString()` writes it, from one formatter: toLocaleString builds its formatter
 * on every call, a large part of drawing a page of 200 rows.
 */
const WHEN = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
const STATE_LABEL: Record<HistoryRow['state'], string> = { running: 'running', needsYou: 'needs you', finished: 'finished', failed: 'failed', archived: 'archived', idle: '' };
const KIND_LABEL: Record<string, string> = {
  user: 'you',
  agent: 'agent',
  thought: 'thought',
  tool: 'tool',
  path: 'file',
  question: 'question',
  subagent: 'subagent',
  compaction: 'summary',
};

let template: HTMLLIElement | undefined;
const rowTemplate = (): HTMLLIElement =>
  (template ??= h(
    'li',
    { class: 'history-row' },
    h('div', { class: 'history-head' }, h('input', { type: 'checkbox', class: 'history-pick' }), h('button', { type: 'button', class: 'history-title' })),
    h('div', { class: 'history-meta' }),
  ));

/** The row of `r` (with `g`'s matches under it), its box checked when `checked`. */
export function historyRow(r: HistoryRow, g: HistoryGroup | null, checked: boolean): HTMLLIElement {
  const li = rowTemplate().cloneNode(true) as HTMLLIElement;
  li.className = `history-row state-${r.state}${r.unread ? ' unread' : ''}`;
  li.dataset['chatId'] = r.chatId;
  const head = li.firstElementChild as HTMLElement;
  const pick = head.firstElementChild as HTMLInputElement;
  pick.setAttribute('aria-label', `Select ${r.title}`);
  pick.checked = checked;
  const open = head.lastElementChild as HTMLButtonElement;
  open.title = r.title;
  if (r.unread) open.append(h('span', { class: 'history-dot', 'aria-label': 'unread' }, '●'));
  open.append(r.title);
  const when = r.updatedAt ? WHEN.format(r.updatedAt) : '';
  const folder = r.folder ? (r.folder.split(/[\\/]/).filter(Boolean).at(-1) ?? r.folder) : '';
  (li.lastElementChild as HTMLElement).textContent = [r.agent, STATE_LABEL[r.state], when, folder].filter(Boolean).join(' · ');
  if (g) li.append(hitList(g));
  return li;
}

function hitList(g: HistoryGroup): HTMLElement {
  const hits = h('ul', { class: 'history-hits' });
  for (const hit of g.hits) {
    const before = hit.snippet.slice(0, hit.start);
    const match = hit.snippet.slice(hit.start, hit.start + hit.length);
    const after = hit.snippet.slice(hit.start + hit.length);
    const b = h(
      'button',
      { type: 'button', class: 'history-hit', 'data-key': hit.key },
      h('span', { class: 'history-kind' }, KIND_LABEL[hit.kind] ?? hit.kind),
      before,
      h('mark', {}, match),
      after,
    );
    hits.append(h('li', {}, b));
  }
  return hits;
}
