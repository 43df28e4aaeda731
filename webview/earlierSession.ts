/**
 * An earlier session shown above the new one, when the agent could not continue the conversation: which of
 * the first entries are that session's (read-only: nothing there can be answered), and the marker between
 * them saying why a new session started and that the agent does not remember what is above. Its own file
 * because the marker is the transcript's one element that is not an entry.
 */
import type { EarlierTranscript } from '../src/common/webview/contract';
import { h, icon } from './dom';
import type { EntryView } from './entries/entryView';

export class EarlierSession {
  private readonly marker: HTMLElement = h('div', { class: 'session-marker', role: 'separator' });
  private shown: EarlierTranscript | null = null;
  /** How many of the first entries belong to the earlier session. */
  private count = 0;

  get transcript(): EarlierTranscript | null {
    return this.shown;
  }

  /** Where the new session's entries start (0: no earlier session shown). */
  get end(): number {
    return this.count;
  }

  /**
   * Marks the earlier session's entries among `order` and hands the marker to `place`, to go before the new
   * session's first entry (undefined: at the end). `olderCount` entries of the snapshot are still to come
   * before `order` (`entryCount` counts from the first entry of the whole snapshot).
   */
  set(earlier: EarlierTranscript | null, olderCount: number, order: readonly EntryView[], place: (marker: HTMLElement, first: EntryView | undefined) => void): void {
    this.shown = earlier;
    this.count = earlier ? Math.max(0, Math.min(earlier.entryCount - olderCount, order.length)) : 0;
    order.forEach((v, i) => (v.earlier = i < this.count));
    if (!earlier || this.count === 0) return void this.marker.remove();
    this.marker.replaceChildren(
      icon('history'),
      h(
        'div',
        { class: 'session-marker-text' },
        h('strong', {}, 'The agent could not continue this conversation; a new session started below.'),
        h('span', {}, ' It does not remember what is above, which is kept here read-only.'),
        h('div', { class: 'session-marker-reason' }, earlier.reason),
      ),
    );
    this.marker.setAttribute('aria-label', 'New session: the conversation above is read-only');
    place(this.marker, order[this.count]);
  }
}
