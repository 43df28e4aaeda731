/**
 * The tool-call rules: `tool_call` (a full snapshot), `tool_call_update` and a permission request's
 * `toolCall` (patches: v1 absent/null keep, v2 null clears), v2 content chunks, and the user's cancel.
 */
import type { Meta, ToolCallContent } from '../protocol/content';
import { META_TERMINAL_OUTPUT_KEYS } from '../toolOutput';
import { PROTOCOL_V2 } from '../protocol/methods';
import type { ToolCallPatch } from '../protocol/updates';
import { type StepDeps, type Bookkeeping, touchOf } from './stepDeps';
import type { EntryTable } from './entryTable';
import type { MessageKind, ToolCallEntry } from './model';
import type { ReplayWindow } from './replayWindow';
import { KEPT_FIELDS } from './replayState';
import { newStats, touchStats, utf8Length } from './stats';

/**
 * The protocol-owned fields of a tool call: every entry field but the store's bookkeeping, so a field
 * added to the entry (entrySchema.ts) is one the compiler asks `toolCallFields` for.
 */
export type ToolCallFields = Omit<ToolCallEntry, 'kind' | 'key' | 'parentKey' | 'statusHistory' | 'provenance' | 'stats'>;

/** `rejected` is the client's own status for a tool call whose permission the user refused. */
/** Which message a tool call's `messageId` names, when several kinds share the id. */
const PARENT_KINDS: readonly MessageKind[] = ['agent_message', 'agent_thought', 'user_message'];

const FINISHED = new Set(['completed', 'failed', 'cancelled', 'rejected']);

/** A tool call's fields from what an update says about it, with the defaults for everything it omits. */
function toolCallFields(p: Pick<ToolCallPatch, 'toolCallId'> & Partial<ToolCallPatch>, meta: Meta | null): ToolCallFields {
  return {
    toolCallId: p.toolCallId,
    title: p.title ?? p.name ?? '',
    name: p.name ?? null,
    toolKind: p.kind ?? 'other',
    status: p.status ?? 'pending',
    content: p.content ?? [],
    locations: p.locations ?? [],
    rawInput: p.rawInput ?? null,
    rawOutput: p.rawOutput ?? null,
    meta,
  };
}

export class ToolCallRules {
  constructor(
    private readonly table: EntryTable,
    private readonly book: Bookkeeping,
    private readonly replay: ReplayWindow,
  ) {}

  /** `tool_call`: a full snapshot (a repeated one for a known id resets what it omits). */
  toolCall(t: ToolCallPatch & { title: string }, ctx: StepDeps): void {
    const index = this.begin(t, ctx);
    const fields = toolCallFields(t, t._meta ?? null);
    const bytes = utf8Length(JSON.stringify(fields.content));
    const e = index < 0 ? undefined : this.table.toolCall(index);
    if (e) this.update(index, e, fields, t.messageId, bytes, false, ctx);
    else this.append(fields, this.parentKey(t.messageId), bytes, false, ctx);
  }

  /** `tool_call_update` (upsert) or a permission request's `toolCall`. v1: absent/null keep; v2: null clears. */
  patch(p: ToolCallPatch, ctx: StepDeps, isUpdate: boolean): void {
    const v2 = ctx.version === PROTOCOL_V2;
    const index = this.begin(p, ctx);
    const bytes = p.content ? utf8Length(JSON.stringify(p.content)) : 0;
    const e = index < 0 ? undefined : this.table.toolCall(index);
    if (!e) {
      if (isUpdate && !v2) ctx.diagnostic('warning', `tool_call_update for unknown tool call '${p.toolCallId}' creates it`);
      this.append(toolCallFields(p, v2 ? patchMeta(null, p._meta) : (p._meta ?? null)), this.parentKey(p.messageId), bytes, false, ctx);
      return;
    }
    // v1 (and any permission toolCall): absent or null leave the value. v2 update: null clears to the default.
    const pick = <T, D>(value: T | null | undefined, current: D, cleared: D): T | D => (value === undefined ? current : value === null ? (v2 ? cleared : current) : value);
    // Every field but the id, so a new field of the entry is a compile error here until its patch rule is written.
    const fields: Omit<ToolCallFields, 'toolCallId'> = {
      title: pick(p.title, e.title, ''),
      name: pick(p.name, e.name, null),
      toolKind: pick(p.kind, e.toolKind, 'other'),
      status: pick(p.status, e.status, 'pending'),
      content: pick(p.content, e.content, []),
      locations: pick(p.locations, e.locations, []),
      rawInput: pick(p.rawInput, e.rawInput, null),
      rawOutput: pick(p.rawOutput, e.rawOutput, null),
      // v2 patches _meta by top-level key. The v1 reference drops an update's _meta, but agents put
      // display data there (`terminal_output`, tool responses), so v1 keeps it the same way, for the
      // panel and the debug tree; with no patch semantics in v1, a null value is just ignored.
      // Streamed terminal output arrives in pieces under one key: the pieces are joined, not replaced.
      meta: v2 ? patchMeta(e.meta, withTerminalOutput(e.meta, p._meta)) : mergeMetaV1(e.meta, withTerminalOutput(e.meta, p._meta)),
    };
    this.update(index, e, fields, p.messageId, bytes, false, ctx);
  }

  /** v2 `tool_call_content_chunk`: one more content item. */
  contentChunk(toolCallId: string, item: ToolCallContent, ctx: StepDeps): void {
    const index = this.begin({ toolCallId }, ctx);
    const bytes = utf8Length(JSON.stringify(item));
    const e = index < 0 ? undefined : this.table.toolCall(index);
    if (!e) {
      ctx.diagnostic('warning', `tool_call_content_chunk for unknown tool call '${toolCallId}' creates it`);
      this.append(toolCallFields({ toolCallId, content: [item] }, null), this.book.lastAgentKey, bytes, true, ctx);
      return;
    }
    const content = this.replay.keeps(index, 'content') ? e.content : [...e.content, item];
    this.table.replace(index, { ...e, content, stats: touchStats(e.stats, touchOf(ctx, bytes, true)) }, ctx);
  }

  /**
   * The user rejected the tool call's permission request: `rejected` unless the agent already finished it.
   * A later update from the agent still wins (it knows what it did), except `failed`, which is how agents
   * say the refused call did not run.
   */
  rejected(toolCallId: string, ctx: StepDeps): void {
    const i = this.table.indexOfToolCallId(toolCallId);
    const e = i === undefined ? undefined : this.table.toolCall(i);
    if (i === undefined || !e || FINISHED.has(e.status)) return;
    this.table.replace(i, { ...e, status: 'rejected', statusHistory: withStatus(e.statusHistory, 'rejected', ctx.now) }, ctx);
  }

  /** The user's cancel: every tool call not yet finished becomes `cancelled` (provenance unchanged). */
  cancel(ctx: StepDeps): void {
    this.book.echo = null;
    const t = this.table;
    for (let i = 0; i < t.length; i++) {
      const e = t.toolCall(i);
      if (!e || FINISHED.has(e.status)) continue;
      t.replace(i, { ...e, status: 'cancelled', statusHistory: withStatus(e.statusHistory, 'cancelled', ctx.now) }, ctx);
    }
  }

  /** Any tool-call update ends the prompt's echo and the open message; returns the tool call's index or -1. */
  private begin(p: Pick<ToolCallPatch, 'toolCallId'> & Partial<ToolCallPatch>, ctx: StepDeps): number {
    this.book.echo = null;
    this.book.open = -1;
    const known = this.table.indexOfToolCallId(p.toolCallId);
    if (!this.replay.active) return known ?? -1;
    return this.replay.toolCall(p.toolCallId, known, { title: p.title ?? null, kind: p.kind ?? null, rawInput: p.rawInput }, ctx);
  }

  private parentKey(messageId: string | null | undefined): string | null {
    if (typeof messageId === 'string') {
      // Ids are scoped by kind: a tool call belongs to the answer, else the thought, that bears its id.
      const kind = this.table.kindWithMessageId(messageId, PARENT_KINDS);
      const i = kind === undefined ? undefined : this.table.indexOfMessageId(kind, messageId);
      if (i !== undefined) return this.table.at(i)?.key ?? null;
    }
    return this.book.lastAgentKey;
  }

  /** Every new tool call, whichever update announced it, gets the same bookkeeping here. */
  private append(fields: ToolCallFields, parentKey: string | null, bytes: number, chunk: boolean, ctx: StepDeps): void {
    this.table.append(
      {
        kind: 'tool_call',
        ...fields,
        parentKey,
        statusHistory: [{ status: fields.status, at: ctx.now }],
        provenance: this.replay.provenance(),
        stats: newStats(touchOf(ctx, bytes, chunk)),
      },
      ctx,
    );
  }

  /** During a replay, a matched tool call keeps every field it already had and its status only moves forward (see replayWindow.ts). */
  private keepKnown(index: number, e: ToolCallEntry, incoming: Partial<ToolCallFields>): Partial<ToolCallFields> {
    const out: Partial<Record<keyof ToolCallFields, unknown>> = { ...incoming };
    for (const f of KEPT_FIELDS) if (this.replay.keeps(index, f)) delete out[f];
    if (incoming.status !== undefined) out.status = this.replay.status(index, e.status, incoming.status);
    return out as Partial<ToolCallFields>;
  }

  /** A changed tool call: new field values, its message link if the update names one, status history, counters. */
  private update(index: number, e: ToolCallEntry, incoming: Partial<ToolCallFields>, messageId: string | null | undefined, bytes: number, chunk: boolean, ctx: StepDeps): void {
    const known = this.replay.active ? this.keepKnown(index, e, incoming) : incoming;
    // An agent reports a refused tool call as `failed` (it did not run); the user's refusal is the
    // better word for it. `completed` still wins: the agent knows what it did.
    const fields = e.status === 'rejected' && known.status === 'failed' ? { ...known, status: 'rejected' } : known;
    const status = fields.status ?? e.status;
    this.table.replace(
      index,
      {
        ...e,
        ...fields,
        parentKey: typeof messageId === 'string' ? this.parentKey(messageId) : e.parentKey,
        statusHistory: withStatus(e.statusHistory, status, ctx.now),
        stats: touchStats(e.stats, touchOf(ctx, bytes, chunk)),
      },
      ctx,
    );
  }
}

function withStatus(history: ToolCallEntry['statusHistory'], status: string, at: number): ToolCallEntry['statusHistory'] {
  const last = history[history.length - 1];
  return last && last.status === status ? history : [...history, { status, at }];
}

/** v2 `_meta` patch: omitted = unchanged, null = clear, object = per top-level key (null removes the key). */
export function patchMeta(current: Meta | null, patch: Meta | null | undefined): Meta | null {
  if (patch === undefined) return current;
  if (patch === null) return null;
  const out: Meta = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true }); // `__proto__` is a key like any other
  }
  return out;
}

/**
 * The `_meta` terminal output extensions carry the next piece of a shell's output, not the whole:
 * `terminal_output` (`{terminal_id, data}`, as Zed's Claude Code adapter streams it) and
 * `terminal_output_delta` (the same shape, as Codex streams it unasked). A patch's piece is appended to
 * the data already held for the same terminal, so the card shows all of it. Anything else (another
 * terminal, no string data) is left for the key-wise merge.
 */
function withTerminalOutput(current: Meta | null, patch: Meta | null | undefined): Meta | null | undefined {
  if (!patch) return patch;
  let out: Meta | undefined;
  for (const key of META_TERMINAL_OUTPUT_KEYS) {
    const next = patch[key];
    const prev = current?.[key];
    if (!isTerminalOutput(next) || !isTerminalOutput(prev) || prev['terminal_id'] !== next['terminal_id']) continue;
    out = { ...(out ?? patch), [key]: { ...next, data: prev['data'] + next['data'] } };
  }
  return out ?? patch;
}

function isTerminalOutput(v: unknown): v is Record<string, unknown> & { data: string } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Record<string, unknown>)['data'] === 'string';
}

/** v1: an update's `_meta` object is merged by top-level key; null or absent leaves the meta as it was. */
function mergeMetaV1(current: Meta | null, patch: Meta | null | undefined): Meta | null {
  if (!patch || typeof patch !== 'object') return current;
  return { ...(current ?? {}), ...patch };
}
