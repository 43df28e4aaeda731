/**
 * A session/load replay's state (replayWindow.ts has the matching rules): its live form, with Sets and Maps,
 * and the conversion to and from its saved form (`PersistedReplay`, sessionSchema.ts).
 */
import type { PersistedReplay } from './sessionSchema';

/** The tool-call fields a replay never overwrites once they hold something. */
export const KEPT_FIELDS = ['title', 'name', 'toolKind', 'content', 'locations', 'rawInput', 'rawOutput', 'meta'] as const;
export type KeptField = (typeof KEPT_FIELDS)[number];

/** The replayed message being streamed: its kind and id, and the prior entry it landed on (-1: a new entry; HIDDEN). Saved as is. */
export type ReplayCurrent = NonNullable<PersistedReplay['current']>;

/**
 * The live form of a replay's state. Its saved form is `PersistedReplay` (zod, persisted.ts); this one keeps
 * Sets and Maps where the saved one has arrays, so each message of a long replay is looked up in O(1).
 */
export interface ReplayState {
  /** Entries [0, priorLength) existed when the load started. */
  readonly priorLength: number;
  /** Just past the last prior entry matched: where the search for the next one starts. */
  cursor: number;
  /** Prior entries the replay matched. */
  readonly touched: Set<number>;
  /** Per matched prior message: whitespace-free characters of its text the replay confirmed; -1 once it diverged. */
  readonly progress: Map<number, number>;
  /** Per matched prior tool call: the fields that held something when the load started. */
  readonly kept: Map<number, readonly KeptField[]>;
  current: ReplayCurrent | null;
}

/** The replay window as plain JSON, for the store's saved form. */
export function replayToPlain(s: ReplayState): PersistedReplay {
  return {
    priorLength: s.priorLength,
    cursor: s.cursor,
    touched: [...s.touched],
    progress: [...s.progress],
    kept: [...s.kept].map(([i, f]): [number, string[]] => [i, [...f]]),
    current: s.current ? { ...s.current } : null,
  };
}

export function replayFromPlain(p: PersistedReplay): ReplayState {
  const isKept = (f: string): f is KeptField => (KEPT_FIELDS as readonly string[]).includes(f);
  return {
    priorLength: p.priorLength,
    cursor: p.cursor,
    touched: new Set(p.touched),
    progress: new Map(p.progress.map(([i, n]) => [i, n])),
    kept: new Map(p.kept.map(([i, f]) => [i, f.filter(isKept)])),
    current: p.current ? { ...p.current } : null,
  };
}
