/**
 * An op on one entry as both ends mean it: the entry named by its durable key, whole view entries. The
 * host's side makes them (PatchBatcher, the browser tests' stand-in host) and `WireEncoder` turns them
 * into the wire's `PatchOp`s (handles, encoded entries); `WireDecoder` turns those back into the same
 * ops, which the webview applies (webview/entryOps.ts). One shape both ways, so the two ends cannot drift.
 */
import type { EntryPatch } from './entryDiff';
import type { ViewEntry } from './viewEntry';

/** An insert without an index goes last. */
export type EntryOp =
  | { readonly op: 'insert'; readonly index?: number; readonly entry: ViewEntry }
  | { readonly op: 'replace'; readonly entry: ViewEntry }
  | { readonly op: 'appendText'; readonly key: string; readonly text: string }
  | { readonly op: 'fields'; readonly key: string; readonly patch: EntryPatch };

/** An op as the decoder gives it: an insert always knows its index. */
export type PlacedEntryOp = Exclude<EntryOp, { op: 'insert' }> | (Extract<EntryOp, { op: 'insert' }> & { readonly index: number });
