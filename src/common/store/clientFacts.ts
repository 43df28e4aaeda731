/**
 * The chat-level facts the client adds to the store (client events other than terminal output, which
 * belongs to a session's terminal views): the notices shown above each session's transcript, and the
 * turns' Changes summaries in their saved form. Reduced here, saved with the store.
 */
import { addNotice, setKeyedNotice, type Notice } from '../notices';
import { assertNever } from '../util/guards';
import type { StoreDelta } from './deltas';
import type { ClientEvent, EarlierLink } from './clientEvents';

/** The key of the notices shown before any session exists. */
const NO_SESSION = '';

export class ClientFacts {
  private readonly noticesBySession = new Map<string, readonly Notice[]>();
  private changesSaved: unknown;
  private earlierValue: EarlierLink | null = null;

  notices(sessionId: string | null): readonly Notice[] {
    return this.noticesBySession.get(sessionId ?? NO_SESSION) ?? [];
  }

  changes(): unknown {
    return this.changesSaved;
  }

  earlier(): EarlierLink | null {
    return this.earlierValue;
  }

  apply(e: Exclude<ClientEvent, { event: 'terminal' | 'connection_ended' | 'user_title' | 'rewound' }>, changes: StoreDelta[]): void {
    switch (e.event) {
      case 'notice': {
        const list = this.notices(e.sessionId);
        return this.setNotices(e.sessionId, e.notice.key !== undefined ? setKeyedNotice(list, e.notice.key, e.notice) : addNotice(list, e.notice), changes);
      }
      case 'notice_removed':
        return this.setNotices(e.sessionId, setKeyedNotice(this.notices(e.sessionId), e.key, null), changes);
      case 'notices_cleared':
        return this.setNotices(e.sessionId, [], changes);
      case 'changes':
        this.changesSaved = e.saved;
        changes.push({ type: 'changesRecorded' });
        return;
      case 'earlier':
        this.earlierValue = e.link; // the panel hears it from the connection, which set it
        return;
      default:
        return assertNever(e);
    }
  }

  private setNotices(sessionId: string | null, list: readonly Notice[], changes: StoreDelta[]): void {
    if (list.length === 0) this.noticesBySession.delete(sessionId ?? NO_SESSION);
    else this.noticesBySession.set(sessionId ?? NO_SESSION, list);
    changes.push({ type: 'notices', sessionId, notices: list });
  }

  toJSON(): { notices: [string, readonly Notice[]][]; changes?: unknown; earlier?: EarlierLink } {
    return {
      notices: [...this.noticesBySession],
      ...(this.changesSaved !== undefined ? { changes: this.changesSaved } : {}),
      ...(this.earlierValue ? { earlier: this.earlierValue } : {}),
    };
  }

  restore(notices: readonly (readonly [string, readonly Notice[]])[], changes: unknown, earlier: EarlierLink | null): void {
    for (const [k, v] of notices) this.noticesBySession.set(k, v);
    this.changesSaved = changes;
    this.earlierValue = earlier;
  }

  /** Only the notices of `sessionId` and the Changes (what a store holding one session of another keeps); an earlier link only if it is that session's. */
  static forSession(json: ReturnType<ClientFacts['toJSON']>, sessionId: string): ReturnType<ClientFacts['toJSON']> {
    const { earlier, ...rest } = json;
    return { ...rest, notices: json.notices.filter(([k]) => k === sessionId), ...(earlier?.sessionId === sessionId ? { earlier } : {}) };
  }
}
