/**
 * One session's reducer: applies parsed actions to an append-only entry array it owns, with maps from
 * messageId / toolCallId / key to index so every chunk is O(1) amortized. Entries are immutable values:
 * an update replaces the object in its slot. `append` is the single append point and the only caller
 * of `newKey()`.
 */
import type { ContentBlock, Meta, ToolCallContent } from '../protocol/content';
import { PROTOCOL_V2, type ProtocolVersion } from '../protocol/methods';
import type { ChunkKind, ContentChunk, MessageUpsertKind, ToolCallPatch } from '../protocol/updates';
import { type Action, assertNever } from './actions';
import type { StoreChange } from './changes';
import { appendBlock, blockText, isPlainText, TextTail, textOf } from './content';
import type {
  AvailableCommand,
  ConfigOption,
  Diagnostic,
  Entry,
  EntryKind,
  MessageEntry,
  MessageKind,
  PlanEntry,
  Provenance,
  SessionMode,
  SessionState,
  ToolCallEntry,
  Usage,
} from './model';
import { newStats, type Touch, touchStats, utf8Length } from './stats';

/** Everything a reducer step needs from the store. */
export interface ApplyContext {
  readonly line: number | undefined;
  readonly now: number;
  readonly version: ProtocolVersion;
  readonly changes: StoreChange[];
  diagnostic(severity: Diagnostic['severity'], message: string): void;
  newKey(): string;
}

/** The local prompt waiting for the agent's echo (v1 user chunks / v2 user_message) to merge into it. */
export interface EchoState {
  readonly key: string;
  readonly text: string;
  /** How much of `text` the echo has repeated so far. */
  matched: number;
}

/** The session/load window: replayed entries are matched to the entries shown before it. */
export interface ReplayState {
  /** Entries [0, priorLength) existed when the load started. */
  readonly priorLength: number;
  /** Position of the next prior entry the replay is expected to bring back. */
  cursor: number;
  /** Prior entries the replay already matched (their content is rebuilt from the replay). */
  readonly touched: Set<number>;
}

/** Reducer bookkeeping that is not part of the visible state but must survive save/restore. */
export interface SessionInternals {
  open: number;
  echo: EchoState | null;
  lastAgentKey: string | null;
  replay: ReplayState | null;
}

const CHUNK_TO_KIND: Record<ChunkKind, MessageKind> = {
  user_message_chunk: 'user_message',
  agent_message_chunk: 'agent_message',
  agent_thought_chunk: 'agent_thought',
};
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export class SessionReducer {
  readonly sessionId: string;
  protocolVersion: number;
  private readonly entries: Entry[] = [];
  private readonly byMessageId = new Map<string, number>();
  private readonly byToolCallId = new Map<string, number>();
  private readonly byKey = new Map<string, number>();
  plan: readonly PlanEntry[] | null = null;
  currentModeId: string | null = null;
  availableModes: readonly SessionMode[] = [];
  availableCommands: readonly AvailableCommand[] = [];
  configOptions: readonly ConfigOption[] = [];
  usage: Usage | null = null;
  title: string | null = null;
  updatedAt: string | null = null;
  /** Index of the message anonymous chunks of its kind merge into, or -1. */
  private open = -1;
  private echo: EchoState | null = null;
  private lastAgentKey: string | null = null;
  private replay: ReplayState | null = null;
  /** Keeps streamed text compact (see TextTail); follows whichever message is being streamed. */
  private readonly tail = new TextTail();

  constructor(sessionId: string, protocolVersion: number) {
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
  }

  state(): SessionState {
    return {
      sessionId: this.sessionId,
      protocolVersion: this.protocolVersion,
      entries: this.entries,
      plan: this.plan,
      currentModeId: this.currentModeId,
      availableModes: this.availableModes,
      availableCommands: this.availableCommands,
      configOptions: this.configOptions,
      usage: this.usage,
      title: this.title,
      updatedAt: this.updatedAt,
    };
  }

  internals(): SessionInternals {
    return { open: this.open, echo: this.echo, lastAgentKey: this.lastAgentKey, replay: this.replay };
  }

  /** Restores a saved session: entries (with their keys) and bookkeeping. Used by `fromJSON` only. */
  restore(entries: readonly Entry[], internals: SessionInternals): void {
    for (const e of entries) this.index(e, this.entries.push(e) - 1);
    this.open = internals.open < this.entries.length ? internals.open : -1;
    this.echo = internals.echo;
    this.lastAgentKey = internals.lastAgentKey;
    this.replay = internals.replay;
  }

  keyAt(index: number): string | undefined {
    return this.entries[index]?.key;
  }

  apply(a: Action, ctx: ApplyContext): void {
    switch (a.kind) {
      case 'chunk':
        return this.chunk(a.chunkKind, a.chunk, ctx);
      case 'message':
        return this.upsertMessage(a.upsertKind, a.upsert, ctx);
      case 'tool_call':
        return this.toolCall(a.toolCall, ctx);
      case 'tool_call_update':
        return this.patchToolCall(a.patch, ctx, true);
      case 'permission_tool_call':
        return this.patchToolCall(a.patch, ctx, false);
      case 'tool_call_content_chunk':
        return this.toolContentChunk(a.chunk.toolCallId, a.chunk.content, ctx);
      case 'plan':
        this.plan = a.entries;
        return this.changed(ctx, ['plan']);
      case 'available_commands':
        this.availableCommands = a.commands;
        return this.changed(ctx, ['availableCommands']);
      case 'current_mode':
        this.currentModeId = a.currentModeId;
        return this.changed(ctx, ['currentModeId']);
      case 'config_options':
        this.configOptions = a.configOptions;
        return this.changed(ctx, ['configOptions']);
      case 'session_info': {
        // Patch: omitted = unchanged, null = clear.
        const fields: (keyof SessionState)[] = [];
        if (a.info.title !== undefined) {
          this.title = a.info.title;
          fields.push('title');
        }
        if (a.info.updatedAt !== undefined) {
          this.updatedAt = a.info.updatedAt;
          fields.push('updatedAt');
        }
        return this.changed(ctx, fields);
      }
      case 'usage':
        this.usage = { used: a.usage.used, size: a.usage.size, ...(a.usage.cost !== undefined ? { cost: a.usage.cost } : {}) };
        return this.changed(ctx, ['usage']);
      case 'ignored':
        return;
      case 'local_prompt':
        return this.localPrompt(a.content, ctx);
      case 'prompt_answered':
        return this.promptAnswered(a.localKey, a.messageId, ctx);
      case 'cancel':
        return this.cancel(ctx);
      case 'load_started':
        this.replay = { priorLength: this.entries.length, cursor: 0, touched: new Set() };
        this.open = -1;
        this.echo = null;
        return;
      case 'load_ended':
        this.replay = null;
        this.open = -1;
        return;
      case 'session_result': {
        const fields: (keyof SessionState)[] = [];
        if (a.modes) {
          this.currentModeId = a.modes.currentModeId;
          this.availableModes = a.modes.availableModes;
          fields.push('currentModeId', 'availableModes');
        }
        if (a.configOptions) {
          this.configOptions = a.configOptions;
          fields.push('configOptions');
        }
        if (fields.length > 0) this.changed(ctx, fields);
        return;
      }
      case 'mode_set':
        this.currentModeId = a.modeId;
        return this.changed(ctx, ['currentModeId']);
      default:
        return assertNever(a);
    }
  }

  // ---- the single append point ------------------------------------------------------------------

  private append(entry: DistributiveOmit<Entry, 'key'>, ctx: ApplyContext): number {
    const full = { ...entry, key: ctx.newKey() } as Entry;
    const index = this.entries.push(full) - 1;
    this.index(full, index);
    ctx.changes.push({ type: 'entryInserted', sessionId: this.sessionId, index, entry: full });
    return index;
  }

  private index(e: Entry, i: number): void {
    this.byKey.set(e.key, i);
    if (e.kind === 'tool_call') this.byToolCallId.set(e.toolCallId, i);
    else if (e.messageId !== null) this.byMessageId.set(e.messageId, i);
  }

  private replace(index: number, entry: Entry, ctx: ApplyContext, appendedText?: string): void {
    const old = this.entries[index];
    if (old && old.kind !== 'tool_call' && entry.kind !== 'tool_call' && old.messageId !== entry.messageId) {
      if (old.messageId !== null && this.byMessageId.get(old.messageId) === index) this.byMessageId.delete(old.messageId);
      if (entry.messageId !== null) this.byMessageId.set(entry.messageId, index);
    }
    this.entries[index] = entry;
    ctx.changes.push(
      appendedText === undefined
        ? { type: 'entryUpdated', sessionId: this.sessionId, index, entry }
        : { type: 'entryUpdated', sessionId: this.sessionId, index, entry, appendedText },
    );
  }

  private changed(ctx: ApplyContext, fields: (keyof SessionState)[]): void {
    ctx.changes.push({ type: 'sessionChanged', sessionId: this.sessionId, fields });
  }

  private provenance(): Provenance {
    return this.replay ? 'replay' : 'live';
  }

  private touch(ctx: ApplyContext, bytes: number, chunk: boolean): Touch {
    return { line: ctx.line, now: ctx.now, bytes, chunk };
  }

  // ---- messages ---------------------------------------------------------------------------------

  private message(index: number): MessageEntry | undefined {
    const e = this.entries[index];
    return e && e.kind !== 'tool_call' ? e : undefined;
  }

  /** Agent output (a non-user message or a tool call) means the agent is past echoing the prompt. */
  private endEcho(): void {
    this.echo = null;
  }

  private chunk(chunkKind: ChunkKind, chunk: ContentChunk, ctx: ApplyContext): void {
    const kind = CHUNK_TO_KIND[chunkKind];
    const { content: block, messageId: id } = chunk;
    // An empty text chunk opens nothing and changes nothing (agents send "" at block starts and with usage _meta).
    if (block.type === 'text' && block.text === '') return;
    if (kind !== 'user_message') this.endEcho();
    else if (this.echo && !this.replay && this.echoChunk(this.echo, id, block, ctx)) return;

    let index = -1;
    if (id !== null) {
      const known = this.byMessageId.get(id);
      if (known !== undefined) {
        const e = this.message(known);
        if (!e || e.kind !== kind) {
          ctx.diagnostic('error', `${chunkKind} rejected: messageId '${id}' already names a ${e ? e.kind : 'tool_call'}`);
          return;
        }
        index = known;
        this.rebuildIfReplayed(index, ctx);
      } else if (ctx.version !== PROTOCOL_V2 && this.open >= 0 && this.entries[this.open]?.kind === kind && this.message(this.open)?.messageId === null) {
        // An open message without id adopts the first id that arrives for it.
        index = this.open;
        const e = this.message(index);
        if (e) this.replace(index, { ...e, messageId: id }, ctx);
      }
    } else if (this.open >= 0 && this.entries[this.open]?.kind === kind) {
      index = this.open;
    }

    if (index < 0) {
      const prior = this.matchPrior(kind, (e) => e.kind !== 'tool_call' && textOf(e.content).startsWith(blockText(block)));
      if (prior >= 0) {
        index = prior;
        const e = this.message(index);
        if (e && id !== null && e.messageId !== id) this.replace(index, { ...e, messageId: id }, ctx);
      }
    }

    const text = blockText(block);
    if (index < 0) {
      const bytes = utf8Length(text);
      index = this.append(
        { kind, messageId: id, content: appendBlock([], block).content, meta: null, provenance: this.provenance(), stats: newStats(this.touch(ctx, bytes, true)) },
        ctx,
      );
    } else {
      const e = this.message(index);
      if (!e) return;
      const r = appendBlock(e.content, block, this.tail);
      const stats = touchStats(e.stats, this.touch(ctx, utf8Length(text), true));
      // Spelled out rather than spread: this is the per-chunk hot path.
      const next: MessageEntry = { kind: e.kind, key: e.key, messageId: e.messageId, content: r.content, meta: e.meta, provenance: e.provenance, stats };
      this.replace(index, next, ctx, r.appendedText);
    }
    this.open = index;
    if (kind === 'agent_message') this.lastAgentKey = this.entries[index]?.key ?? null;
  }

  /**
   * A user chunk while the local prompt awaits its echo: repeated text is absorbed (and the echo's id
   * adopted) instead of shown twice. Returns false when the chunk is not for the local prompt.
   */
  private echoChunk(echo: EchoState, id: string | null, block: ContentBlock, ctx: ApplyContext): boolean {
    const index = this.byKey.get(echo.key);
    const e = index === undefined ? undefined : this.message(index);
    if (index === undefined || !e) {
      this.echo = null;
      return false;
    }
    if (id !== null) {
      const known = this.byMessageId.get(id);
      if (known !== undefined && known !== index) {
        this.echo = null;
        return false;
      }
      if (e.messageId !== null && e.messageId !== id) {
        this.echo = null;
        return false;
      }
    }
    const text = blockText(block);
    const stats = touchStats(e.stats, this.touch(ctx, utf8Length(text), true));
    const messageId = e.messageId ?? id;
    if (isPlainText(block) && echo.text.startsWith(text, echo.matched)) {
      echo.matched += text.length;
      this.replace(index, { ...e, messageId, stats }, ctx);
      this.open = index;
      return true;
    }
    // The echo differs from what we sent: the agent's version wins, without repeating the part already echoed.
    const base: ContentBlock[] = echo.matched > 0 ? [{ type: 'text', text: echo.text.slice(0, echo.matched) }] : [];
    this.replace(index, { ...e, messageId, content: appendBlock(base, block).content, stats }, ctx);
    this.echo = null;
    this.open = index;
    return true;
  }

  private upsertMessage(upsertKind: MessageUpsertKind, u: { messageId: string; content?: ContentBlock[] | null; _meta?: Meta | null }, ctx: ApplyContext): void {
    const kind: MessageKind = upsertKind;
    if (kind !== 'user_message') this.endEcho();
    let index = this.byMessageId.get(u.messageId) ?? -1;
    if (index >= 0) {
      const e = this.message(index);
      if (!e || e.kind !== kind) {
        ctx.diagnostic('error', `${upsertKind} rejected: messageId '${u.messageId}' already names a ${e ? e.kind : 'tool_call'}`);
        return;
      }
      this.rebuildIfReplayed(index, ctx);
    } else if (kind === 'user_message' && this.echo && !this.replay) {
      // v2: the agent reports the accepted prompt; the local message takes its id.
      const local = this.byKey.get(this.echo.key);
      const e = local === undefined ? undefined : this.message(local);
      if (local !== undefined && e && e.messageId === null) {
        index = local;
        this.replace(index, { ...e, messageId: u.messageId }, ctx);
      }
      this.echo = null;
    }
    if (index < 0) {
      const want = u.content ? textOf(u.content) : null;
      index = this.matchPrior(kind, (e) => e.kind !== 'tool_call' && (want === null || textOf(e.content) === want));
      const e = index >= 0 ? this.message(index) : undefined;
      if (e) this.replace(index, { ...e, messageId: u.messageId }, ctx);
    }
    const bytes = u.content ? utf8Length(textOf(u.content)) : 0;
    if (index < 0) {
      index = this.append(
        {
          kind,
          messageId: u.messageId,
          content: u.content ?? [],
          meta: patchMeta(null, u._meta),
          provenance: this.provenance(),
          stats: newStats(this.touch(ctx, bytes, false)),
        },
        ctx,
      );
    } else {
      const e = this.message(index);
      if (!e) return;
      const content = u.content === undefined ? e.content : (u.content ?? []);
      this.replace(index, { ...e, content, meta: patchMeta(e.meta, u._meta), stats: touchStats(e.stats, this.touch(ctx, bytes, false)) }, ctx);
    }
    this.open = -1;
    if (kind === 'agent_message') this.lastAgentKey = this.entries[index]?.key ?? null;
  }

  private localPrompt(content: readonly ContentBlock[], ctx: ApplyContext): void {
    const text = textOf(content);
    const index = this.append(
      {
        kind: 'user_message',
        messageId: null,
        content: content.slice(),
        meta: null,
        provenance: 'local',
        stats: newStats({ line: ctx.line, now: ctx.now, bytes: utf8Length(text), chunk: false }),
      },
      ctx,
    );
    const key = this.entries[index]?.key ?? '';
    this.echo = { key, text, matched: 0 };
    this.open = -1;
    this.lastAgentKey = null;
  }

  private promptAnswered(localKey: string | null, messageId: string | null, ctx: ApplyContext): void {
    this.echo = null;
    if (localKey === null || messageId === null) return;
    const index = this.byKey.get(localKey);
    const e = index === undefined ? undefined : this.message(index);
    if (index === undefined || !e || e.messageId === messageId) return;
    const other = this.byMessageId.get(messageId);
    if (e.messageId !== null || (other !== undefined && other !== index)) {
      ctx.diagnostic('warning', `session/prompt response names message '${messageId}', which is not the local prompt's message`);
      return;
    }
    this.replace(index, { ...e, messageId }, ctx);
  }

  // ---- replay -----------------------------------------------------------------------------------

  /**
   * During a load, an entry the replay reaches by id for the first time is rebuilt from the replay:
   * its content starts again from empty (keeping key and position) so nothing is shown twice.
   */
  private rebuildIfReplayed(index: number, ctx: ApplyContext): void {
    const r = this.replay;
    if (!r || index >= r.priorLength || r.touched.has(index)) return;
    r.touched.add(index);
    r.cursor = Math.max(r.cursor, index + 1);
    const e = this.entries[index];
    if (e && e.kind !== 'tool_call') this.replace(index, { ...e, content: [] }, ctx);
  }

  /**
   * A replayed entry with no id match: the prior entry at the replay's position, when it has the same
   * kind and text (ids may be minted fresh by the replay). Returns its index (content reset) or -1.
   */
  private matchPrior(kind: EntryKind, same: (e: Entry) => boolean): number {
    const r = this.replay;
    if (!r || r.cursor >= r.priorLength) return -1;
    const index = r.cursor;
    const e = this.entries[index];
    if (!e || e.kind !== kind || r.touched.has(index) || !same(e)) return -1;
    r.touched.add(index);
    r.cursor = index + 1;
    if (e.kind !== 'tool_call') this.entries[index] = { ...e, content: [] };
    return index;
  }

  // ---- tool calls -------------------------------------------------------------------------------

  private toolEntry(index: number): ToolCallEntry | undefined {
    const e = this.entries[index];
    return e && e.kind === 'tool_call' ? e : undefined;
  }

  private findTool(toolCallId: string, title: string | null): number {
    const known = this.byToolCallId.get(toolCallId);
    if (known !== undefined) {
      const r = this.replay;
      if (r && known < r.priorLength && !r.touched.has(known)) {
        r.touched.add(known);
        r.cursor = Math.max(r.cursor, known + 1);
      }
      return known;
    }
    const prior = this.matchPrior('tool_call', (e) => e.kind === 'tool_call' && (title === null || e.title === title));
    if (prior >= 0) {
      const e = this.toolEntry(prior);
      if (e) {
        this.byToolCallId.delete(e.toolCallId);
        this.byToolCallId.set(toolCallId, prior);
        this.entries[prior] = { ...e, toolCallId };
      }
    }
    return prior;
  }

  private parentKey(messageId: string | null | undefined): string | null {
    if (typeof messageId === 'string') {
      const i = this.byMessageId.get(messageId);
      if (i !== undefined) return this.entries[i]?.key ?? null;
    }
    return this.lastAgentKey;
  }

  private toolCall(t: ToolCallPatch & { title: string }, ctx: ApplyContext): void {
    this.endEcho();
    this.open = -1;
    const index = this.findTool(t.toolCallId, t.title);
    const status = t.status ?? 'pending';
    const snapshot: ToolCallFields = {
      toolCallId: t.toolCallId,
      title: t.title,
      name: t.name ?? null,
      toolKind: t.kind ?? 'other',
      status,
      content: t.content ?? [],
      locations: t.locations ?? [],
      rawInput: t.rawInput ?? null,
      rawOutput: t.rawOutput ?? null,
      meta: t._meta ?? null,
    };
    const bytes = utf8Length(JSON.stringify(snapshot.content));
    if (index < 0) {
      this.appendToolCall(snapshot, this.parentKey(t.messageId), bytes, false, ctx);
      return;
    }
    const e = this.toolEntry(index);
    if (e) this.updateToolCall(index, e, snapshot, t.messageId, bytes, false, ctx);
  }

  /** `tool_call_update` (upsert) or a permission request's `toolCall`. v1: absent/null keep; v2: null clears. */
  private patchToolCall(p: ToolCallPatch, ctx: ApplyContext, isUpdate: boolean): void {
    this.endEcho();
    this.open = -1;
    const v2 = ctx.version === PROTOCOL_V2;
    const index = this.findTool(p.toolCallId, p.title ?? null);
    const bytes = p.content ? utf8Length(JSON.stringify(p.content)) : 0;
    if (index < 0) {
      if (isUpdate && !v2) ctx.diagnostic('warning', `tool_call_update for unknown tool call '${p.toolCallId}' creates it`);
      const fields: ToolCallFields = {
        toolCallId: p.toolCallId,
        title: p.title ?? p.name ?? '',
        name: p.name ?? null,
        toolKind: p.kind ?? 'other',
        status: p.status ?? 'pending',
        content: p.content ?? [],
        locations: p.locations ?? [],
        rawInput: p.rawInput ?? null,
        rawOutput: p.rawOutput ?? null,
        meta: v2 ? patchMeta(null, p._meta) : (p._meta ?? null),
      };
      this.appendToolCall(fields, this.parentKey(p.messageId), bytes, false, ctx);
      return;
    }
    const e = this.toolEntry(index);
    if (!e) return;
    // v1 (and any permission toolCall): absent or null leave the value. v2 update: null clears to the default.
    const pick = <T, D>(value: T | null | undefined, current: D, cleared: D): T | D =>
      value === undefined ? current : value === null ? (v2 ? cleared : current) : value;
    this.updateToolCall(
      index,
      e,
      {
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
        meta: v2 ? patchMeta(e.meta, p._meta) : mergeMetaV1(e.meta, p._meta),
      },
      p.messageId,
      bytes,
      false,
      ctx,
    );
  }

  private toolContentChunk(toolCallId: string, item: ToolCallContent, ctx: ApplyContext): void {
    this.endEcho();
    this.open = -1;
    const index = this.findTool(toolCallId, null);
    const bytes = utf8Length(JSON.stringify(item));
    if (index < 0) {
      ctx.diagnostic('warning', `tool_call_content_chunk for unknown tool call '${toolCallId}' creates it`);
      const fields: ToolCallFields = {
        toolCallId,
        title: '',
        name: null,
        toolKind: 'other',
        status: 'pending',
        content: [item],
        locations: [],
        rawInput: null,
        rawOutput: null,
        meta: null,
      };
      this.appendToolCall(fields, this.lastAgentKey, bytes, true, ctx);
      return;
    }
    const e = this.toolEntry(index);
    if (!e) return;
    this.replace(index, { ...e, content: [...e.content, item], stats: touchStats(e.stats, this.touch(ctx, bytes, true)) }, ctx);
  }

  /** Every new tool call, whichever update announced it, gets the same bookkeeping here. */
  private appendToolCall(fields: ToolCallFields, parentKey: string | null, bytes: number, chunk: boolean, ctx: ApplyContext): void {
    this.append(
      {
        kind: 'tool_call',
        ...fields,
        parentKey,
        statusHistory: [{ status: fields.status, at: ctx.now }],
        provenance: this.provenance(),
        stats: newStats(this.touch(ctx, bytes, chunk)),
      },
      ctx,
    );
  }

  /** A changed tool call: new field values, its message link if the update names one, status history, counters. */
  private updateToolCall(
    index: number,
    e: ToolCallEntry,
    fields: Partial<ToolCallFields>,
    messageId: string | null | undefined,
    bytes: number,
    chunk: boolean,
    ctx: ApplyContext,
  ): void {
    const status = fields.status ?? e.status;
    this.replace(
      index,
      {
        ...e,
        ...fields,
        parentKey: typeof messageId === 'string' ? this.parentKey(messageId) : e.parentKey,
        statusHistory: withStatus(e.statusHistory, status, ctx.now),
        stats: touchStats(e.stats, this.touch(ctx, bytes, chunk)),
      },
      ctx,
    );
  }

  /** The user's cancel: every tool call not yet finished becomes `cancelled` (provenance unchanged). */
  private cancel(ctx: ApplyContext): void {
    this.echo = null;
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (!e || e.kind !== 'tool_call' || FINISHED.has(e.status)) continue;
      this.replace(i, { ...e, status: 'cancelled', statusHistory: withStatus(e.statusHistory, 'cancelled', ctx.now) }, ctx);
    }
  }
}

/** The protocol-owned fields of a tool call (the rest is the store's bookkeeping). */
type ToolCallFields = Pick<ToolCallEntry, 'toolCallId' | 'title' | 'name' | 'toolKind' | 'status' | 'content' | 'locations' | 'rawInput' | 'rawOutput' | 'meta'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
    else out[k] = v;
  }
  return out;
}

/** v1: an update's `_meta` object is merged by top-level key; null or absent leaves the meta as it was. */
function mergeMetaV1(current: Meta | null, patch: Meta | null | undefined): Meta | null {
  if (!patch || typeof patch !== 'object') return current;
  return { ...(current ?? {}), ...patch };
}
