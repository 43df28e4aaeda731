/**
 * What one capture line `{dir,msg,...}` holds, read without touching a store (seq/t_ms ignored): a message
 * to ingest, a client event (a note; `keyAt` finds the entries it names by place, since the recording
 * store's keys are not the reading store's), nothing (any other note), or why it cannot be read.
 */
import { errorText } from '../util/errors';
import { isRecord } from '../util/guards';
import { MAX_NESTING, tooDeep } from '../util/depth';
import type { Direction } from './deltas';
import { clientEventOfNote, placesOfNote, relinkEvent, type ClientEvent, type EntryPlaces } from './clientEvents';

export type CaptureLine =
  | { readonly kind: 'message'; readonly dir: Direction; readonly msg: unknown }
  | { readonly kind: 'event'; readonly event: ClientEvent }
  | { readonly kind: 'skip' }
  | { readonly kind: 'error'; readonly message: string };

export function readCaptureLine(text: string, keyAt: (place: EntryPlaces[string] | undefined) => string | undefined): CaptureLine {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch (err) {
    return { kind: 'error', message: `capture line is not JSON (${errorText(err)})` };
  }
  if (tooDeep(text, rec)) return { kind: 'error', message: `capture line nests deeper than ${MAX_NESTING} levels; it is skipped` };
  if (!isRecord(rec)) return { kind: 'error', message: 'capture line is not an object' };
  const dir = rec.dir;
  if (dir === 'client->agent' || dir === 'agent->client') return 'msg' in rec ? { kind: 'message', dir, msg: rec.msg } : { kind: 'error', message: "capture line has no 'msg'" };
  if (dir !== 'note') return { kind: 'error', message: `capture line has an unknown 'dir' (${JSON.stringify(dir)})` };
  const event = clientEventOfNote(rec.msg);
  if (!event) return { kind: 'skip' };
  const places = placesOfNote(rec.msg);
  return { kind: 'event', event: places ? relinkEvent(event, (key) => keyAt(places[key])) : event };
}
