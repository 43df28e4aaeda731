/**
 * Consecutive text chunks of one streamed message, applied as one store step. An agent streams a long
 * answer as thousands of small chunks, and the transport reads hundreds of them at once: one store step,
 * delta and panel patch per read instead of per line is most of what the live pipeline spends beyond
 * parsing (issue 46). The transport, its id ledger and the tap (capture, conformance check, journal)
 * still see every line; only the store's application of them is joined.
 *
 * A chunk is held only when the reducer would do nothing with it but append its text to the open message
 * (`Session.continues`: its session's open message, of its kind and id, live, no prompt echo awaited), and joins only a
 * run of the same session, kind and message id (v1 chunks without one: the same kind's open message, as
 * the reducer merges them). Every other message, and every read of the store's state, applies the held
 * run first, so whoever reads the store between two messages sees it current; `MessageStore.settle()`
 * applies it at the end of a read (`settleAfterRead`). Each chunk still counts in the entry's stats.
 */
import type { FastChunk } from '../jsonrpc/fastPath';
import type { ChunkKind } from '../protocol/updates';
import type { StoreDelta } from './deltas';

export interface HeldRun {
  readonly sessionId: string;
  readonly chunkKind: ChunkKind;
  readonly messageId: string | null;
  readonly texts: string[];
  /** Each held chunk's line (capture seq), in order. */
  readonly lines: (number | undefined)[];
}

export class ChunkRuns {
  private run: HeldRun | null = null;
  /** Deltas of runs applied because the store was read: handed on with the next step's. */
  private unreported: StoreDelta[] = [];

  constructor(private readonly apply: (run: HeldRun) => readonly StoreDelta[]) {}

  get holding(): boolean {
    return this.run !== null || this.unreported.length > 0;
  }

  /**
   * Holds `c` (returns true) when it continues the held run, or starts one when `continues` says the chunk
   * only appends to its session's open message. Otherwise applies the held run and returns false.
   */
  hold(c: FastChunk, line: number | undefined, continues: () => boolean): boolean {
    // An empty chunk changes nothing and counts nowhere (messageRules.ts): the reducer's own path skips it.
    if (c.text === '') return false;
    const r = this.run;
    if (r !== null && r.sessionId === c.sessionId && r.chunkKind === c.chunkKind && r.messageId === c.messageId) {
      r.texts.push(c.text);
      r.lines.push(line);
      return true;
    }
    this.settle();
    if (!continues()) return false;
    this.run = { sessionId: c.sessionId, chunkKind: c.chunkKind, messageId: c.messageId, texts: [c.text], lines: [line] };
    return true;
  }

  /** Applies the held run, if any; its deltas wait for `take`. */
  settle(): void {
    const r = this.run;
    if (r === null) return;
    this.run = null;
    for (const d of this.apply(r)) this.unreported.push(d);
  }

  /** Applies the held run and returns every delta not yet handed on. */
  take(): StoreDelta[] {
    this.settle();
    const d = this.unreported;
    if (d.length > 0) this.unreported = [];
    return d;
  }
}

/**
 * What the live client does after handing a merged message to the store: the held run is applied once the
 * read that holds it is over (a microtask: the transport taps one read's lines synchronously), and its
 * deltas reported.
 */
export function settleAfterRead(store: { readonly holding: boolean; settle(): readonly StoreDelta[] }, report: (changes: readonly StoreDelta[]) => void): () => void {
  let due = false;
  return () => {
    if (due || !store.holding) return;
    due = true;
    queueMicrotask(() => {
      due = false;
      const changes = store.settle();
      if (changes.length > 0) report(changes);
    });
  };
}
