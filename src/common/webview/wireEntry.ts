/**
 * A store entry as it crosses to the webview, in snapshots and patches alike: its projection
 * (viewEntry.ts) in wire form (wire.ts). Its own module: wire.ts is in the webview bundle, and the
 * projection is the host's.
 */
import type { Entry } from '../store/model';
import { toViewEntry } from './viewEntry';
import { encodeEntry, type WireEntry } from './wire';

export function toWireEntry(e: Entry): WireEntry {
  return encodeEntry(toViewEntry(e));
}
