/**
 * The "Changes" summary after a turn that edited files: one block per turn, placed after the turn's last
 * entry, listing each file with Open diff, Keep and Undo, and Keep All / Undo All for the block. Paths
 * and notes come from the agent (and the host's explanations of them) and are shown as text only.
 * The host owns the state; clicks post `changes` messages and the host answers with `changeSet` ops.
 * The tool cards that made a change show what review made of it (toolCards.ts), redrawn when that moves;
 * a set marked `cardsOnly` (a subagent's own tab) is shown on the cards alone.
 */
import type { ChangeSetView, FileChangeView } from '../src/common/changes/view';
import type { WebviewToHost } from '../src/common/webview/contract';
import { cardReviews, type CardReview } from '../src/common/changes/toolCards';
import { button, h, icon, keepFocus } from './dom';
import type { Transcript } from './transcript';

type Action = 'openDiff' | 'keep' | 'undo' | 'review';

const STATE_LABELS: Record<FileChangeView['state'], string> = {
  pending: '',
  kept: 'Kept',
  undone: 'Undone',
  conflict: 'Changed since',
};

export interface ChangesHost {
  post(m: WebviewToHost): void;
  /** Places a block after an entry. */
  readonly transcript: Pick<Transcript, 'placeAfter'>;
  /** Where cards are drawn: the chat's transcript and the subagents' expanded in their cards (a moved card is redrawn there). */
  transcripts(): readonly Pick<Transcript, 'view' | 'replace'>[];
  /** Says something in the panel's status region. */
  say(text: string): void;
}

export class ChangesView {
  private readonly blocks = new Map<string, { view: ChangeSetView; el: HTMLElement }>();
  /** The tool cards' review states, derived from the blocks' views (kept to redraw only the cards that moved). */
  private cards = new Map<string, CardReview>();

  constructor(private readonly host: ChangesHost) {}

  /** A snapshot: every block rebuilt and placed again (the transcript's list was rebuilt). */
  reset(sets: readonly ChangeSetView[]): void {
    for (const b of this.blocks.values()) b.el.remove();
    this.blocks.clear();
    for (const set of sets) this.add(set);
    this.cardsChanged();
  }

  /** What review made of the change a tool card made (undefined: nothing reviewed yet, or it made none). */
  cardReview(key: string): CardReview | undefined {
    return this.cards.get(key);
  }

  private cardsChanged(): void {
    const before = this.cards;
    this.cards = cardReviews([...this.blocks.values()].map((b) => b.view));
    for (const key of new Set([...before.keys(), ...this.cards.keys()])) {
      if (before.get(key)?.label === this.cards.get(key)?.label) continue;
      for (const t of this.host.transcripts()) {
        const v = t.view(key);
        if (v) t.replace(v.entry);
      }
    }
  }

  /** A `changeSet` op: a new block is announced; a changed one is redrawn in place, keeping focus. */
  upsert(id: string, set: ChangeSetView | null): void {
    const block = this.blocks.get(id);
    if (!set) {
      block?.el.remove();
      this.blocks.delete(id);
      return this.cardsChanged();
    }
    if (!block) {
      this.add(set);
      this.cardsChanged();
      if (set.cardsOnly) return;
      const n = set.files.length;
      this.host.say(`Changes: ${n} file${n === 1 ? '' : 's'} edited in this turn. Review them in the Changes summary`);
      return;
    }
    if (!set.cardsOnly) this.announce(block.view, set);
    block.view = set;
    // A pressed Undo or Keep is gone after the redraw: focus stays on that file's row (its next control).
    const active = document.activeElement;
    const row = active instanceof HTMLElement && block.el.contains(active) ? active.closest<HTMLElement>('[data-file-index]')?.dataset['fileIndex'] : undefined;
    const fallback = () =>
      (row !== undefined ? block.el.querySelector<HTMLElement>(`[data-file-index="${row}"] button`) : null) ?? block.el.querySelector<HTMLElement>('button') ?? block.el;
    keepFocus(block.el, () => this.render(block.el, set), fallback);
    if (!set.cardsOnly && block.el.dataset['after'] !== (set.afterKey ?? '')) this.placeBlock(block.el, set.afterKey);
    this.cardsChanged();
  }

  private add(set: ChangeSetView): void {
    const el = h('section', { class: 'changes', 'data-set-id': set.id, tabindex: -1 });
    el.addEventListener('click', (e) => this.onClick(set.id, e));
    this.render(el, set);
    this.blocks.set(set.id, { view: set, el });
    if (!set.cardsOnly) this.placeBlock(el, set.afterKey);
  }

  private placeBlock(el: HTMLElement, afterKey: string | null): void {
    el.dataset['after'] = afterKey ?? '';
    this.host.transcript.placeAfter(el, afterKey);
  }

  /** What changed in each file, said once (Undo's result, or why it left the file alone). */
  private announce(before: ChangeSetView, after: ChangeSetView): void {
    after.files.forEach((f, i) => {
      const was = before.files[i];
      if (!was || (was.state === f.state && was.note === f.note)) return;
      if (f.state === 'conflict') this.host.say(f.note ?? `${f.path} changed since the agent's edit`);
      else if (f.state !== 'pending') this.host.say(`${f.path}: ${STATE_LABELS[f.state].toLowerCase()}`);
    });
  }

  private render(el: HTMLElement, set: ChangeSetView): void {
    const open = set.files.filter((f) => f.state === 'pending' || f.state === 'conflict');
    const undoable = open.filter((f) => f.canUndo);
    const n = set.files.length;
    el.setAttribute('aria-label', `Changes: ${n} file${n === 1 ? '' : 's'}`);
    const head = h(
      'div',
      { class: 'changes-head' },
      icon('diff-multiple'),
      h('strong', {}, 'Changes'),
      h('span', { class: 'changes-count' }, `${n} file${n === 1 ? '' : 's'}${open.length && open.length < n ? `, ${open.length} to review` : ''}`),
      h(
        'span',
        { class: 'change-buttons' },
        open.length ? this.action('Keep all changes', 'check-all', 'keep', null, 'Keep All') : null,
        undoable.length ? this.action('Undo all changes', 'discard', 'undo', null, 'Undo All') : null,
      ),
    );
    const list = h('ul', { class: 'changes-files' }, ...set.files.map((f, i) => this.row(f, i)));
    el.replaceChildren(head, list);
  }

  private row(f: FileChangeView, index: number): HTMLElement {
    const open = f.state === 'pending' || f.state === 'conflict';
    const state = STATE_LABELS[f.state];
    return h(
      'li',
      { class: `change-row change-${f.state}`, 'data-file-index': index, 'data-state': f.state },
      h(
        'div',
        { class: 'change-line' },
        icon(f.created ? 'new-file' : 'file'),
        h('span', { class: 'change-path', title: f.path }, f.path),
        f.added !== null && f.removed !== null
          ? h('span', { class: 'diff-stat' }, h('span', { class: 'added' }, `+${f.added}`), ' ', h('span', { class: 'removed' }, `−${f.removed}`))
          : null,
        f.created ? h('span', { class: 'tag' }, 'new file') : null,
        state ? h('span', { class: `change-state` }, state) : null,
        // One group, so a narrow panel moves the buttons to the next line together.
        h(
          'span',
          { class: 'change-buttons' },
          f.canDiff ? this.action(`Open diff of ${f.path}`, 'diff', 'openDiff', index, 'Open diff') : null,
          f.canUndo && f.canDiff ? this.action(`Review ${f.path} hunk by hunk in the editor`, 'eye', 'review', index, 'Review') : null,
          open ? this.action(`Keep ${f.path}`, 'check', 'keep', index, 'Keep') : null,
          f.canUndo ? this.action(`Undo ${f.path}`, 'discard', 'undo', index, 'Undo') : null,
        ),
      ),
      f.note && open ? h('div', { class: 'change-note' }, icon(f.state === 'conflict' ? 'warning' : 'info'), h('span', {}, f.note)) : null,
    );
  }

  private action(label: string, iconName: string, action: Action, index: number | null, text: string): HTMLButtonElement {
    return button(
      label,
      iconName,
      { class: 'secondary change-action', 'data-change-action': action, 'data-change-index': index ?? 'all', 'data-focus-id': `${action}:${index ?? 'all'}` },
      text,
    );
  }

  private onClick(setId: string, e: MouseEvent): void {
    const b = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-change-action]') : null;
    if (!b) return;
    const action = b.dataset['changeAction'] as Action;
    const at = b.dataset['changeIndex'];
    this.host.post({ type: 'changes', setId, index: at === 'all' || at === undefined ? null : Number(at), action });
  }
}
