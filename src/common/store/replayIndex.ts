/**
 * Where the replay window looks for a replayed item's prior entry, in time that does not grow with the
 * history (issue 39: a 6,000-message replay took 19 s when each unmatched message scanned every entry ahead).
 *
 * Built once per window from the prior entries: the positions of each kind, and of each message kind by the
 * start of its whitespace-free text (its first 8 characters; shorter starts only when a replayed text that
 * short asks for them). `fitsStart` (replayText.ts) needs a shared start of 8 characters unless
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
  /** Per message kind: first 8 whitespace-free characters -> positions of the messages (8+ characters) that start so. */
  private readonly byStart = new Map<string, Map<string, number[]>>();
  /** Per message kind: whole text -> positions of the messages whose text is shorter than 8 characters. */
  private readonly byShort = new Map<string, Map<string, number[]>>();
  /**
   * Per message kind and length L < 8: first L characters -> positions of the messages (L+ characters) that
   * start so. Built on first use: only a replayed text shorter than 8 characters needs one, and most replays
   * never send one (each level costs a pass over the prior messages, at most seven per window).
   */
  private readonly byShortStart = new Map<string, Map<string, number[]>>();
  /** Each prior message's whitespace-free text by position (null: not a message). */
  private readonly texts: (string | null)[] = [];
  /** First prior position that may still be an unmatched user or agent message (only moves forward). */
  private ahead = 0;

  constructor(
    private readonly entries: (i: number) => Entry | undefined,
    private readonly priorLength: number,
    norm: (e: Entry, i: number) => string | null,
  ) {
    for (let i = 0; i < priorLength; i++) {
      const e = entries(i);
      const text = e ? norm(e, i) : null;
      this.texts.push(text);
      if (!e) continue;
      push(this.byKind, e.kind, i);
      if (text === null || text === '') continue;
      if (text.length >= KEY) push(inner(this.byStart, e.kind), text.slice(0, KEY), i);
      else push(inner(this.byShort, e.kind), text, i);
    }
  }

  /** Positions (ascending lists) of the `kind` messages whose text may fit a replayed text starting with `want`. */
  private messageLists(kind: string, want: string): (readonly number[])[] {
    if (want === '') return [this.byKind.get(kind) ?? []];
    const lists = [(want.length >= KEY ? this.byStart.get(kind)?.get(want.slice(0, KEY)) : this.shortStarts(kind, want.length).get(want)) ?? []];
    const shorts = this.byShort.get(kind);
    if (shorts) {
      for (let l = 1; l <= Math.min(KEY - 1, want.length); l++) {
        const short = shorts.get(want.slice(0, l));
        if (short) lists.push(short);
      }
    }
    return lists;
  }

  /** The `kind` messages of `length`+ characters by their first `length` characters (built on first use). */
  private shortStarts(kind: string, length: number): Map<string, number[]> {
    const name = `${kind}\0${length}`;
    let level = this.byShortStart.get(name);
    if (!level) {
      level = new Map();
      for (let i = 0; i < this.priorLength; i++) {
        const text = this.texts[i];
        if (text && text.length >= length && this.entries(i)?.kind === kind) push(level, text.slice(0, length), i);
      }
      this.byShortStart.set(name, level);
    }
    return level;
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

function inner(map: Map<string, Map<string, number[]>>, key: string): Map<string, number[]> {
  let m = map.get(key);
  if (!m) {
    m = new Map();
    map.set(key, m);
  }
  return m;
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const xs = map.get(key);
  if (xs) xs.push(i);
  else map.set(key, [i]);
}
