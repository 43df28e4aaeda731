/**
 * The sessions `cli run` prints, read from the store: the run's own session and the subagents announced
 * under it (any depth, `SessionState.parentSessionId`, which the store sets only for a child its parent
 * announced). Only a session in this tree has its changes printed, so an agent cannot pass text off as the
 * session's by naming another id. Nothing is kept here but the run's session.
 */
import { announcementOf, type SessionLookup } from '../../common/store/sessionTree';
import type { SessionState } from '../../common/store/model';

export type TreeLookup = SessionLookup;

export class PrintedTree {
  private root: string | null = null;

  constructor(private readonly store: TreeLookup) {}

  /** The run's own session: depth 0. */
  attach(sessionId: string): void {
    this.root ??= sessionId;
  }

  get attached(): boolean {
    return this.root !== null;
  }

  session(sessionId: string): SessionState | undefined {
    return this.store.session(sessionId);
  }

  /** Whether the store holds `sessionId` (a refused session is not held). */
  held(sessionId: string): boolean {
    return this.store.session(sessionId) !== undefined;
  }

  /** How deep `sessionId` is printed, or undefined when it is not the run's session nor announced under it. */
  depth(sessionId: string): number | undefined {
    const seen = new Set<string>();
    let depth = 0;
    for (let id: string | null | undefined = sessionId; id !== null && id !== undefined && !seen.has(id); id = this.store.session(id)?.parentSessionId) {
      if (id === this.root) return depth;
      seen.add(id);
      depth++;
    }
    return undefined;
  }

  parentOf(sessionId: string): string | null | undefined {
    return this.store.session(sessionId)?.parentSessionId;
  }

  /** How a line names a session: a subagent's title, else its id. */
  label(sessionId: string): string {
    return announcementOf(this.store, sessionId)?.title ?? sessionId;
  }
}
