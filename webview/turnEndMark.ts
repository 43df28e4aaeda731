/**
 * The inline mark after a turn that did not finish: *Cancelled* (Esc, Cancel) or *Interrupted* (the agent
 * stopped, or the window reloaded, while it ran), right where the cut answer ends, until the next turn
 * starts. A failed prompt has its own notice. Placed by the transcript like a Changes summary; moved only
 * when the last entry changes.
 */
import type { PanelState } from '../src/common/webview/contract';
import { h, icon } from './dom';

const MARKS = { cancelled: ['circle-slash', 'Cancelled'], interrupted: ['debug-disconnect', 'Interrupted'] } as const;

export class TurnEndMark {
  readonly el = h('div', { class: 'turn-end-mark', 'data-testid': 'turn-end' });
  private at: string | null = null;

  render(p: PanelState, lastKey: string | null, place: (el: HTMLElement, key: string) => void): void {
    const mark = p.lastTurnEnd === 'cancelled' || p.lastTurnEnd === 'interrupted' ? MARKS[p.lastTurnEnd] : null;
    if (!mark || lastKey === null || p.turn === 'busy' || p.turn === 'cancelling') {
      this.el.remove();
      this.at = null;
      return;
    }
    this.el.replaceChildren(icon(mark[0]), ` ${mark[1]}`);
    if (this.at === lastKey && this.el.isConnected) return;
    this.at = lastKey;
    place(this.el, lastKey);
  }
}
