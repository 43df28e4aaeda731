/**
 * The host's side of the entry handles (see wire.ts), the mirror of wireDecoder.ts: it numbers the
 * entries the webview holds the way the decoder does, so an op names its entry by a small number
 * instead of its key. PatchBatcher numbers the live panel's entries with it; the browser tests' stand-in
 * host encodes its keyed ops with it, so both speak the shipped numbering rather than a copy of it.
 */
import type { PatchOp } from './contract';
import type { EntryOp } from './entryOp';
import type { ViewEntry } from './viewEntry';
import { encodeEntry, encodePatch } from './wire';

export class WireEncoder {
  private handles = new Map<string, number>();
  /** Each handle's entry kind, when it was given (a patch's content is encoded by kind). */
  private kinds: (ViewEntry['kind'] | undefined)[] = [];
  private count = 0;

  /**
   * A snapshot of `entries` is being posted, the first of them `olderCount` entries after the start of the
   * transcript (the decoder numbers them there): the handles start again from it.
   */
  snapshot(entries: readonly { readonly key: string; readonly kind?: ViewEntry['kind'] }[], olderCount = 0): void {
    this.handles = new Map();
    this.kinds = [];
    this.older(entries, olderCount);
    this.count = olderCount + entries.length;
  }

  /** A snapshot's `older` part: the entries from `olderCount` on, before those already numbered. */
  older(entries: readonly { readonly key: string; readonly kind?: ViewEntry['kind'] }[], olderCount: number): void {
    for (let i = 0; i < entries.length; i++) this.learn(entries[i]!, olderCount + i);
  }

  /** An entry the webview is sent by an insert: it takes the next handle, which this returns. */
  inserted(entry: { readonly key: string; readonly kind?: ViewEntry['kind'] }): number {
    const h = this.count++;
    this.learn(entry, h);
    return h;
  }

  /** The entry's handle; -1 for one the webview was never given, which it answers with a resync. */
  handleOf(key: string): number {
    return this.handles.get(key) ?? -1;
  }

  /** The wire op for an entry op (numbering an inserted entry); an insert at the end leaves its index out. */
  entryOp(op: EntryOp): PatchOp {
    switch (op.op) {
      case 'insert': {
        const h = this.inserted(op.entry);
        const entry = encodeEntry(op.entry);
        return op.index === undefined || op.index === h ? { op: 'insert', entry } : { op: 'insert', index: op.index, entry };
      }
      case 'replace': {
        const h = this.handleOf(op.entry.key);
        if (h >= 0) this.kinds[h] = op.entry.kind;
        return { op: 'replace', h, entry: encodeEntry(op.entry) };
      }
      case 'appendText':
        return { op: 'appendText', h: this.handleOf(op.key), text: op.text };
      case 'fields': {
        const h = this.handleOf(op.key);
        return { op: 'fields', h, patch: encodePatch(this.kinds[h] ?? 'agent_message', op.patch) };
      }
    }
  }

  private learn(entry: { readonly key: string; readonly kind?: ViewEntry['kind'] }, h: number): void {
    this.handles.set(entry.key, h);
    this.kinds[h] = entry.kind;
  }
}
