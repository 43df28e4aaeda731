/**
 * A tool call as a card: kind icon, title, status badge, locations, content (text, diff, terminal),
 * the agent's questions tied to it (drawn by their own views, see elicitationView.ts), pending permission
 * requests with their options, the steps a subagent took under it (toolSteps.ts; a step's card is drawn
 * there instead of in its own entry), and the raw input/output behind a toggle.
 * Cards are small, so a changed tool call redraws its card; open/closed toggles are kept.
 */
import type { DiffV1, DiffV2, ToolCallContent } from '../../src/common/protocol/content';
import { isDiffV2 } from '../../src/common/protocol/contentHelpers';
import type { ViewToolCall as ToolCallEntry } from '../../src/common/webview/viewEntry';
import type { PermissionView } from '../../src/common/webview/contract';
import { button, h, icon, inlineCode, keepFocus, onUserFold } from '../dom';
import { toolStatusLabel, toolTitle } from '../entryModel';
import { compactDiff, type DiffLine, diffStats, lineDiff, patchRows } from '../lineDiff';
import { diffBody, diffStat, formatSize, json, reviewBadge, withoutFinalNewline } from './toolCardParts';
import { shownPath, titleWithRelativePaths } from '../../src/common/webview/shownPath';
import { renderMarkdown } from '../markdown';
import { looksLikeMarkdown } from '../../src/common/toolOutput';
import { renderBlock } from './blocks';
import type { ElicitationView, QuestionHost } from './elicitationView';
import { EntryView } from './entryView';
import { ToolSteps } from './toolSteps';
import { permissionCard } from './permissionCard';
import { withoutToolsUsed } from '../../src/common/webview/subagentText';

const KIND_ICONS: Record<string, string> = {
  read: 'go-to-file',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'arrow-swap',
  other: 'tools',
};
const STATUS_ICONS: Record<string, string> = {
  pending: 'circle-large-outline',
  in_progress: 'loading',
  completed: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
  paused: 'debug-pause',
  rejected: 'circle-slash',
};

export class ToolCallView extends EntryView<ToolCallEntry> implements QuestionHost {
  // Made on first use: a card that is never built costs no elements.
  private cardValue: HTMLElement | null = null;
  private permSlotValue: HTMLElement | null = null;
  private questionSlotValue: HTMLElement | null = null;
  /** The questions drawn on this card, oldest first (their state is their entries'). */
  private questions: readonly ElicitationView[] = [];
  private perms: readonly PermissionView[] = [];
  private answered: ReadonlySet<string> = new Set();
  private rawOpen = false;
  /** The raw JSON the host sent for the summary it answered (`raw` stays a summary until the toggle opens). */
  private rawData: { readonly summary: string; readonly input: unknown; readonly output: unknown } | null = null;
  /** The summary a `getRaw` is outstanding for. */
  private rawAsked: string | null = null;
  /** What the permission slot shows now, so unrelated panel updates leave its buttons (and focus) alone. */
  private permSig = '';
  /** The tool calls drawn in this card as its steps, and the card this one is a step of. */
  private steps: readonly ToolCallView[] = [];
  private stepsValue: ToolSteps | null = null;
  private stepOf: ToolCallView | null = null;

  private get card(): HTMLElement {
    return (this.cardValue ??= h('div', { class: 'tool-card' }));
  }

  private get permSlot(): HTMLElement {
    return (this.permSlotValue ??= h('div', { class: 'permission-slot' }));
  }

  private get questionSlot(): HTMLElement {
    return (this.questionSlotValue ??= h('div', { class: 'question-slot' }));
  }

  /** The card: in this entry's element, or in the steps of the card this is a step of. */
  get drawing(): HTMLElement {
    return this.card;
  }

  override get shownEl(): HTMLElement {
    return this.stepOf ? this.card : this.el;
  }

  get awaiting(): boolean {
    return this.questions.some((q) => q.waiting) || this.perms.some((p) => !this.answered.has(p.requestId));
  }

  /** Draws this card as a step of `host` (null: back in its own entry). */
  setHost(host: ToolCallView | null): void {
    if (host === this.stepOf) return;
    this.stepOf = host;
    this.setDrawnIn(host);
    if (!host && this.hydrated) this.el.append(this.card);
  }

  /** The tool calls drawn in this card as steps, in arrival order; they are built with it. */
  setSteps(steps: readonly ToolCallView[]): void {
    if (steps.length === this.steps.length && steps.every((s, i) => s === this.steps[i])) return;
    this.steps = steps;
    if (!this.hydrated) return;
    for (const s of steps) s.hydrate();
    this.render();
  }

  protected build(): void {
    if (!this.stepOf) this.el.append(this.card);
    for (const s of this.steps) s.hydrate();
    this.render();
  }

  protected render(): void {
    const e = this.entry;
    const status = e.status || 'pending';
    const head = h(
      'div',
      { class: 'tool-head' },
      h('span', { class: 'tool-icon' }, icon(KIND_ICONS[e.toolKind] ?? 'tools')),
      h('span', { class: 'tool-title', title: e.title }, ...inlineCode(titleWithRelativePaths(toolTitle(e), this.ctx.roots()))),
      this.treeButton(),
      h('span', { class: `status status-${status}`, 'data-status': status }, icon(STATUS_ICONS[status] ?? 'circle-large-outline'), toolStatusLabel(status)),
      reviewBadge(this.ctx.cardReview(e.key)),
    );
    const parts: (HTMLElement | null)[] = [head];
    const command = e.command;
    if (command) parts.push(h('pre', { class: 'tool-command' }, h('code', {}, `$ ${command}`)));
    // A file whose diff the card shows is named there: not a second time as a location.
    const diffPaths = new Set(e.content.flatMap((c) => (c.type !== 'diff' ? [] : isDiffV2(c) ? c.changes.map((ch) => ch.path) : [c.path])));
    const locations = e.locations.filter((l) => !diffPaths.has(l.path));
    if (locations.length) {
      parts.push(
        h(
          'div',
          { class: 'tool-locations' },
          ...locations.map((l) =>
            h(
              'button',
              // Lines are 1-based; 0 (sent by some agents for "no line") is no line at all.
              { type: 'button', class: 'chip location', 'data-path': l.path, 'data-line': l.line ? l.line : null, title: `Open ${l.path}` },
              icon('file'),
              l.line ? `${shownPath(l.path, this.ctx.roots())}:${l.line}` : shownPath(l.path, this.ctx.roots()),
            ),
          ),
        ),
      );
    }
    if (this.steps.length) parts.push(this.renderSteps(status));
    e.content.forEach((c, i) => parts.push(this.renderContent(c, i)));
    parts.push(this.renderRawOutput());
    parts.push(this.questionSlot, this.permSlot);
    parts.push(this.renderRaw());
    // A patched card must not drop the focus of someone on "Open diff" or "Reject" to <body>.
    keepFocus(
      this.card,
      () => this.card.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null)),
      () => this.el,
    );
    this.card.dataset['status'] = status;
    this.renderPermissions();
  }

  private renderSteps(status: string): HTMLElement {
    const steps = (this.stepsValue ??= new ToolSteps());
    if (steps.size !== this.steps.length || this.steps.some((s) => !steps.el.contains(s.drawing))) steps.set(this.steps);
    steps.update(status === 'pending' || status === 'in_progress');
    return steps.el;
  }

  private renderContent(c: ToolCallContent, index: number): HTMLElement {
    switch (c.type) {
      case 'content':
        if (c.content.type === 'text') {
          // A subagent's result (legacy Agent call) starts with Claude's note of the tools it used: said plainly.
          const used = withoutToolsUsed([c.content]);
          if (used.toolsUsed.length && !used.content.length) return h('div', { class: 'subagent-tools-used' }, `Tools used: ${used.toolsUsed.join(', ')}`);
          // Tool text is mostly printed output: as a Markdown paragraph it would lose its line breaks.
          if (!looksLikeMarkdown(c.content.text)) return h('pre', { class: 'tool-content tool-output' }, withoutFinalNewline(c.content.text));
          const el = h('div', { class: 'tool-content markdown' });
          el.append(renderMarkdown(c.content.text));
          return el;
        }
        return h('div', { class: 'tool-content' }, renderBlock(c.content));
      case 'diff':
        return isDiffV2(c) ? this.renderDiffV2(c, index) : this.renderDiff(c, index);
      case 'terminal':
        return this.renderTerminal(c.terminalId);
      case 'unsupported':
        return h('div', { class: 'tool-content' }, renderBlock(c));
    }
  }

  /** v2 draft diff, shown like a v1 diff: the changed files, line counts, Open diff, and the patch's rows. */
  private renderDiffV2(c: DiffV2, index: number): HTMLElement {
    const rows = patchRows(c.patch?.text ?? '');
    const { added, removed } = diffStats(rows.filter((r): r is DiffLine => r.t !== 'hunk' && r.t !== 'skip'));
    const head = h('div', { class: 'diff-head' });
    for (const ch of c.changes) {
      head.append(
        h('button', { type: 'button', class: 'diff-path location', 'data-path': ch.path, title: `${ch.operation} ${ch.path}` }, icon('file'), shownPath(ch.path, this.ctx.roots())),
      );
      if (ch.operation !== 'modify') head.append(h('span', { class: 'tag' }, ch.operation === 'add' ? 'new file' : ch.operation));
    }
    if (!c.patch) return h('div', { class: 'tool-diff' }, head);
    head.append(diffStat(added, removed), this.openDiffButton(index));
    return h('div', { class: 'tool-diff' }, head, diffBody(rows, 'Changes'));
  }

  private renderDiff(c: DiffV1, index: number): HTMLElement {
    const lines = lineDiff(c.oldText ?? '', c.newText);
    const { added, removed } = diffStats(lines);
    return h(
      'div',
      { class: 'tool-diff' },
      h(
        'div',
        { class: 'diff-head' },
        h('button', { type: 'button', class: 'diff-path location', 'data-path': c.path, title: c.path }, icon('file'), shownPath(c.path, this.ctx.roots())),
        diffStat(added, removed),
        c.oldText === null || c.oldText === undefined ? h('span', { class: 'tag' }, 'new file') : null,
        this.openDiffButton(index),
      ),
      diffBody(compactDiff(lines), `Diff of ${c.path}`),
    );
  }

  private openDiffButton(index: number): HTMLElement {
    const open = button('Open diff', 'diff', { class: 'open-diff', 'data-index': index }, 'Open diff');
    open.addEventListener('click', () => this.ctx.post({ type: 'openDiff', key: this.entry.key, index }));
    return open;
  }

  /**
   * Live output: from the terminal the client runs for the agent (`terminal/create`), else from the
   * `_meta.terminal_output` extension some agents send (`{terminal_id, data}`), else a placeholder.
   */
  private renderTerminal(terminalId: string): HTMLElement {
    const live = this.ctx.terminal(terminalId);
    const metaData = this.entry.metaTerminal?.data ?? '';
    const metaCode = this.entry.metaTerminal?.exitCode;
    const data = live?.output || metaData;
    const code = live?.exited ? live.exitCode : metaCode;
    const signal = live?.exited ? live.signal : null;
    const running = live ? !live.exited : this.entry.status === 'in_progress';
    return h(
      'div',
      { class: 'tool-terminal', 'data-terminal-id': terminalId },
      h(
        'div',
        // The agent's terminal id is for machines: a tooltip, not the label (the card shows the command).
        { class: 'terminal-head', title: `Terminal ${terminalId}` },
        icon('terminal'),
        'Terminal',
        typeof code === 'number' ? h('span', { class: 'tag' }, `exit ${code}`) : signal ? h('span', { class: 'tag' }, signal) : null,
      ),
      h('pre', { class: 'terminal-output' }, data || (running ? 'Running…' : '(no output)')),
    );
  }

  /**
   * Output the agent put only in `rawOutput` (Codex's shell runs), shown like a terminal when it has a
   * known shape and the card shows no output of its own (a diff stands for an edit's result).
   */
  private renderRawOutput(): HTMLElement | null {
    // The host sends `output` only when the card should show it (see viewEntry.ts).
    const out = this.entry.output;
    if (!out) return null;
    return h(
      'div',
      { class: 'tool-terminal tool-raw-output' },
      h('div', { class: 'terminal-head' }, icon('output'), 'Output', out.exitCode !== null ? h('span', { class: 'tag' }, `exit ${out.exitCode}`) : null),
      h('pre', { class: 'terminal-output' }, withoutFinalNewline(out.text) || '(no output)'),
    );
  }

  private treeButton(): HTMLElement {
    const b = button('Show in Message Tree', 'list-tree', { class: 'icon-button show-in-tree' });
    b.addEventListener('click', () => this.ctx.post({ type: 'revealInTree', key: this.entry.key }));
    return b;
  }

  private renderRaw(): HTMLElement | null {
    const summary = this.entry.raw;
    if (!summary) return null;
    const size = (summary.input ?? 0) + (summary.output ?? 0);
    const details = h('details', { class: 'tool-raw' }, h('summary', {}, 'Raw input / output', h('span', { class: 'raw-size' }, ` · ${formatSize(size)}`)));
    // The JSON stays on the host until someone looks at it; then it is asked for and shown when it comes.
    const sig = JSON.stringify(summary);
    const fill = (): void => {
      if (details.childElementCount > 1) return;
      const data = this.rawData?.summary === sig ? this.rawData : null;
      if (!data) {
        details.append(h('div', { class: 'raw-loading' }, 'Loading…'));
        if (this.rawAsked !== sig) {
          this.rawAsked = sig;
          this.ctx.post({ type: 'getRaw', key: this.entry.key });
        }
        return;
      }
      if (data.input !== undefined && data.input !== null) details.append(h('div', { class: 'raw-label' }, 'Input'), h('pre', {}, json(data.input)));
      if (data.output !== undefined && data.output !== null) details.append(h('div', { class: 'raw-label' }, 'Output'), h('pre', {}, json(data.output)));
    };
    onUserFold(details, (open) => (this.rawOpen = open));
    details.addEventListener('toggle', () => {
      if (details.open) fill();
    });
    if (this.rawOpen) {
      details.open = true;
      fill();
    }
    return details;
  }

  /** The host's answer to `getRaw`: shown if the toggle is still open on the same raw data. */
  setRaw(raw: { readonly input: unknown; readonly output: unknown } | null): void {
    const sig = JSON.stringify(this.entry.raw ?? null);
    if (this.rawAsked !== sig) return; // the raw data changed since; a newer request is out or will be
    this.rawAsked = null;
    this.rawData = { summary: sig, input: raw?.input ?? null, output: raw?.output ?? null };
    if (!this.hydrated) return;
    const details = this.card.querySelector<HTMLDetailsElement>(':scope > details.tool-raw');
    if (!details) return;
    // Rebuild the toggle's body in place (keeps the open state and the focus on its summary).
    for (const el of Array.from(details.children)) if (el.tagName !== 'SUMMARY') el.remove();
    if (details.open) details.dispatchEvent(new Event('toggle'));
  }

  /** The questions drawn on this card; their bodies move into it (and keep what is typed in them). */
  setQuestions(questions: readonly ElicitationView[]): void {
    if (questions.length === this.questions.length && questions.every((q, i) => q === this.questions[i])) return;
    this.questions = questions;
    const slot = this.questionSlot;
    keepFocus(
      slot,
      () => slot.replaceChildren(...questions.map((q) => q.body)),
      () => this.el,
    );
    this.questionsChanged();
  }

  questionsChanged(): void {
    this.showAwaiting();
  }

  /** A card waiting for the user is marked (in a step, on the step's card), and opens the steps it is in. */
  private showAwaiting(): void {
    const awaiting = this.awaiting || this.steps.some((s) => s.awaiting);
    this.el.classList.toggle('awaiting', awaiting);
    if (this.cardValue) this.cardValue.classList.toggle('awaiting', awaiting);
    if (this.hydrated && this.stepsValue) this.stepsValue.update(this.entry.status === 'pending' || this.entry.status === 'in_progress');
    this.stepOf?.showAwaiting();
  }

  override setPermissions(perms: readonly PermissionView[], answered: ReadonlySet<string>): void {
    this.perms = perms;
    this.answered = answered;
    if (this.hydrated) this.renderPermissions();
  }

  private renderPermissions(): void {
    const pending = this.perms.filter((p) => !this.answered.has(p.requestId));
    this.showAwaiting();
    const oldest = this.ctx.oldestPermission();
    const sig = JSON.stringify([pending, oldest]);
    if (sig === this.permSig) return;
    this.permSig = sig;
    // A request answered elsewhere (a rule, a cancel) takes its buttons away: focus stays on this entry.
    keepFocus(
      this.permSlot,
      () => this.permSlot.replaceChildren(...pending.map((p) => permissionCard(p, this.ctx.post.bind(this.ctx), p.requestId === oldest))),
      () => this.el,
    );
  }
}
