/**
 * The session/load window: while the agent replays a session's history, replayed updates are matched to
 * the entries already shown (the "prior" entries, those before the load started) instead of being
 * appended a second time, and a match never makes a prior entry worse.
 *
 * Replays differ from the live stream that built the prior entries: thoughts are dropped, chunks are
 * merged (even two messages that a thought or tool call separated live arrive as one), tool calls come
 * with fewer fields or other titles (a diff becomes one line of text, a shell command's title becomes
 * "bash"), and message and tool-call ids are missing or minted afresh. The matching rule:
 *
 * 1. Alignment. The replay is walked against the prior entries in order, with a cursor just past the last
 *    prior entry matched. A replayed item is matched by id when its `messageId` / `toolCallId` names a prior
 *    entry; otherwise to the first prior entry from the cursor that is not matched yet, has the same kind
 *    and fits it (below). Prior entries the replay skips (thoughts it dropped, a turn it did not record)
 *    stay as they are. A search for an agent message, thought or tool call stops at the next prior user
 *    message, so a replayed item never matches into a later turn; a user message may skip whole turns.
 * 2. Messages fit by text, whitespace removed: one starts with the other, or they share a beginning of at
 *    least 8 characters and half the shorter text (the same message told differently). Each
 *    chunk then confirms the next part of the prior text. A chunk that runs past the end of its prior
 *    message continues into the next prior message of the same kind in the turn when that one starts with
 *    the rest (a replay that merged messages); without such a continuation the replay has more or other
 *    text than was shown, and from the first differing character on the replay's text is used (the part
 *    already confirmed stays). A replay that ends early leaves the prior text whole.
 * 3. Tool calls fit by kind (equal, or either unknown / `other`); among those before the turn ends, one
 *    with the same title or raw input is preferred. A matched tool call keeps every field it already had
 *    when the load started (title, kind, content, locations, rawInput, rawOutput, name, _meta): the
 *    replay only fills what was empty, and a status only moves forward (pending < in_progress < finished).
 * 4. Ids. A matched entry takes the replay's id (later updates use it), unless the replay has none or
 *    the id already names another entry of its kind (ids are scoped by kind). Keys and provenance never change.
 * 5. A replayed item that fits nothing is appended (provenance `replay`), like any new entry, with one
 *    exception: a replayed user message that fits nothing while shown user or agent messages are still
 *    ahead of the cursor is history the user never saw (Gemini CLI replays its `<session_context>` preamble
 *    and a `[Function Response: …]` user message after each tool call). It is kept out of the transcript
 *    and reported as a warning diagnostic with its text; the capture keeps it whole. A whole replayed
 *    message (8+ characters) that fits a shown message ahead starts that message, even with no id to
 *    separate it from the unmatched one before it.
 * 6. The window opens with the session/load request and, after a successful response, stays open until
 *    the next prompt: some agents stream the replay after answering. A tool call matched by id does not
 *    move the cursor (replays may group a turn's tool calls ahead of the messages between them).
 *
 * Everything here changes entries through EntryTable, so each change reaches the views. How replayed text
 * is compared with shown text (rule 2's measures) is replayText.ts: pure functions of two strings.
 */
import type { ContentBlock } from '../protocol/content';
import { appendBlock, blockText, textOf } from './content';
import { type StepDeps, touchOf } from './stepDeps';
import type { EntryTable } from './entryTable';
import type { Entry, MessageEntry, Provenance, ToolCallEntry } from './model';
import { touchStatsReplayed, utf8Length } from './stats';
import { commonLength, dropSquashed, fitsStart, quote, squash } from './replayText';
import { PriorIndex } from './replayIndex';
import { KEPT_FIELDS, type KeptField, type ReplayCurrent, type ReplayState } from './replayState';

/** A prior message's progress once its replay said other words than were shown (rule 2): the rest of that replay is ignored. */
const DIFFERS = -2;

/** `ReplayWindow.chunk`'s answer for a replayed message kept out of the transcript (rule 5). */
export const HIDDEN = -2;

/** What a tool-call update says that helps find its prior entry. */
export interface ToolHint {
  readonly title: string | null;
  readonly kind: string | null;
  readonly rawInput: unknown;
}

export class ReplayWindow {
  state: ReplayState | null = null;
  /** Whitespace-free text per message content (by reference), so a finely chunked replay stays linear. */
  private readonly norms = new WeakMap<readonly ContentBlock[], string>();
  private prior: { readonly state: ReplayState; readonly index: PriorIndex } | null = null;

  constructor(private readonly table: EntryTable) {}

  get active(): boolean {
    return this.state !== null;
  }

  /** Opens the window; the prior entries at `skip` are taken already (folded turns: foldRules.ts). */
  start(skip: readonly number[] = []): void {
    this.state = { priorLength: this.table.length, cursor: 0, touched: new Set(skip), progress: new Map(), kept: new Map(), current: null };
  }

  end(): void {
    this.state = null;
  }

  /** What a new entry's provenance is: appended during a load, it came from the replay. */
  provenance(): Provenance {
    return this.state ? 'replay' : 'live';
  }

  // ---- messages ---------------------------------------------------------------------------------

  /** A replayed chunk. Returns the prior entry it was applied to, or -1 when the message rules handle it. */
  chunk(kind: ReplayCurrent['kind'], id: string | null, block: ContentBlock, ctx: StepDeps): number {
    const r = this.state;
    if (!r) return -1;
    const cur = r.current;
    if (id !== null) {
      const known = this.table.indexOfMessageId(kind, id);
      if (known !== undefined) {
        if (known >= r.priorLength) {
          r.current = { kind, id, index: -1 };
          return -1;
        }
        if (!cur || cur.index !== known) {
          r.current = { kind, id, index: known };
          this.claim(known);
        }
        return this.consume(known, block, false, ctx);
      }
    }
    // The Zed rule: a chunk without id (or the first id of an anonymous message) continues the open message.
    if (cur && cur.kind === kind && (id === null || cur.id === null)) {
      if (cur.index < 0) return this.startsShown(kind, id, block, ctx) ?? (cur.index === HIDDEN ? this.hide(kind, block, ctx) : -1);
      if (id !== null) {
        cur.id = id;
        this.adoptMessageId(cur.index, id, ctx);
      }
      return this.consume(cur.index, block, cur.id === null, ctx);
    }
    const want = squash(blockText(block));
    const found = this.find(kind, (e) => e.kind === kind && fitsStart(this.norm(e.content), want), undefined, want);
    if (found < 0 && kind === 'user_message' && this.messagesAhead()) {
      r.current = { kind, id, index: HIDDEN };
      return this.hide(kind, block, ctx);
    }
    r.current = { kind, id, index: found };
    if (found < 0) return -1;
    this.claim(found);
    if (id !== null) this.adoptMessageId(found, id, ctx);
    return this.consume(found, block, id === null, ctx, want);
  }

  /**
   * A whole replayed message that fits a shown message ahead while the open replayed message is unmatched:
   * it starts that shown message (the replay had no id to separate the two). Undefined when it does not.
   */
  private startsShown(kind: ReplayCurrent['kind'], id: string | null, block: ContentBlock, ctx: StepDeps): number | undefined {
    const r = this.state;
    const want = squash(blockText(block));
    if (!r || want.length < 8) return undefined;
    const found = this.find(kind, (e) => e.kind === kind && fitsStart(this.norm(e.content), want), undefined, want);
    if (found < 0) return undefined;
    r.current = { kind, id, index: found };
    this.claim(found);
    if (id !== null) this.adoptMessageId(found, id, ctx);
    return this.consume(found, block, id === null, ctx, want);
  }

  /** Whether a shown user or agent message after the cursor is still unmatched. */
  private messagesAhead(): boolean {
    const r = this.state;
    return r !== null && this.index(r).messagesAhead(r.cursor, (i) => r.touched.has(i));
  }

  /** Rule 5's exception: the chunk is reported, not shown. */
  private hide(kind: ReplayCurrent['kind'], block: ContentBlock, ctx: StepDeps): number {
    ctx.diagnostic('warning', `replayed ${kind} matches nothing shown and is kept out of the transcript (history the user never saw): ${quote(blockText(block))}`);
    return HIDDEN;
  }

  /** A replayed v2 message upsert. Returns the prior entry it was applied to, or -1 when the message rules handle it. */
  upsert(kind: ReplayCurrent['kind'], u: { readonly messageId: string; readonly content?: readonly ContentBlock[] | null }, ctx: StepDeps): number {
    const r = this.state;
    if (!r) return -1;
    r.current = null;
    const want = u.content ? squash(textOf(u.content)) : null;
    let index = this.table.indexOfMessageId(kind, u.messageId) ?? -1;
    if (index >= 0) {
      if (index >= r.priorLength) return -1;
    } else if (want !== null) {
      index = this.find(kind, (e) => e.kind === kind && (this.norm(e.content).startsWith(want) || want.startsWith(this.norm(e.content))), undefined, want);
    }
    const e = index >= 0 ? this.table.message(index) : undefined;
    if (!e) return -1;
    this.claim(index);
    // Never downgrade: the prior content stays unless the replay's says more; other words are said and marked (rule 2).
    const prior = this.norm(e.content);
    const differs = want !== null && !prior.startsWith(want) && !want.startsWith(prior);
    const keep = !u.content || prior.startsWith(want ?? '') || differs;
    const messageId = this.table.indexOfMessageId(kind, u.messageId) === undefined ? u.messageId : e.messageId;
    const touch = touchOf(ctx, u.content ? utf8Length(textOf(u.content)) : 0, false);
    const next = { ...e, messageId, content: keep ? e.content : (u.content ?? []), stats: touchStatsReplayed(e.stats, touch) };
    if (differs && !e.replayDiffers) this.differs(index, next, textOf(u.content ?? []), touch, ctx);
    else this.table.replace(index, next, ctx);
    return index;
  }

  /**
   * Applies a chunk to the prior message at `index`: confirms prior text, moves on to the next prior
   * message when the replay merged them (`mayMove`), or from the first difference on appends the replay's text
   * (`squashed`: the block's text without whitespace, when the caller has it).
   */
  private consume(index: number, block: ContentBlock, mayMove: boolean, ctx: StepDeps, squashed?: string): number {
    const r = this.state;
    const e = this.table.message(index);
    if (!r || !e) return -1;
    const raw = blockText(block);
    const touch = touchOf(ctx, utf8Length(raw), true);
    const done = r.progress.get(index) ?? 0;
    if (done === DIFFERS) {
      this.table.replace(index, { ...e, stats: touchStatsReplayed(e.stats, touch) }, ctx);
      return index;
    }
    if (done < 0) {
      const a = appendBlock(e.content, block);
      this.table.replace(index, { ...e, content: a.content, stats: touchStatsReplayed(e.stats, touch) }, ctx, a.appendedText);
      return index;
    }
    const prior = this.norm(e.content);
    const want = squashed ?? squash(raw);
    if (prior.startsWith(want, done)) {
      r.progress.set(index, done + want.length);
      this.table.replace(index, { ...e, stats: touchStatsReplayed(e.stats, touch) }, ctx);
      return index;
    }
    const rest = prior.slice(done);
    if (mayMove && want.startsWith(rest)) {
      const tail = want.slice(rest.length);
      const next = this.find(e.kind, (x) => x.kind === e.kind && this.norm(x.content).startsWith(tail), index + 1, tail);
      const n = next >= 0 ? this.table.message(next) : undefined;
      if (n && r.current) {
        r.progress.set(index, prior.length);
        this.table.replace(index, { ...e, stats: touchStatsReplayed(e.stats, touch) }, ctx);
        this.claim(next);
        r.current.index = next;
        r.progress.set(next, tail.length);
        this.table.replace(next, { ...n, stats: touchStatsReplayed(n.stats, touch) }, ctx);
        return next;
      }
    }
    const same = commonLength(want, prior, done);
    if (done + same === prior.length) {
      // The replay has more text than was shown (a turn cut short): what it confirmed, then its own text.
      r.progress.set(index, -1);
      const a = appendBlock(e.content, { type: 'text', text: dropSquashed(raw, same) });
      this.table.replace(index, { ...e, content: a.content, stats: touchStatsReplayed(e.stats, touch) }, ctx, a.appendedText);
      return index;
    }
    // Other words than were shown: what the user saw stays; the difference is said and marked, the rest of this replayed message ignored.
    r.progress.set(index, DIFFERS);
    this.differs(index, e, raw, touch, ctx);
    return index;
  }

  /** Marks a shown message whose replay differs from it (once), with a diagnostic quoting the replay. */
  private differs(index: number, e: MessageEntry, replayed: string, touch: ReturnType<typeof touchOf>, ctx: StepDeps): void {
    ctx.diagnostic('warning', `session/load replay of ${e.kind} ${e.key ?? ''} differs from what was shown; the shown text is kept (the replay says: ${quote(replayed)})`);
    // Object.assign, not a spread: a spread that adds a field the entry lacks builds its object on V8's slow
    // path (1.2 µs against 0.2), once for every message of a replay told in other words (replay.bench.ts).
    this.table.replace(index, Object.assign({}, e, { replayDiffers: true, stats: touchStatsReplayed(e.stats, touch) }), ctx);
  }

  private adoptMessageId(index: number, id: string, ctx: StepDeps): void {
    const e = this.table.message(index);
    if (!e || e.messageId === id || this.table.indexOfMessageId(e.kind, id) !== undefined) return;
    this.table.replace(index, { ...e, messageId: id }, ctx);
  }

  // ---- tool calls -------------------------------------------------------------------------------

  /** A replayed tool-call update: its prior entry (by id, else by alignment), or -1. `known` is the id's index. */
  toolCall(toolCallId: string, known: number | undefined, hint: ToolHint, ctx: StepDeps): number {
    const r = this.state;
    if (!r) return known ?? -1;
    r.current = null;
    if (known !== undefined) {
      // Matched by id, not by position: replays may group a turn's tool calls ahead of the messages
      // between them (Gemini CLI), so this match does not move the cursor past those messages.
      if (known < r.priorLength) this.claim(known, false);
      return known;
    }
    const fits = (e: Entry): e is ToolCallEntry => e.kind === 'tool_call' && (hint.kind === null || hint.kind === 'other' || e.toolKind === 'other' || e.toolKind === hint.kind);
    const same = (e: Entry) =>
      fits(e) && ((hint.title !== null && e.title === hint.title) || (!isEmpty(hint.rawInput) && JSON.stringify(e.rawInput) === JSON.stringify(hint.rawInput)));
    let index = this.find('tool_call', same);
    if (index < 0) index = this.find('tool_call', fits);
    const e = index >= 0 ? this.table.toolCall(index) : undefined;
    if (!e) return -1;
    this.claim(index);
    this.table.replace(index, { ...e, toolCallId }, ctx);
    return index;
  }

  /** Whether a replayed update must leave this field of the tool call at `index` as it is. */
  keeps(index: number, field: KeptField): boolean {
    return this.state?.kept.get(index)?.includes(field) ?? false;
  }

  /** A status only moves forward during a replay. */
  status(index: number, current: string, incoming: string): string {
    const r = this.state;
    if (!r || index >= r.priorLength) return incoming;
    return rank(incoming) > rank(current) ? incoming : current;
  }

  // ---- alignment --------------------------------------------------------------------------------

  /**
   * First prior entry of `kind` from `from` (default: the cursor) not matched yet that satisfies `fits`; stops at
   * a user message unless looking for one. `want`: a message's replayed text, so only messages it may fit are
   * looked at (replayIndex.ts): each look-up costs what it finds, not the history ahead.
   */
  private find(kind: Entry['kind'], fits: (e: Entry) => boolean, from?: number, want: string | null = null): number {
    const r = this.state;
    return r ? this.index(r).first(kind, want, from ?? r.cursor, (i) => r.touched.has(i), fits) : -1;
  }

  /** The index of this window's prior entries, built on first use (also after a restore). */
  private index(r: ReplayState): PriorIndex {
    if (this.prior?.state !== r) {
      // Only messages are found by their text; the table's `message` is the one test of what a message is.
      const text = (_e: Entry, i: number) => {
        const m = this.table.message(i);
        return m ? this.norm(m.content) : null;
      };
      this.prior = { state: r, index: new PriorIndex((i) => this.table.at(i), r.priorLength, text) };
    }
    return this.prior.index;
  }

  /** Marks a prior entry matched; a tool call's fields that hold something are kept from now on. */
  private claim(index: number, moveCursor = true): void {
    const r = this.state;
    if (!r || index >= r.priorLength || r.touched.has(index)) return;
    r.touched.add(index);
    if (moveCursor) r.cursor = Math.max(r.cursor, index + 1);
    const t = this.table.toolCall(index);
    if (t)
      r.kept.set(
        index,
        KEPT_FIELDS.filter((f) => !isEmpty(t[f]) && !(f === 'toolKind' && t.toolKind === 'other')),
      );
  }

  private norm(content: readonly ContentBlock[]): string {
    let s = this.norms.get(content);
    if (s === undefined) {
      s = squash(textOf(content));
      this.norms.set(content, s);
    }
    return s;
  }
}

function rank(status: string): number {
  return status === 'pending' ? 0 : status === 'in_progress' ? 1 : 2;
}

/** Nothing worth keeping: null, an empty string, array or object. */
function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}
