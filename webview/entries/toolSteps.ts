/**
 * A tool call's steps: the tool calls a subagent made under it, reported flat on the parent session by an
 * agent without the subagents capability and linked only by `parentToolCallId` (subagentPlacement.ts). They
 * are drawn inside the card as one "N steps" group, in the order they came. Each step stays a ToolCallView of
 * its own whose card moves in here, so its permissions, terminal output and search work as on any card.
 * Open while the work goes on or a step waits for the user; closed once done, unless the user chose.
 */
import { h, icon, onUserFold } from '../dom';

/** What the group needs of a step's view. */
export interface Step {
  /** The step's card. */
  readonly drawing: HTMLElement;
  /** Whether the step waits for the user (a permission or a question on it). */
  readonly awaiting: boolean;
}

export class ToolSteps {
  private readonly count = h('span', { class: 'tool-steps-count' });
  private readonly list = h('div', { class: 'tool-steps-list' });
  readonly el: HTMLDetailsElement = h('details', { class: 'tool-steps' }, h('summary', {}, icon('type-hierarchy-sub'), this.count), this.list);
  private steps: readonly Step[] = [];
  private userToggled = false;
  /** The open state we set last; a toggle showing anything else came from the user. */
  private expectedOpen = false;

  constructor() {
    onUserFold(
      this.el,
      () => (this.userToggled = true),
      () => this.expectedOpen,
    );
  }

  get size(): number {
    return this.steps.length;
  }

  set(steps: readonly Step[]): void {
    this.steps = steps;
    this.count.textContent = steps.length === 1 ? '1 step' : `${steps.length} steps`;
    this.list.replaceChildren(...steps.map((s) => s.drawing));
  }

  /** Opens or closes the group for the card's state: `working` while its tool call runs. */
  update(working: boolean): void {
    const waiting = this.steps.some((s) => s.awaiting);
    if (this.userToggled && !waiting) return;
    const open = working || waiting;
    if (this.el.open === open) return;
    this.expectedOpen = open;
    this.el.open = open;
  }
}
