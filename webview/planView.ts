/**
 * The plans above the transcript: the single v1 `plan`, then the agent's plans by id (unstable
 * `plan_update`: a checklist, Markdown, or a file to open), each its own fold, each gone when the agent
 * removes it. Agent text: Markdown through the panel's allowlisting renderer, everything else as text.
 */
import type { PanelState } from '../src/common/webview/contract';
import type { PlanEntry } from '../src/common/store/model';
import { h, icon, onUserFold } from './dom';
import { renderMarkdown } from './markdown';

const PLAN_ICONS: Record<string, string> = { pending: 'circle-large-outline', in_progress: 'loading', completed: 'pass-filled' };

/** A fold's open state, kept per plan across renders (the user's choice wins). */
export type FoldState = Map<string, boolean>;

/**
 * One fold per plan; `live`: a turn runs (an entry in progress spins, else it has stopped). A finished
 * plan (every item done, or its turn over) is folded to its one-line summary unless the user opened it:
 * it would otherwise keep a tenth of the window (a third of the side bar) for what is done.
 */
export function planFolds(p: PanelState, live: boolean, open: FoldState, openByDefault: boolean): HTMLElement[] {
  const out: HTMLElement[] = [];
  const fold = (id: string, summary: (HTMLElement | string)[], body: HTMLElement, finished: boolean) => {
    let shown = open.get(id) ?? (openByDefault && !finished);
    const details = h('details', { class: 'plan-fold', 'data-plan-id': id, open: shown }, h('summary', {}, ...summary), body);
    // A toggle event also follows the open state set here: only a change from it is the user's choice.
    onUserFold(
      details,
      (value) => {
        if (value === shown) return;
        shown = value;
        open.set(id, shown);
      },
      () => shown,
    );
    out.push(details);
  };
  const itemsFold = (id: string, label: string, entries: readonly PlanEntry[]) => {
    const done = entries.filter((e) => e.status === 'completed').length;
    const all = done === entries.length;
    // Not all done and no turn runs: the rest was stopped (a cancel, an interrupted turn), not still to come.
    const state = all ? '' : live ? '' : ' · stopped';
    fold(id, [icon('checklist'), `${label} · ${done}/${entries.length} done${state}`], itemList(entries, live), all || !live);
  };
  if (p.plan?.length) itemsFold('', 'Plan', p.plan);
  const named = p.plans ?? [];
  named.forEach((plan, i) => {
    // Several plans are told apart by their place; the id is the agent's and says nothing to the user.
    const label = named.length + (p.plan?.length ? 1 : 0) > 1 ? `Plan ${i + 1}` : 'Plan';
    const id = `id:${plan.planId}`;
    if (plan.type === 'items') itemsFold(id, label, plan.entries);
    else if (plan.type === 'markdown') fold(id, [icon('book'), label], h('div', { class: 'plan-markdown markdown' }, renderMarkdown(plan.content)), !live);
    else fold(id, [icon('file'), `${label} · in a file`], h('p', { class: 'plan-file' }, h('a', { href: plan.uri, title: plan.uri }, fileName(plan.uri))), !live);
  });
  return out;
}

function itemList(entries: readonly PlanEntry[], live: boolean): HTMLElement {
  const list = h('ol', { class: 'plan-list' });
  for (const e of entries) {
    const stopped = e.status === 'in_progress' && !live;
    const ic = icon(stopped ? 'debug-stop' : (PLAN_ICONS[e.status] ?? 'circle-large-outline'));
    if (e.status === 'in_progress' && live) ic.classList.add('codicon-modifier-spin');
    const cls = `plan-item plan-${e.status}${stopped ? ' plan-stopped' : ''}`;
    list.append(
      h(
        'li',
        { class: cls, 'data-status': stopped ? 'stopped' : e.status, title: stopped ? 'Stopped: the turn ended before this step finished' : null },
        ic,
        h('span', { class: 'plan-text' }, e.content),
        e.priority === 'high' ? h('span', { class: 'tag' }, 'high') : null,
      ),
    );
  }
  return list;
}

/** The last segment of a URI or path, for the link's text (the whole URI is its title). */
function fileName(uri: string): string {
  const last =
    uri
      .split(/[/\\]/)
      .filter((s) => s !== '')
      .at(-1) ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
