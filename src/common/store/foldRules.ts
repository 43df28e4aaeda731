/**
 * Restore in place: a chat rewound to one of its messages goes on in another session (a fork at the
 * message, or a new session), and the turns from that message on stay in the transcript, folded. The fold
 * is a fact of the session that goes on (`SessionState.folds`), made by one reducer action (`rewound`) at
 * the store's one append point, so the panel, the Message Tree, a reload and a capture replay all read it
 * from the store. A folded entry is a copy (keys are minted per session); a `session/load` replay never
 * matches into a fold (replayWindow.ts starts with the folded entries taken), since the agent's session
 * has no such turns.
 */
import type { Fold, FoldOrigin } from './fold';
import type { Entry, SessionState } from './model';

/** A fold of the source carried over by index into `before` (so it folds the copies). */
interface InheritedFold {
  readonly start: number;
  readonly end: number;
  readonly from: FoldOrigin;
}

/** The reducer's input: the source's entries before the message, the rest (to fold), and the source's own folds among `before`. */
export interface RewoundAction {
  readonly kind: 'rewound';
  readonly from: FoldOrigin;
  readonly before: readonly Entry[];
  readonly later: readonly Entry[];
  readonly inherited: readonly InheritedFold[];
  /** The source's titles: the chat keeps its name in the session that goes on (the agent may name it again). */
  readonly titles: { readonly agent: string | null; readonly user: string | null };
}

/** What restoring `source` to its message `key` folds, or why it cannot (the message is gone). */
function rewoundAction(source: SessionState | undefined, key: string): RewoundAction | string {
  if (!source) return `restore in place: the session it came from is not in the chat`;
  const at = source.entries.findIndex((e) => e.key === key);
  if (at < 0) return `restore in place: message ${key} is not in session ${source.sessionId}`;
  const indexOf = new Map(source.entries.map((e, i) => [e.key, i] as const));
  const inherited = (source.folds ?? []).flatMap((f) => {
    const start = indexOf.get(f.first);
    const end = indexOf.get(f.last);
    return start !== undefined && end !== undefined && end < at && start <= end ? [{ start, end, from: f.from }] : [];
  });
  // The state shows the user's title over the agent's: with a user title, the agent's is not carried.
  const titles = { user: source.userTitle ?? null, agent: source.userTitle === undefined ? source.title : null };
  return { kind: 'rewound', from: { sessionId: source.sessionId, key }, before: source.entries.slice(0, at), later: source.entries.slice(at), inherited, titles };
}

/** What `rewind` needs of the store. */
interface RewindDeps<S> {
  existing(sessionId: string): { state(): SessionState } | undefined;
  apply(sessionId: string, action: RewoundAction, step: S): void;
}

/** The `rewound` client event: session `sessionId` goes on from message `key` of session `from` (a diagnostic when it cannot). */
export function rewind<S extends { diagnostic(severity: 'error', message: string): void }>(
  c: RewindDeps<S>,
  e: { readonly sessionId: string; readonly from: string; readonly key: string },
  step: S,
): void {
  const a = rewoundAction(c.existing(e.from)?.state(), e.key);
  if (typeof a === 'string') step.diagnostic('error', a);
  else if (c.existing(e.sessionId)) c.apply(e.sessionId, a, step);
}

/** The indexes of `entries` inside `folds` (what a replay must not match). */
export function foldedIndexes(entries: readonly Entry[], folds: readonly Fold[]): number[] {
  if (folds.length === 0) return [];
  const indexOf = new Map(entries.map((e, i) => [e.key, i] as const));
  return folds.flatMap((f) => {
    const start = indexOf.get(f.first) ?? -1;
    const end = indexOf.get(f.last) ?? -1;
    return start < 0 || end < start ? [] : Array.from({ length: end - start + 1 }, (_, i) => start + i);
  });
}

/** The folds whose ends are still among `entries` (a restore that skipped an unreadable entry drops the fold it named). */
export function foldsIn(entries: readonly Entry[], folds: readonly Fold[]): readonly Fold[] {
  const keys = new Set(entries.map((e) => e.key));
  return folds.filter((f) => keys.has(f.first) && keys.has(f.last));
}
