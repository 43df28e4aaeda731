/**
 * "Jump to latest": shown when new entries arrive while the user reads further up (the view is not
 * following the bottom), gone once they are back at the bottom. A real button (in the tab order, named),
 * said once through the panel's live region when it appears. It reacts to events only (an insert, the
 * pin changing): nothing runs while the chat is at rest.
 */
import { h, icon } from './dom';

export class JumpToLatest {
  readonly el: HTMLButtonElement;

  constructor(
    jump: () => void,
    private readonly say: (text: string) => void,
    /** Where focus goes when the button it was on disappears (the conversation). */
    private readonly focusAfter: () => void,
  ) {
    this.el = h('button', { class: 'jump-latest secondary', type: 'button', hidden: true, 'data-testid': 'jump-latest' }, icon('arrow-down'), ' Jump to latest') as HTMLButtonElement;
    this.el.addEventListener('click', () => {
      this.hide();
      jump();
    });
  }

  get shown(): boolean {
    return !this.el.hidden;
  }

  /** New entries arrived below the view the user is reading. */
  newBelow(): void {
    if (this.shown) return;
    this.el.hidden = false;
    this.say('New messages below. Jump to latest is available');
  }

  hide(): void {
    if (!this.shown) return;
    const hadFocus = document.activeElement === this.el;
    this.el.hidden = true;
    // A hidden button loses focus to the page: keep it in the conversation instead.
    if (hadFocus) this.focusAfter();
  }
}
