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
import type { ContentBlock, ToolCallContent } from '../protocol/content';
import type { Provenance } from '../store/model';
import { isRecord } from '../util/guards';
import type { Mutable } from '../util/types';
import type { EntryPatch } from './entryDiff';
import type { ViewCompaction, ViewElicitation, ViewEntry, ViewMessage, ViewSubagent, ViewToolCall } from './viewEntry';

/** A content list on the wire: an item that is only text is its string. */
type WireContent<C> = readonly (C | string)[];

/** A message on the wire: `messageId` null, empty content and `live` provenance are left out; a thought's span is `[first, last - first]`. */
interface WireMessage extends Omit<ViewMessage, 'messageId' | 'content' | 'provenance' | 'span'> {
  readonly messageId?: string;
  readonly span?: readonly [number, number];
  readonly content?: WireContent<ContentBlock>;
  readonly provenance?: Provenance;
}

/** A tool call on the wire: every field at its default is left out. */
interface WireToolCall extends Omit<ViewToolCall, 'title' | 'name' | 'toolKind' | 'status' | 'content' | 'locations' | 'provenance'> {
  readonly title?: string;
  readonly name?: string;
  readonly toolKind?: string;
  readonly status?: string;
  readonly content?: WireContent<ToolCallContent>;
  readonly locations?: ViewToolCall['locations'];
  readonly provenance?: Provenance;
}

/** A question, a subagent card or a compaction crosses as it is: few per chat, and its fields are what the row shows. */
export type WireEntry = WireMessage | WireToolCall | ViewElicitation | ViewSubagent | ViewCompaction;

/** An entry patch on the wire: content lists in `set` and `append` are encoded like an entry's. */
export type WirePatch = EntryPatch;

const DEFAULT_PROVENANCE: Provenance = 'live';
const DEFAULT_STATUS = 'pending';
const DEFAULT_TOOL_KIND = 'other';

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

// Field by field rather than rest and spread: a snapshot codes up to 100,000 entries, and these stay
// monomorphic and allocate one object each.

export function encodeEntry(v: ViewEntry): WireEntry {
  if (v.kind === 'elicitation' || v.kind === 'subagent' || v.kind === 'compaction') return v;
  if (v.kind === 'tool_call') {
    const w: Mutable<WireToolCall> = { kind: v.kind, key: v.key, toolCallId: v.toolCallId };
    if (v.title !== '') w.title = v.title;
    if (v.name !== null) w.name = v.name;
    if (v.toolKind !== DEFAULT_TOOL_KIND) w.toolKind = v.toolKind;
    if (v.status !== DEFAULT_STATUS) w.status = v.status;
    if (v.content.length) w.content = encodeContent(true, v.content) as WireContent<ToolCallContent>;
    if (v.locations.length) w.locations = v.locations;
    if (v.provenance !== DEFAULT_PROVENANCE) w.provenance = v.provenance;
    if (v.command !== undefined) w.command = v.command;
    if (v.output !== undefined) w.output = v.output;
    if (v.metaTerminal !== undefined) w.metaTerminal = v.metaTerminal;
    if (v.raw !== undefined) w.raw = v.raw;
    if (v.parentToolCallId !== undefined) w.parentToolCallId = v.parentToolCallId;
    return w;
  }
  const w: Mutable<WireMessage> = { kind: v.kind, key: v.key };
  if (v.messageId !== null) w.messageId = v.messageId;
  if (v.content.length) w.content = encodeContent(false, v.content) as WireContent<ContentBlock>;
  if (v.provenance !== DEFAULT_PROVENANCE) w.provenance = v.provenance;
  if (v.span) w.span = [v.span.first, v.span.last - v.span.first];
  if (v.route) w.route = v.route;
  if (v.replayDiffers) w.replayDiffers = true;
  return w;
}

export function decodeEntry(w: WireEntry): ViewEntry {
  if (w.kind === 'elicitation') return w as ViewElicitation;
  if (w.kind === 'subagent') return w as ViewSubagent;
  if (w.kind === 'compaction') return w as ViewCompaction;
  if (w.kind === 'tool_call') {
    const t = w as WireToolCall;
    const v: Mutable<ViewToolCall> = {
      kind: t.kind,
      key: t.key,
      toolCallId: t.toolCallId,
      title: t.title ?? '',
      name: t.name ?? null,
      toolKind: t.toolKind ?? DEFAULT_TOOL_KIND,
      status: t.status ?? DEFAULT_STATUS,
      content: t.content ? (decodeContent(true, t.content) as ToolCallContent[]) : [],
      locations: t.locations ?? [],
      provenance: t.provenance ?? DEFAULT_PROVENANCE,
    };
    if (t.command !== undefined) v.command = t.command;
    if (t.output !== undefined) v.output = t.output;
    if (t.metaTerminal !== undefined) v.metaTerminal = t.metaTerminal;
    if (t.raw !== undefined) v.raw = t.raw;
    if (t.parentToolCallId !== undefined) v.parentToolCallId = t.parentToolCallId;
    return v;
  }
  const m = w as WireMessage;
  const v: Mutable<ViewMessage> = {
    kind: m.kind,
    key: m.key,
    messageId: m.messageId ?? null,
    content: m.content ? (decodeContent(false, m.content) as ContentBlock[]) : [],
    provenance: m.provenance ?? DEFAULT_PROVENANCE,
  };
  if (m.span) v.span = { first: m.span[0], last: m.span[0] + m.span[1] };
  if (m.route) v.route = m.route;
  if (m.replayDiffers) v.replayDiffers = true;
  return v;
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
