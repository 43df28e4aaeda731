/**
 * "Jump to latest": shown whenever the view is not at the bottom (the user reads further up, or was taken
 * to an entry), gone once it is back there: a way back is always there, not only when something new
 * arrived. A real button (in the tab order, named), said through the panel's live region once new entries
 * arrive below. It reacts to events only (an insert, the pin changing): nothing runs while the chat is at rest.
 */
import { h, icon } from './dom';

export class JumpToLatest {
  readonly el: HTMLButtonElement;
  private announced = false;

  constructor(
    jump: () => void,
    private readonly say: (text: string) => void,
    /** Where focus goes when the button it was on disappears (the conversation). */
    private readonly focusAfter: () => void,
  ) {
    this.el = h(
      'button',
      { class: 'jump-latest secondary', type: 'button', hidden: true, 'data-testid': 'jump-latest' },
      icon('arrow-down'),
      ' Jump to latest',
    ) as HTMLButtonElement;
    this.el.addEventListener('click', () => {
      this.hide();
      jump();
    });
  }

  get shown(): boolean {
    return !this.el.hidden;
  }

  /** The view left the bottom: the way back is there, silently (the user moved it). */
  away(): void {
    this.el.hidden = false;
  }

  /** New entries arrived below the view the user is reading: said once while the view is away. */
  newBelow(): void {
    this.el.hidden = false;
    if (this.announced) return;
    this.announced = true;
    this.say('New messages below. Jump to latest is available');
  }

  hide(): void {
    this.announced = false;
    if (!this.shown) return;
    const hadFocus = document.activeElement === this.el;
    this.el.hidden = true;
    // A hidden button loses focus to the page: keep it in the conversation instead.
    if (hadFocus) this.focusAfter();
  }
}
