/**
 * The message rules: v1 `*_chunk` updates (by `messageId`, with the Zed merge rule when ids are missing),
 * v2 whole-message upserts, the local prompt and the agent's echo of it, and the prompt response's id.
 */
import { HIDDEN } from './replayWindow';
import type { ContentBlock, Meta } from '../protocol/content';
import { PROTOCOL_V2 } from '../protocol/methods';
import type { ChunkKind, ContentChunk, MessageUpsertKind, RoutePatch } from '../protocol/updates';
import { appendBlock, blockText, isPlainText, TextTail, textOf } from './content';
import { type StepDeps, type Bookkeeping, type EchoState, touchOf } from './stepDeps';
import type { EntryTable } from './entryTable';
import type { EntryStats, MessageEntry, MessageKind } from './model';
import type { ChunkRunAction } from './actions';
import type { ReplayWindow } from './replayWindow';
import { newStats, touchStats, touchStatsRun, utf8Length } from './stats';
import { patchMeta } from './toolCallRules';

const ALL_KINDS: readonly MessageKind[] = ['user_message', 'agent_message', 'agent_thought', 'session_message'];

const CHUNK_TO_KIND: Record<ChunkKind, MessageKind> = {
  user_message_chunk: 'user_message',
  agent_message_chunk: 'agent_message',
  agent_thought_chunk: 'agent_thought',
  session_message_chunk: 'session_message',
};

export type MessageUpsert = { readonly messageId: string; readonly content?: ContentBlock[] | null; readonly _meta?: Meta | null };

type Route = NonNullable<MessageEntry['route']>;
const NO_ROUTE: Route = { senderSessionId: null, recipientSessionId: null, senderMessageId: null, recipientMessageId: null };

/** A session message's route after a patch: each field omitted = unchanged, null = cleared, a value = replaced. */
function patchRoute(current: Route | undefined, patch: RoutePatch | undefined): Route {
  const r = current ?? NO_ROUTE;
  if (!patch) return r;
  const pick = (v: string | null | undefined, old: string | null) => (v === undefined ? old : v);
  return {
    senderSessionId: pick(patch.senderSessionId, r.senderSessionId),
    recipientSessionId: pick(patch.recipientSessionId, r.recipientSessionId),
    senderMessageId: pick(patch.senderMessageId, r.senderMessageId),
    recipientMessageId: pick(patch.recipientMessageId, r.recipientMessageId),
  };
}

export class MessageRules {
  /** Keeps streamed text compact (see TextTail); follows whichever message is being streamed. */
  private readonly tail = new TextTail();

  constructor(
    private readonly table: EntryTable,
    private readonly book: Bookkeeping,
    private readonly replay: ReplayWindow,
  ) {}

  chunk(chunkKind: ChunkKind, chunk: ContentChunk, ctx: StepDeps): void {
    const kind = CHUNK_TO_KIND[chunkKind];
    const { content: block, messageId: id } = chunk;
    // An empty text chunk opens nothing and changes nothing (agents send "" at block starts and with usage _meta).
    if (block.type === 'text' && block.text === '') return;
    const book = this.book;
    if (kind !== 'user_message') book.echo = null;
    else if (book.echo && !this.replay.active && this.echoChunk(book.echo, id, block, ctx)) return;
    // A session message always has its id, so a replayed one finds its entry by id (below) and is not matched by text.
    if (this.replay.active && kind !== 'session_message') {
      const prior = this.replay.chunk(kind, id, block, ctx);
      if (prior === HIDDEN) return;
      if (prior >= 0) return this.landed(kind, prior, -1);
    }

    let index = -1;
    if (id !== null) {
      const known = this.table.indexOfMessageId(kind, id);
      if (known !== undefined) {
        index = known;
      } else if (ctx.version !== PROTOCOL_V2 && book.open >= 0 && this.table.message(book.open)?.kind === kind && this.table.message(book.open)?.messageId === null) {
        // An open message without id adopts the first id that arrives for it.
        index = book.open;
        const e = this.table.message(index);
        if (e) this.table.replace(index, { ...e, messageId: id }, ctx);
      }
    } else if (book.open >= 0 && this.table.at(book.open)?.kind === kind) {
      index = book.open;
    }

    const text = blockText(block);
    if (index < 0) {
      if (id !== null) this.warnReuse(chunkKind, kind, id, ctx);
      const bytes = utf8Length(text);
      index = this.table.append(
        {
          kind,
          messageId: id,
          content: appendBlock([], block).content,
          meta: null,
          ...(kind === 'session_message' ? { route: NO_ROUTE } : {}),
          provenance: this.replay.provenance(),
          stats: newStats(touchOf(ctx, bytes, true)),
        },
        ctx,
      );
    } else {
      const e = this.table.message(index);
      if (!e) return;
      this.appendTo(index, e, block, touchStats(e.stats, touchOf(ctx, utf8Length(text), true)), ctx);
    }
    this.landed(kind, index, index);
  }

  /**
   * Whether a text chunk of `chunkKind` and `id` would do nothing but append its text to the open message,
   * so that a run of them may be applied as one step (chunkRun.ts): live (no replay, no prompt echo
   * awaited) and landing where `chunk` would land it.
   */
  continues(chunkKind: ChunkKind, id: string | null): boolean {
    if (this.replay.active || this.book.echo !== null) return false;
    const kind = CHUNK_TO_KIND[chunkKind];
    const open = this.book.open;
    return this.table.message(open)?.kind === kind && (id === null || this.table.indexOfMessageId(kind, id) === open);
  }

  /** A run of chunks `continues` accepted, joined: the same entry `chunk` would make of them one by one. */
  run(a: ChunkRunAction, ctx: StepDeps): void {
    const index = this.book.open;
    const e = this.table.message(index);
    if (!e) return;
    this.appendTo(index, e, { type: 'text', text: a.text }, touchStatsRun(e.stats, a.lines, utf8Length(a.text), ctx.now), ctx);
    this.landed(e.kind, index, index);
  }

  private appendTo(index: number, e: MessageEntry, block: ContentBlock, stats: EntryStats, ctx: StepDeps): void {
    const r = appendBlock(e.content, block, this.tail);
    // Spelled out rather than spread: this is the per-chunk hot path.
    const next: MessageEntry =
      e.route === undefined
        ? { kind: e.kind, key: e.key, messageId: e.messageId, content: r.content, meta: e.meta, provenance: e.provenance, stats }
        : { kind: e.kind, key: e.key, messageId: e.messageId, content: r.content, meta: e.meta, route: e.route, provenance: e.provenance, stats };
    this.table.replace(index, next, ctx, r.appendedText);
  }

  /** A new message whose id already names a message of another kind: kept apart (ids are scoped by kind), reported. */
  private warnReuse(update: string, kind: MessageKind, id: string, ctx: StepDeps): void {
    const other = this.table.kindWithMessageId(
      id,
      ALL_KINDS.filter((k) => k !== kind),
    );
    if (other !== undefined)
      ctx.diagnostic('warning', `${update}: messageId '${id}' already names an entry of kind ${other}; kept as a separate ${kind} (message ids are scoped by kind)`);
  }

  /** Bookkeeping after a message update: the message anonymous chunks merge into, and the tool calls' parent. */
  private landed(kind: MessageKind, index: number, open: number): void {
    this.book.open = open;
    if (kind === 'agent_message') this.book.lastAgentKey = this.table.at(index)?.key ?? null;
  }

  /**
   * A user chunk while the local prompt awaits its echo: repeated text is absorbed (and the echo's id
   * adopted) instead of shown twice. Returns false when the chunk is not for the local prompt.
   */
  private echoChunk(echo: EchoState, id: string | null, block: ContentBlock, ctx: StepDeps): boolean {
    const book = this.book;
    const index = this.table.indexOfKey(echo.key);
    const e = index === undefined ? undefined : this.table.message(index);
    if (index === undefined || !e) {
      book.echo = null;
      return false;
    }
    if (id !== null) {
      const known = this.table.indexOfMessageId('user_message', id);
      if ((known !== undefined && known !== index) || (e.messageId !== null && e.messageId !== id)) {
        book.echo = null;
        return false;
      }
    }
    const text = blockText(block);
    const stats = touchStats(e.stats, touchOf(ctx, utf8Length(text), true));
    const messageId = e.messageId ?? id;
    if (isPlainText(block) && echo.text.startsWith(text, echo.matched)) {
      echo.matched += text.length;
      this.table.replace(index, { ...e, messageId, stats }, ctx);
      book.open = index;
      return true;
    }
    // The echo differs from what we sent: the agent's version wins, without repeating the part already echoed.
    const base: ContentBlock[] = echo.matched > 0 ? [{ type: 'text', text: echo.text.slice(0, echo.matched) }] : [];
    this.table.replace(index, { ...e, messageId, content: appendBlock(base, block).content, stats }, ctx);
    book.echo = null;
    book.open = index;
    return true;
  }

  /**
   * v2 `user_message` / `agent_message` / `agent_thought`, and `session_message` (with its `route`): a
   * whole-message upsert (omitted = unchanged, null = clear).
   */
  upsert(upsertKind: MessageUpsertKind, u: MessageUpsert, ctx: StepDeps, route?: RoutePatch): void {
    const kind: MessageKind = upsertKind;
    const book = this.book;
    if (kind !== 'user_message') book.echo = null;
    if (this.replay.active && kind !== 'session_message') {
      const prior = this.replay.upsert(kind, u, ctx);
      if (prior >= 0) return this.landed(kind, prior, -1);
    }
    let index = this.table.indexOfMessageId(kind, u.messageId) ?? -1;
    if (index < 0 && kind === 'user_message' && book.echo && !this.replay.active) {
      // v2: the agent reports the accepted prompt; the local message takes its id.
      const local = this.table.indexOfKey(book.echo.key);
      const e = local === undefined ? undefined : this.table.message(local);
      if (local !== undefined && e && e.messageId === null) {
        index = local;
        this.table.replace(index, { ...e, messageId: u.messageId }, ctx);
      }
      book.echo = null;
    }
    const bytes = u.content ? utf8Length(textOf(u.content)) : 0;
    if (index < 0) {
      this.warnReuse(upsertKind, kind, u.messageId, ctx);
      index = this.table.append(
        {
          kind,
          messageId: u.messageId,
          content: u.content ?? [],
          meta: patchMeta(null, u._meta),
          ...(kind === 'session_message' ? { route: patchRoute(undefined, route) } : {}),
          provenance: this.replay.provenance(),
          stats: newStats(touchOf(ctx, bytes, false)),
        },
        ctx,
      );
    } else {
      const e = this.table.message(index);
      if (!e) return;
      const content = u.content === undefined ? e.content : (u.content ?? []);
      const routed = kind === 'session_message' ? { route: patchRoute(e.route, route) } : {};
      this.table.replace(index, { ...e, content, meta: patchMeta(e.meta, u._meta), ...routed, stats: touchStats(e.stats, touchOf(ctx, bytes, false)) }, ctx);
    }
    this.landed(kind, index, -1);
  }

  /**
   * The last local prompt no response answered (the agent died with it, or before it), while nothing came
   * after it. Not saved: a snapshot restores without it, and then a resend is shown as a new entry.
   */
  private unanswered: { readonly key: string; readonly content: string } | null = null;

  /** Client->agent `session/prompt`: the user's prompt is shown at once and waits for the agent's echo. */
  localPrompt(content: readonly ContentBlock[], ctx: StepDeps): void {
    const text = textOf(content);
    const same = JSON.stringify(content);
    const last = this.table.at(this.table.length - 1);
    // The same prompt sent again after the agent never answered it (Resend after a crash): it is the
    // entry already shown, once, not a second copy.
    if (this.unanswered && last?.key === this.unanswered.key && this.unanswered.content === same) {
      this.book.echo = { key: last.key, text, matched: 0 };
      this.book.open = -1;
      this.book.lastAgentKey = null;
      return;
    }
    this.unanswered = null;
    const index = this.table.append(
      { kind: 'user_message', messageId: null, content: content.slice(), meta: null, provenance: 'local', stats: newStats(touchOf(ctx, utf8Length(text), false)) },
      ctx,
    );
    const key = this.table.at(index)?.key ?? '';
    this.unanswered = { key, content: same };
    this.book.echo = { key, text, matched: 0 };
    this.book.open = -1;
    this.book.lastAgentKey = null;
  }

  /** The `session/prompt` response: v2 names the accepted user message, which the local prompt adopts. */
  promptAnswered(localKey: string | null, messageId: string | null, ctx: StepDeps): void {
    this.book.echo = null;
    if (this.unanswered?.key === localKey) this.unanswered = null;
    if (localKey === null || messageId === null) return;
    const index = this.table.indexOfKey(localKey);
    const e = index === undefined ? undefined : this.table.message(index);
    if (index === undefined || !e || e.messageId === messageId) return;
    const other = this.table.indexOfMessageId('user_message', messageId);
    if (e.messageId !== null || (other !== undefined && other !== index)) {
      ctx.diagnostic('warning', `session/prompt response names message '${messageId}', which is not the local prompt's message`);
      return;
    }
    this.table.replace(index, { ...e, messageId }, ctx);
  }
}
