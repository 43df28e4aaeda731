/**
 * Notices about one transcript entry (`Notice.entryKey`: a prompt that was not delivered), drawn right
 * below that entry, with their buttons, instead of above the transcript. Placed again after every panel
 * change (a snapshot rebuilds the list); there are at most a few.
 */
import type { Notice } from '../src/common/notices';

export class EntryNotices {
  private shown: HTMLElement[] = [];

  constructor(
    private readonly element: (n: Notice) => HTMLElement,
    private readonly placeAfter: (el: HTMLElement, key: string) => void,
  ) {}

  private last: readonly Notice[] | undefined;

  render(notices: readonly Notice[]): void {
    const mine = notices.filter((n) => n.entryKey !== undefined);
    if (notices !== this.last) {
      this.last = notices;
      for (const el of this.shown) el.remove();
      this.shown = mine.map((n) => {
        const el = this.element(n);
        el.classList.add('entry-notice');
        el.dataset['entryNotice'] = n.entryKey;
        return el;
      });
    }
    mine.forEach((n, i) => {
      const el = this.shown[i];
      if (el && n.entryKey !== undefined && !el.isConnected) this.placeAfter(el, n.entryKey);
    });
  }
}
