/**
 * The webview's side of the entry handles (see wire.ts): turns the wire ops on entries back into the
 * `EntryOp`s the host meant (entryOp.ts: by durable key, whole `ViewEntry`s), which the transcript applies.
 * Pure, so the property test in test/unit/store runs the webview's own decoding.
 */
import type { PatchOp } from './contract';
import type { PlacedEntryOp } from './entryOp';
import type { ViewEntry } from './viewEntry';
import { decodeEntry, decodePatch, type WireEntry } from './wire';

/**
 * The webview's side of the handles. Handles count entries in the order the webview learns of them:
 * a snapshot's entries are numbered by their position in the whole transcript (the `older` parts that
 * follow it fill in the numbers before the snapshot's own), and each `insert` takes the next number.
 * The host's PatchBatcher counts the same way, so neither side sends the numbers themselves.
 */
export class WireDecoder {
  private keys: (string | undefined)[] = [];
  private kinds: (ViewEntry['kind'] | undefined)[] = [];

  /** A snapshot's newest entries, `olderCount` entries after the first. */
  snapshot(entries: readonly WireEntry[], olderCount: number): ViewEntry[] {
    this.keys = new Array<string | undefined>(olderCount);
    this.kinds = new Array<ViewEntry['kind'] | undefined>(olderCount);
    return entries.map((w, i) => this.learn(olderCount + i, w));
  }

  /** A snapshot's `older` part: the entries just before those already numbered. */
  older(entries: readonly WireEntry[], olderCount: number): ViewEntry[] {
    return entries.map((w, i) => this.learn(olderCount + i, w));
  }

  /** The keyed form of a wire op on an entry; throws on a handle this side never numbered (out of sync). */
  entryOp(op: Extract<PatchOp, { op: 'insert' | 'replace' | 'appendText' | 'fields' }>): PlacedEntryOp {
    switch (op.op) {
      case 'insert': {
        const h = this.keys.length;
        return { op: 'insert', index: op.index ?? h, entry: this.learn(h, op.entry) };
      }
      case 'replace':
        this.keyOf(op.h);
        return { op: 'replace', entry: this.learn(op.h, op.entry) };
      case 'appendText':
        return { op: 'appendText', key: this.keyOf(op.h), text: op.text };
      case 'fields': {
        const key = this.keyOf(op.h);
        return { op: 'fields', key, patch: decodePatch(this.kinds[op.h] ?? 'agent_message', op.patch) };
      }
    }
  }

  private learn(h: number, w: WireEntry): ViewEntry {
    const v = decodeEntry(w);
    this.keys[h] = v.key;
    this.kinds[h] = v.kind;
    return v;
  }

  private keyOf(h: number): string {
    const key = this.keys[h];
    if (key === undefined) throw new Error(`no entry has handle ${h}`);
    return key;
  }
}
