/**
 * The wire form of entries, the part of the contract (contract.ts) that carries the transcript. The
 * recorded agents' turns hold little text per entry, so what the webview was sent was mostly each
 * entry's identity and shape repeated: a 36-character key in every op, fields at their default values,
 * `{"type":"text","text":…}` around every piece of text. On the wire:
 * - an entry's key crosses once, in the snapshot or the insert that brings it; ops on it afterwards name
 *   it by a handle, a small number both sides count the same way (wireDecoder.ts says how);
 * - fields at their default value (null ids and names, empty lists, `live` provenance, a `pending`
 *   status, the `other` tool kind, an empty title) are left out;
 * - a thought's span (two epoch-millisecond times) is its start and duration;
 * - a content item that is nothing but text (a message's `{type:'text', text}`, a tool call's
 *   `{type:'content', content:{type:'text', text}}`) is the bare string, in entries and in patches.
 * The webview decodes back to the very `ViewEntry` the host projected (`decodeEntry(encodeEntry(v))`
 * deep-equals `v`), so everything past the decoder, and the durable keys in the DOM, are as before.
 *
 * zod-free and pure: the webview bundle imports it, and the unit tests run both directions in Node.
 */
import { isRecord } from '../util/guards';
import type { EntryPatch } from './entryDiff';
import type { ViewCompaction, ViewElicitation, ViewEntry, ViewMessage, ViewSubagent, ViewToolCall } from './viewEntry';

/** A content list on the wire: an item that is only text is its string. */
type WireContent<C> = readonly (C | string)[];

/**
 * The one table of the entry codec: per kind, each field that is left out while it holds this value (a
 * list: while it is empty), and given this value back by the decoder. Every other field crosses as it
 * is, so a new field of a view entry needs no edit here (one that has a usual value may add it, to leave
 * it out). The wire types below are derived from these tables.
 */
const NONE: readonly never[] = [];
const TOOL_DEFAULTS = { title: '', name: null, toolKind: 'other', status: 'pending', content: NONE, locations: NONE, provenance: 'live' } as const satisfies Partial<ViewToolCall>;
const MESSAGE_DEFAULTS = { messageId: null, content: NONE, provenance: 'live' } as const satisfies Partial<ViewMessage>;

/** `V` on the wire: the fields of `D` optional (left out at their default), content items maybe bare strings. */
type OnWire<V extends { readonly content: readonly unknown[] }, D> = Omit<V, keyof D> & {
  readonly [K in keyof D & keyof V]?: K extends 'content' ? WireContent<V['content'][number]> : V[K];
};

/** A message on the wire; a thought's span is `[first, last - first]`. */
type WireMessage = Omit<OnWire<ViewMessage, typeof MESSAGE_DEFAULTS>, 'span'> & { readonly span?: readonly [number, number] };
type WireToolCall = OnWire<ViewToolCall, typeof TOOL_DEFAULTS>;

/** A question, a subagent card or a compaction crosses as it is: few per chat, and its fields are what the row shows. */
export type WireEntry = WireMessage | WireToolCall | ViewElicitation | ViewSubagent | ViewCompaction;

/** An entry patch on the wire: content lists in `set` and `append` are encoded like an entry's. */
export type WirePatch = EntryPatch;

/** `{type:'text', text}` and nothing else (annotations or `_meta` keep the object). */
function bareText(v: unknown): string | null {
  if (!isRecord(v) || v['type'] !== 'text' || typeof v['text'] !== 'string') return null;
  for (const k in v) if (k !== 'type' && k !== 'text' && v[k] !== undefined) return null;
  return v['text'];
}

/** A tool call's `{type:'content', content:<bare text>}`. */
function bareToolText(v: unknown): string | null {
  if (!isRecord(v) || v['type'] !== 'content') return null;
  for (const k in v) if (k !== 'type' && k !== 'content' && v[k] !== undefined) return null;
  return bareText(v['content']);
}

function encodeContent(tool: boolean, items: readonly unknown[]): unknown[] {
  return items.map((c) => (tool ? bareToolText(c) : bareText(c)) ?? c);
}

/** The list itself when no item is a string (the common case for tool calls: nothing to allocate). */
function decodeContent(tool: boolean, items: readonly unknown[]): unknown[] {
  let i = 0;
  while (i < items.length && typeof items[i] !== 'string') i++;
  if (i === items.length) return items as unknown[];
  return items.map((c) => (typeof c !== 'string' ? c : tool ? { type: 'content', content: { type: 'text', text: c } } : { type: 'text', text: c }));
}

function atDefault(x: unknown, d: unknown): boolean {
  return x === d || (d === NONE && Array.isArray(x) && x.length === 0);
}

/** `v`'s fields but those at their default (and undefined ones), content encoded. */
function encodeFields(v: object, defaults: Readonly<Record<string, unknown>>, tool: boolean): Record<string, unknown> {
  const rec = v as Readonly<Record<string, unknown>>;
  const w: Record<string, unknown> = {};
  for (const k in rec) {
    const x = rec[k];
    if (x === undefined || atDefault(x, defaults[k])) continue;
    w[k] = k === 'content' ? encodeContent(tool, x as readonly unknown[]) : x;
  }
  return w;
}

/** What crossed, content decoded, and the defaults of the fields left out (a fresh empty list for each list). */
function decodeFields(w: object, defaults: Readonly<Record<string, unknown>>, tool: boolean): Record<string, unknown> {
  const rec = w as Readonly<Record<string, unknown>>;
  const v: Record<string, unknown> = {};
  for (const k in rec) v[k] = k === 'content' ? decodeContent(tool, rec[k] as readonly unknown[]) : rec[k];
  for (const k in defaults) {
    if (v[k] !== undefined) continue;
    const d = defaults[k];
    v[k] = d === NONE ? [] : d;
  }
  return v;
}

export function encodeEntry(v: ViewEntry): WireEntry {
  if (v.kind === 'elicitation' || v.kind === 'subagent' || v.kind === 'compaction') return v;
  if (v.kind === 'tool_call') return encodeFields(v, TOOL_DEFAULTS, true) as unknown as WireToolCall;
  const w = encodeFields(v, MESSAGE_DEFAULTS, false);
  if (v.span) w['span'] = [v.span.first, v.span.last - v.span.first];
  return w as unknown as WireMessage;
}

export function decodeEntry(w: WireEntry): ViewEntry {
  if (w.kind === 'elicitation') return w as ViewElicitation;
  if (w.kind === 'subagent') return w as ViewSubagent;
  if (w.kind === 'compaction') return w as ViewCompaction;
  if (w.kind === 'tool_call') return decodeFields(w, TOOL_DEFAULTS, true) as unknown as ViewToolCall;
  const m = w as WireMessage;
  const v = decodeFields(m, MESSAGE_DEFAULTS, false);
  if (m.span) v['span'] = { first: m.span[0], last: m.span[0] + m.span[1] };
  return v as unknown as ViewMessage;
}

/** Content lists in a patch's `set` and `append` (the only places a patch carries whole content items). */
function mapPatchContent(p: EntryPatch, tool: boolean, f: (tool: boolean, items: readonly unknown[]) => unknown[]): EntryPatch {
  const set = p.set && Array.isArray(p.set['content']) ? { ...p.set, content: f(tool, p.set['content']) } : p.set;
  const append = p.append?.['content'] ? { ...p.append, content: f(tool, p.append['content']) } : p.append;
  if (set === p.set && append === p.append) return p;
  return { ...p, ...(set ? { set } : {}), ...(append ? { append } : {}) };
}

export function encodePatch(kind: ViewEntry['kind'], p: EntryPatch): WirePatch {
  return mapPatchContent(p, kind === 'tool_call', encodeContent);
}

export function decodePatch(kind: ViewEntry['kind'], p: WirePatch): EntryPatch {
  return mapPatchContent(p, kind === 'tool_call', decodeContent);
}
