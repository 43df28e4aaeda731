/**
 * Everything around the transcript that comes from `PanelState`: the header (agent, turn state, mode
 * and config pickers, the context meter and its Compact action, search/export buttons), the plan,
 * notices, the error/exit banner with its next step, permission requests without a visible tool call,
 * and queued prompts.
 */
import type { PanelState, PermissionView, WebviewToHost } from '../src/common/webview/contract';
import { button, h, icon, inlineCode, keepFocus, onUserFold } from './dom';
import { contextMeter } from './contextMeter';
import { compactCommand } from '../src/common/webview/contextMeter';
import { toControl } from './configOptions';
import { modeConfigOption } from '../src/common/modes';
import { permissionCard } from './entries/permissionCard';
import { planFolds, type FoldState } from './planView';

const REMOTE_LABELS: Partial<Record<PanelState['turn'], string>> = { starting: 'Connecting…', exited: 'Offline' };
const TURN_LABELS: Record<PanelState['turn'], string> = {
  starting: 'Starting…',
  idle: 'Ready',
  busy: 'Working…',
  cancelling: 'Cancelling…',
  exited: 'Agent exited',
  error: 'Error',
};
/** A small panel or a large zoom: chrome folds so the conversation keeps its room (see chat.css). */
const SHORT_PANEL = window.matchMedia('(max-height: 600px)');

export class PanelView {
  readonly header = h('header', { class: 'panel-header' });
  readonly plan = h('section', { class: 'plan', 'aria-label': 'Plan' });
  // Focusable: in a short panel the notices scroll, and a scroller must be reachable by keyboard.
  readonly notices = h('section', { class: 'notices', 'aria-label': 'Notices', tabindex: 0 });
  readonly banner = h('div', { class: 'banner', role: 'alert' });
  readonly orphanPerms = h('section', { class: 'orphan-permissions', 'aria-label': 'Permission requests' });
  readonly queued = h('section', { class: 'queued', 'aria-label': 'Queued prompts' });
  /** Banner, orphan requests and queued prompts above the prompt box; hidden (no gap) when all are. */
  readonly footerNotes = h('div', { class: 'footer-notes' }, this.banner, this.orphanPerms, this.queued);
  private readonly agentName = h('span', { class: 'agent-name-text' });
  /** Where a remote agent runs: plain text (an origin), never a link. */
  private readonly agentOrigin = h('span', { class: 'agent-origin' });
  private readonly sessionTitle = h('span', { class: 'session-title' });
  private readonly turn = h('span', { class: 'turn' });
  private readonly readOnlyTag = h('span', { class: 'tag' }, 'read-only');
  private readonly titleRow = h('div', { class: 'title-row' });
  private readonly pickers = h('span', { class: 'pickers' });
  private readonly usage = h('span', { class: 'usage-slot' });
  private readonly controlsRow = h('div', { class: 'controls-row' }, this.pickers, h('span', { class: 'spacer' }), this.usage);
  private readonly searchButton = button('Search (Ctrl+F)', 'search', { class: 'icon-button' });
  private readonly exportButton = button('Export as Markdown', 'export', { class: 'icon-button' });
  /** A worktree chat's branch; a click asks the host for the worktree's actions. */
  private readonly worktreeChip = button('Worktree actions', 'git-branch', { class: 'worktree-chip' }, '');
  private readonly sigs = new Map<string, string>();
  /** Each plan's fold as the user left it; open unless the panel is short (a small panel or a large zoom). */
  private readonly planOpen: FoldState = new Map();
  /** The user's choice for the folded notices of a short panel (closed until they open it). */
  private noticesOpen = false;
  onSearch: () => void = () => {};
  /** Puts a prompt's text back into the prompt box (Edit on an undelivered prompt). */
  onEditPrompt: (text: string) => void = () => {};

  constructor(
    private readonly post: (m: WebviewToHost) => void,
    private readonly focusPrompt: () => void,
  ) {
    this.banner.hidden = true;
    // Built once and updated in place: a focused Search or Export button never loses focus to a re-render.
    this.titleRow.append(
      h('span', { class: 'agent-name' }, icon('sparkle'), this.agentName),
      this.agentOrigin,
      this.sessionTitle,
      this.worktreeChip,
      this.turn,
      this.readOnlyTag,
      h('span', { class: 'spacer' }),
      h('span', { class: 'header-buttons' }, this.searchButton, this.exportButton),
    );
    this.header.append(this.titleRow, this.controlsRow);
    this.searchButton.addEventListener('click', () => this.onSearch());
    this.exportButton.addEventListener('click', () => this.post({ type: 'exportMarkdown' }));
    this.worktreeChip.hidden = true;
    this.worktreeChip.addEventListener('click', () => this.post({ type: 'worktreeActions' }));
  }

  render(p: PanelState, orphans: readonly PermissionView[], answered: ReadonlySet<string>, protocolMismatch: string | null, oldestPermission: string | null): void {
    // The agent waits for the user while a permission or a question is open.
    this.renderHeader(p, oldestPermission !== null || (p.elicitations ?? []).length > 0);
    this.renderPlan(p);
    this.renderNotices(p);
    this.renderBanner(p, protocolMismatch);
    this.renderOrphans(orphans, answered, oldestPermission);
    this.renderQueued(p);
    this.footerNotes.hidden = this.banner.hidden && this.orphanPerms.hidden && this.queued.hidden;
  }

  private renderHeader(p: PanelState, waiting: boolean): void {
    if (this.changed('title', [p.agentName, p.agentOrigin, p.title, p.turn, p.readOnly, waiting])) this.renderTitle(p, waiting);
    if (this.changed('pickers', [p.availableModes, p.currentModeId, p.configOptions, p.readOnly])) this.renderPickers(p);
    if (this.changed('worktree', [p.worktree])) this.renderWorktree(p);
    const compact = p.readOnly ? null : compactCommand(p.availableCommands);
    if (this.changed('usage', [p.usage, compact]))
      keepFocus(
        this.usage,
        () => this.usage.replaceChildren(...contextMeter(p.usage, compact, this.post)),
        () => this.searchButton,
      );
    this.controlsRow.hidden = this.pickers.childElementCount === 0 && this.usage.childElementCount === 0;
  }

  /** Branch and folder as text (the chat's own names, but shown as text like everything else). */
  private renderWorktree(p: PanelState): void {
    const w = p.worktree;
    this.worktreeChip.hidden = !w;
    if (!w) return;
    const label = `${w.branch}${w.missing ? ' (worktree removed)' : ''}`;
    this.worktreeChip.querySelector('.label')!.textContent = label;
    this.worktreeChip.classList.toggle('missing', w.missing);
    this.worktreeChip.title = `Worktree ${w.path} on branch ${w.branch}${w.missing ? ': removed from outside ACP Chat, not recreated' : ''}. Click for Changes, Apply, Commit, Open Folder, Discard.`;
    this.worktreeChip.setAttribute('aria-label', `Worktree ${label}: actions`);
  }

  /** Turn changes are announced by the panel's one status region (Narrator), so this is plain text. */
  private renderTitle(p: PanelState, waiting: boolean): void {
    const busy = p.turn === 'busy' || p.turn === 'cancelling' || p.turn === 'starting';
    this.agentName.textContent = p.agentName;
    this.agentOrigin.hidden = !p.agentOrigin;
    this.agentOrigin.replaceChildren(...(p.agentOrigin ? [icon('remote'), p.agentOrigin] : []));
    this.agentOrigin.title = p.agentOrigin ? `${p.agentName} runs at ${p.agentOrigin}` : '';
    this.sessionTitle.hidden = !p.title;
    this.sessionTitle.replaceChildren(...inlineCode(p.title ?? ''));
    this.sessionTitle.title = p.title ?? '';
    this.readOnlyTag.hidden = !p.readOnly;
    // A pending permission must never look like a silent hang.
    this.turn.className = `turn turn-${waiting ? 'waiting' : p.turn}`;
    const spinner = busy && !waiting ? icon('loading') : null;
    spinner?.classList.add('codicon-modifier-spin');
    // A remote agent's link, not a process: connecting and offline (the banner says why, and when it reconnects).
    const label = (p.agentOrigin && REMOTE_LABELS[p.turn]) || TURN_LABELS[p.turn];
    this.turn.replaceChildren(...(waiting ? [icon('bell-dot'), 'Waiting for you'] : spinner ? [spinner, label] : [label]));
  }

  /** Rebuilt only when modes or options change, so an open dropdown is not closed by unrelated updates. */
  private renderPickers(p: PanelState): void {
    const controls: HTMLElement[] = [];
    // ACP: when an agent offers the mode both as legacy `modes` and as a config option, clients should
    // use the config option; showing both gives two pickers for one setting.
    const modeOption = modeConfigOption(p.configOptions, p.availableModes) !== undefined;
    if (p.availableModes.length && !modeOption) {
      const sel = h('select', { 'aria-label': 'Mode', class: 'mode-select', title: 'Mode', disabled: p.readOnly });
      for (const m of p.availableModes) sel.append(h('option', { value: m.id, title: m.description ?? null, selected: m.id === p.currentModeId }, m.name));
      sel.addEventListener('change', () => this.post({ type: 'setMode', modeId: sel.value }));
      controls.push(h('label', { class: 'picker' }, icon('symbol-enum'), sel));
    }
    for (const raw of p.configOptions) {
      const c = toControl(raw);
      if (!c) continue;
      if (c.type === 'select') {
        const sel = h('select', { 'aria-label': c.name, title: c.name, 'data-config-id': c.id, disabled: p.readOnly });
        for (const g of c.groups) {
          const parent = g.name ? h('optgroup', { label: g.name }) : sel;
          for (const o of g.choices) parent.append(h('option', { value: o.value, selected: o.value === c.value }, o.name));
          if (parent !== sel) sel.append(parent);
        }
        sel.addEventListener('change', () => this.post({ type: 'setConfigOption', configId: c.id, value: sel.value }));
        controls.push(h('label', { class: 'picker' }, sel));
      } else {
        const box = h('input', { type: 'checkbox', 'data-config-id': c.id, checked: c.value, disabled: p.readOnly });
        box.addEventListener('change', () => this.post({ type: 'setConfigOption', configId: c.id, value: box.checked }));
        controls.push(h('label', { class: 'picker toggle' }, box, c.name));
      }
    }
    keepFocus(
      this.pickers,
      () => this.pickers.replaceChildren(...controls),
      () => this.searchButton,
    );
  }

  /** True (and remembered) when a section's inputs differ from the last render. */
  private changed(part: string, inputs: unknown): boolean {
    const sig = JSON.stringify(inputs) ?? '';
    if (this.sigs.get(part) === sig) return false;
    this.sigs.set(part, sig);
    return true;
  }

  private renderPlan(p: PanelState): void {
    // An entry still "in progress" when no turn runs (a cancelled or failed turn) has stopped: no spinner.
    const live = p.turn === 'busy' || p.turn === 'starting' || p.turn === 'cancelling';
    if (!this.changed('plan', [p.plan, p.plans, live])) return;
    const folds = planFolds(p, live, this.planOpen, !SHORT_PANEL.matches);
    this.plan.hidden = folds.length === 0;
    keepFocus(
      this.plan,
      () => this.plan.replaceChildren(...folds),
      () => this.plan.querySelector('summary'),
    );
  }

  private renderNotices(p: PanelState): void {
    if (!this.changed('notices', p.notices)) return;
    // A notice about one entry is drawn on it (the transcript's), not here.
    const notices = p.notices.filter((n) => n.entryKey === undefined);
    this.notices.hidden = notices.length === 0;
    const items = notices.map((n) => this.noticeElement(n));
    const first = notices[0];
    if (!first || !SHORT_PANEL.matches) return this.notices.replaceChildren(...items);
    // A short panel folds the notices into one line (the first title), like the plan.
    const summary = h(
      'summary',
      { class: `notice notice-${first.severity}` },
      noticeIcon(first),
      h('strong', {}, first.title),
      notices.length > 1 ? ` · ${notices.length - 1} more` : null,
    );
    const details = h('details', { class: 'notices-fold', open: this.noticesOpen }, summary, ...items);
    onUserFold(details, (open) => (this.noticesOpen = open));
    keepFocus(
      this.notices,
      () => this.notices.replaceChildren(details),
      () => details.querySelector('summary'),
    );
  }

  /** One notice: icon, title, count, description and its buttons. */
  noticeElement(n: PanelState['notices'][number]): HTMLElement {
    const times = n.count && n.count > 1 ? h('span', { class: 'notice-count', title: `Received ${n.count} times` }, `×${n.count}`) : null;
    return h(
      'div',
      { class: `notice notice-${n.severity}` },
      noticeIcon(n),
      h('strong', {}, n.title),
      times,
      n.description ? h('span', { class: 'notice-desc' }, n.description) : null,
      this.noticeActions(n),
    );
  }

  /** The buttons of the client's own notices (a stall, a crash, an undelivered prompt). */
  private noticeActions(n: PanelState['notices'][number]): HTMLElement | null {
    if (!n.actions?.length) return null;
    return h(
      'span',
      { class: 'notice-actions' },
      ...n.actions.map((a) => {
        const b = button(a.label, null, { class: 'notice-action', 'data-action': a.id }, a.label);
        b.addEventListener('click', () => {
          // Edit is the webview's own: the prompt box gets the text back; the host only drops the offer.
          if (a.id === 'edit' && n.fill !== undefined) this.onEditPrompt(n.fill);
          this.post({ type: 'noticeAction', action: a.id });
        });
        return b;
      }),
    );
  }

  private renderBanner(p: PanelState, protocolMismatch: string | null): void {
    if (!this.changed('banner', [p.turn, p.message, protocolMismatch, p.missingAgent])) return;
    const failed = p.turn === 'exited' || p.turn === 'error';
    this.banner.hidden = !failed && !protocolMismatch;
    if (this.banner.hidden) return this.banner.replaceChildren();
    if (protocolMismatch) {
      this.banner.replaceChildren(icon('warning'), h('span', {}, protocolMismatch));
      return;
    }
    const text = h('span', { class: 'banner-text' }, p.message ?? (p.turn === 'exited' ? 'The agent exited.' : 'The agent reported an error.'));
    // An agent the settings do not name cannot be restarted: the way out is to configure it.
    const actions = p.missingAgent
      ? [this.configureButton('Add Agent…', 'add', 'primary'), this.configureButton('Open Settings', 'settings', 'secondary')]
      : [this.restartButton()];
    keepFocus(this.banner, () => this.banner.replaceChildren(icon('error'), text, ...actions));
  }

  private restartButton(): HTMLElement {
    const restart = button('Restart agent', 'debug-restart', { class: 'primary restart' }, 'Restart agent');
    restart.addEventListener('click', () => this.post({ type: 'restartAgent' }));
    return restart;
  }

  private configureButton(label: string, how: 'add' | 'settings', look: string): HTMLElement {
    const b = h('button', { type: 'button', class: `${look} configure-agent` }, label);
    b.addEventListener('click', () => this.post({ type: 'configureAgent', how }));
    return b;
  }

  private renderOrphans(orphans: readonly PermissionView[], answered: ReadonlySet<string>, oldest: string | null): void {
    const pending = orphans.filter((o) => !answered.has(o.requestId));
    if (!this.changed('orphans', [pending, oldest])) return;
    this.orphanPerms.hidden = pending.length === 0;
    keepFocus(
      this.orphanPerms,
      () => this.orphanPerms.replaceChildren(...pending.map((o) => permissionCard(o, this.post, o.requestId === oldest))),
      () => {
        this.focusPrompt();
        return null;
      },
    );
  }

  /**
   * Queued prompts, each with Edit, Move up, Move down and Remove (all buttons, so keyboard operable). Edit
   * turns the text into a field: Enter saves, Escape leaves it as it was. Actions name the prompt's id.
   */
  private renderQueued(p: PanelState): void {
    if (!this.changed('queued', p.queuedPrompts)) return;
    this.queued.hidden = p.queuedPrompts.length === 0;
    const n = p.queuedPrompts.length;
    // After "Remove", focus moves to the prompt now in that place (same index), else to the prompt box.
    const items = p.queuedPrompts.map((q, index) => {
      const label = q.note ? `${q.text} [${q.note}]`.trim() : q.text;
      const textEl = h('span', { class: 'queued-text', title: label }, label);
      const edit = button('Edit queued prompt', 'edit', { class: 'icon-button queued-edit', 'data-id': q.id });
      const up = button('Move queued prompt up', 'arrow-up', { class: 'icon-button queued-up', 'data-id': q.id });
      const down = button('Move queued prompt down', 'arrow-down', { class: 'icon-button queued-down', 'data-id': q.id });
      const remove = button('Remove queued prompt', 'close', { class: 'icon-button', 'data-index': index, 'data-id': q.id });
      up.disabled = index === 0;
      down.disabled = index === n - 1;
      up.addEventListener('click', () => this.post({ type: 'moveQueued', id: q.id, offset: -1 }));
      down.addEventListener('click', () => this.post({ type: 'moveQueued', id: q.id, offset: 1 }));
      remove.addEventListener('click', () => this.post({ type: 'removeQueued', id: q.id }));
      const row = h('div', { class: 'queued-item', 'data-id': q.id }, icon('clock'), textEl, edit, up, down, remove);
      edit.addEventListener('click', () => {
        const field = h('textarea', { class: 'queued-editor', 'aria-label': 'Edit queued prompt (Enter saves, Escape cancels)', rows: 3 });
        field.value = q.text;
        field.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            if (field.value.trim() !== q.text) this.post({ type: 'editQueued', id: q.id, text: field.value });
            field.replaceWith(textEl);
            edit.focus();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            field.replaceWith(textEl);
            edit.focus();
          }
        });
        textEl.replaceWith(field);
        field.focus();
      });
      return row;
    });
    const last = (): HTMLElement | null => this.queued.querySelector<HTMLElement>('.queued-item:last-child button');
    keepFocus(
      this.queued,
      () => this.queued.replaceChildren(...items),
      () => {
        const b = last();
        if (b) return b;
        this.focusPrompt();
        return null;
      },
    );
  }
}

function noticeIcon(n: PanelState['notices'][number]): HTMLElement {
  return icon(n.severity === 'error' ? 'error' : n.severity === 'warning' ? 'warning' : 'info');
}
