/**
 * The messages that carry a snapshot to the webview, newest entries first: one `snapshot` with the last
 * SNAPSHOT_NEWEST entries (what the user sees first, painted before anything older is even copied),
 * then `older` messages of OLDER_CHUNK entries each, walking back to the first entry. A saved chat of
 * 100,000 entries is ~50 MB of structured clone; in one message nothing paints until all of it is
 * copied and handled. Posted back to back, so no patch can come between them.
 */
import type { Entry } from '../store/model';
import type { FeedMessage, PanelState } from './contract';
import { toWireEntry } from './wireEntry';
import { WEBVIEW_PROTOCOL_VERSION } from './version';

export const SNAPSHOT_NEWEST = 500;
export const OLDER_CHUNK = 5_000;

export function snapshotMessages(entries: readonly Entry[], panel: PanelState): FeedMessage[] {
  const start = Math.max(0, entries.length - SNAPSHOT_NEWEST);
  const out: FeedMessage[] = [
    { type: 'snapshot', protocol: WEBVIEW_PROTOCOL_VERSION, entries: entries.slice(start).map(toWireEntry), panel, ...(start > 0 ? { olderCount: start } : {}) },
  ];
  for (let end = start; end > 0; end -= OLDER_CHUNK) {
    const from = Math.max(0, end - OLDER_CHUNK);
    out.push({ type: 'older', entries: entries.slice(from, end).map(toWireEntry), olderCount: from });
  }
  return out;
}
