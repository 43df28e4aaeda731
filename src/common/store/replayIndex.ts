/**
 * Where the replay window looks for a replayed item's prior entry, in time that does not grow with the
 * history (issue 39: a 6,000-message replay took 19 s when each unmatched message scanned every entry ahead).
 *
 * Built once per window from the prior entries: the positions of each kind, and of each message kind by the
 * start of its whitespace-free text. `fitsStart` (replayText.ts) needs a shared start of 8 characters unless
 * one text is shorter than that, so the messages a text may fit are those whose first 8 characters are its
 * own, or whose whole short text starts it, or that start with its whole short text: three look-ups. The
 * window still checks each candidate with its own rule; this only says where to look, in order.
 */
import type { Entry } from './model';

const KEY = 8;

/** The first position in the ascending list `xs` that is at least `from`. */
function lowerBound(xs: readonly number[], from: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class PriorIndex {
  /** Per entry kind, its prior positions (ascending). */
  private readonly byKind = new Map<string, number[]>();
  /** `kind \0 prefix` (1 to 8 whitespace-free characters) -> message positions whose text starts so. */
  private readonly byPrefix = new Map<string, number[]>();
  /** `kind \1 text` -> positions of messages whose whole text is shorter than 8 characters. */
  private readonly byShort = new Map<string, number[]>();
  /** First prior position that may still be an unmatched user or agent message (only moves forward). */
  private ahead = 0;

  constructor(
    private readonly entries: (i: number) => Entry | undefined,
    private readonly priorLength: number,
    norm: (e: Entry, i: number) => string | null,
  ) {
    for (let i = 0; i < priorLength; i++) {
      const e = entries(i);
      if (!e) continue;
      push(this.byKind, e.kind, i);
      const text = norm(e, i);
      if (text === null || text === '') continue;
      for (let l = 1; l <= Math.min(KEY, text.length); l++) push(this.byPrefix, `${e.kind}\0${text.slice(0, l)}`, i);
      if (text.length < KEY) push(this.byShort, `${e.kind}\u0001${text}`, i);
    }
  }

  /** Positions (ascending lists) of the `kind` messages whose text may fit a replayed text starting with `want`. */
  private messageLists(kind: string, want: string): (readonly number[])[] {
    if (want === '') return [this.byKind.get(kind) ?? []];
    const lists = [this.byPrefix.get(`${kind}\0${want.slice(0, KEY)}`) ?? []];
    for (let l = 1; l <= Math.min(KEY - 1, want.length); l++) {
      const short = this.byShort.get(`${kind}\u0001${want.slice(0, l)}`);
      if (short) lists.push(short);
    }
    return lists;
  }

  /**
   * The first position from `from` that is not `taken` and satisfies `fits`, before the next untaken prior
   * user message unless `kind` is one (the window's rule 1); -1 when there is none. `want`: a message's
   * replayed text, to look only where it may fit; null: every entry of the kind.
   */
  first(kind: string, want: string | null, from: number, taken: (i: number) => boolean, fits: (e: Entry) => boolean): number {
    const stop = kind === 'user_message' ? this.priorLength : this.nextUser(from, taken);
    const lists = want === null ? [this.byKind.get(kind) ?? []] : this.messageLists(kind, want);
    let best = -1;
    for (const xs of lists) {
      for (let k = lowerBound(xs, from); k < xs.length; k++) {
        const i = xs[k] as number;
        if (i >= stop || (best >= 0 && i >= best)) break;
        const e = this.entries(i);
        if (e && !taken(i) && fits(e)) {
          best = i;
          break;
        }
      }
    }
    return best;
  }

  /** The next prior user message from `from` not taken yet (the end of the prior entries when none). */
  private nextUser(from: number, taken: (i: number) => boolean): number {
    const xs = this.byKind.get('user_message') ?? [];
    for (let k = lowerBound(xs, from); k < xs.length; k++) if (!taken(xs[k] as number)) return xs[k] as number;
    return this.priorLength;
  }

  /** Whether a prior user or agent message from `cursor` on is still unmatched. Amortized O(1): both only grow. */
  messagesAhead(cursor: number, taken: (i: number) => boolean): boolean {
    this.ahead = Math.max(this.ahead, cursor);
    for (; this.ahead < this.priorLength; this.ahead++) {
      const k = this.entries(this.ahead)?.kind;
      if (!taken(this.ahead) && (k === 'user_message' || k === 'agent_message')) return true;
    }
    return false;
  }
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const xs = map.get(key);
  if (xs) xs.push(i);
  else map.set(key, [i]);
}
