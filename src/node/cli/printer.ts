/**
 * Plain-text transcript for `cli run`: agent text as it streams, `[thought]` blocks, one
 * `[tool] title (status)` line per tool-call status change, plans and permission decisions.
 * Subagents: a child session's lines are indented under its parent (two spaces per depth), with
 * `[subagent] …` lines when one starts or its state changes and `[to subagent …]` / `[from subagent …]`
 * lines for the messages between them. Only the run's session and the subagents announced under it are
 * printed (`sessionTree.ts`); another session's update is dropped, with one warning per session id.
 * `[compaction] status` once per compaction state (with its error, and the start of a summary when sent;
 * streamed summary chunks as `[compaction summary] …`), `[notice severity] title — description`.
 * Reads only the few update fields it prints (tolerantly); the full model is the store's job.
 *
 * Every line the client prints begins with a `[marker]`, and agent strings cannot start one (issue 39): a
 * line break inside an agent field of a whole line (a title, a plan entry, an id) is shown as ␤, and a line
 * of the agent's prose (its text, messages) that would begin with `[` is escaped as Markdown does, `\[`.
 */
import * as z from 'zod';
import type { SessionNotification } from '../../common/protocol/requests';
import { SessionMessages } from './sessionMessages';
import { SessionTree } from './sessionTree';
import { isRecord } from '../../common/util/guards';

const zChunk = z.looseObject({ content: z.looseObject({ type: z.string(), text: z.string().optional() }) });
const zTool = z.looseObject({ toolCallId: z.string(), title: z.string().nullish(), status: z.string().nullish() });
/** Claude's link from a subagent's tool call to the `Agent` call that started it (when it has no session of its own). */
const zParentToolUse = z.looseObject({ _meta: z.looseObject({ claudeCode: z.looseObject({ parentToolUseId: z.string() }) }) });
const zPlan = z.looseObject({ entries: z.array(z.looseObject({ content: z.string(), status: z.string() })) });
/** v2 draft whole-message upsert: printed when it carries content (a `_meta`-only patch prints nothing). */
const zUpsert = z.looseObject({ content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })) });
const zPlanUpdate = z.looseObject({ plan: z.looseObject({ type: z.literal('items'), entries: zPlan.shape.entries }) });
const zBlocks = z.array(z.looseObject({ type: z.string(), text: z.string().optional() }));
const zCompaction = z.looseObject({ compactionId: z.string(), status: z.string(), summary: zBlocks.nullish().catch(undefined), error: z.string().nullish().catch(undefined) });
const zCompactionChunk = z.looseObject({ compactionId: z.string(), content: zChunk.shape.content });
const zNotice = z.looseObject({ severity: z.string().catch('info'), title: z.string(), description: z.string().nullish().catch(undefined) });
/**
 * A chunk's content as `zChunk` reads it: the common shape checked by hand first (a text block, as nearly
 * every chunk is: exactly what zChunk accepts for it), anything else through zChunk.
 */
function chunkContent(u: unknown): { type: string; text?: string | undefined } | undefined {
  const c = isRecord(u) ? u.content : undefined;
  if (isRecord(c) && c.type === 'text' && typeof c.text === 'string') return { type: 'text', text: c.text };
  const r = zChunk.safeParse(u);
  return r.success ? r.data.content : undefined;
}

/** A summary printed whole would bury the transcript: its first characters, on one line. */
const SUMMARY_CHARS = 300;

/** Updates that come before the run knows its session id (before the session/new answer), kept until it does. */
const EARLY_LIMIT = 256;
/** Sessions named in a warning; an agent inventing ids by the thousand gets one more line, not thousands. */
const WARN_LIMIT = 8;
/** Line breaks of every kind a line-oriented reader may split at (a lone CR is shown as ␍ by `terminalSafe`). */
const BREAKS = /\r\n|[\n\u2028\u2029\u0085]/g;
/** An agent field on a line of its own: one line whatever it holds. */
const oneLine = (s: string): string => s.replace(BREAKS, '␤');
/** How agent prose is printed: every break a `\n`; `all`: no line of it may begin with `[`; `rest`: none after the first (the client's prefix). */
type Prose = 'all' | 'rest';

/** Deeper subagents are indented as deep as this: the text stays readable whatever nesting an agent claims. */
const INDENT_LIMIT = 12;

/**
 * A streamed block: its kind, what it continues (a session for text and thoughts, a message view for
 * messages) and the session whose output it is.
 */
type Stream = { readonly kind: 'text' | 'thought' | 'message'; readonly key: string; readonly session: string };
type Block = { readonly kind: 'line' } | Stream;
const LINE: Block = { kind: 'line' };

export class TranscriptPrinter {
  private block: Block = LINE;
  /** Whether the current output line has text on it. */
  private midLine = false;
  private readonly tree = new SessionTree();
  private readonly messages = new SessionMessages(this.tree);
  /** By session and tool call id (ids are per session). */
  private readonly tools = new Map<string, { title: string; status: string; depth: number }>();
  /** By session and compaction id: the last state printed (a repeated `completed` without news prints nothing). */
  private readonly compactions = new Map<string, string>();
  private readonly early: SessionNotification[] = [];
  private readonly warned = new Set<string>();
  /** Sessions whose streamed text another session's output cut mid-line: their next text starts with "…". */
  private readonly cut = new Set<string>();

  /** `warn` gets one line for each session id whose updates are not printed. */
  constructor(
    private readonly write: (s: string) => void,
    private readonly warn: (s: string) => void = () => undefined,
  ) {}

  /** The run's session: its updates (also those that came before this) and its subagents' are printed. */
  attach(sessionId: string): void {
    this.tree.attach(sessionId);
    for (const n of this.early.splice(0)) this.update(n);
  }

  update(n: SessionNotification): void {
    if (!this.tree.attached) {
      if (this.early.length < EARLY_LIMIT) this.early.push(n);
      return;
    }
    const sid = n.sessionId;
    const depth = this.tree.depth(sid);
    if (depth === undefined) {
      if (!this.warned.has(sid) && this.warned.size <= WARN_LIMIT) {
        this.warned.add(sid);
        this.warn(
          this.warned.size > WARN_LIMIT
            ? 'run: not printing updates for further sessions this run did not open either\n'
            : `run: not printing updates for session ${JSON.stringify(sid.slice(0, 80))}: this run did not open it and no subagent_update announced it\n`,
        );
      }
      return;
    }
    const u = n.update;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const content = chunkContent(u);
        if (!content) return;
        const kind = u.sessionUpdate === 'agent_message_chunk' ? 'text' : 'thought';
        const t = content.type === 'text' ? (content.text ?? '') : `[${content.type}]`;
        if (t === '') return;
        this.stream({ kind, key: sid, session: sid }, kind === 'thought' ? '[thought] ' : '', t, depth);
        return;
      }
      case 'tool_call':
      case 'tool_call_update': {
        const t = zTool.safeParse(u);
        if (!t.success) return;
        const key = JSON.stringify([sid, t.data.toolCallId]);
        const prev = this.tools.get(key);
        const title = t.data.title ?? prev?.title ?? t.data.toolCallId;
        const status = t.data.status ?? prev?.status ?? 'pending';
        const toolDepth = prev?.depth ?? this.toolDepth(sid, u, depth);
        this.tools.set(key, { title, status, depth: toolDepth });
        if (prev && prev.status === status && u.sessionUpdate === 'tool_call_update') return;
        this.indented(`[tool] ${title} (${status})`, toolDepth, sid);
        return;
      }
      case 'agent_message': {
        const m = zUpsert.safeParse(u);
        if (!m.success) return;
        this.indented(m.data.content.map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`)).join(''), depth, sid, 'all');
        return;
      }
      case 'plan':
      case 'plan_update': {
        const p = zPlan.safeParse(u);
        const v2 = zPlanUpdate.safeParse(u);
        const entries = p.success ? p.data.entries : v2.success ? v2.data.plan.entries : undefined;
        if (entries)
          this.indented(`[plan] ${entries.map((e) => `${e.status === 'completed' ? '✓' : e.status === 'in_progress' ? '…' : '·'} ${e.content}`).join('; ')}`, depth, sid);
        return;
      }
      case 'subagent_update':
        for (const l of this.tree.subagent(sid, u)) this.indented(l, depth, sid);
        return;
      case 'session_message': {
        const m = this.messages.upsert(sid, u);
        if (m) this.indented(`${oneLine(m.prefix)} ${m.text}`, this.tree.depth(m.at) ?? depth, m.at, 'rest');
        return;
      }
      case 'session_message_chunk': {
        const m = this.messages.chunk(sid, u);
        if (m) this.stream({ kind: 'message', key: m.key, session: m.at }, `${oneLine(m.prefix)} `, m.text, this.tree.depth(m.at) ?? depth);
        return;
      }
      case 'compaction_update': {
        const c = zCompaction.safeParse(u);
        if (!c.success) return;
        const key = JSON.stringify([sid, c.data.compactionId]);
        const summary = (c.data.summary ?? []).map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`)).join('');
        if (this.compactions.get(key) === c.data.status && summary === '' && !c.data.error) return;
        this.compactions.set(key, c.data.status);
        const short = summary.replace(/\s+/g, ' ').trim();
        const tail = short === '' ? '' : `: ${short.length > SUMMARY_CHARS ? `${short.slice(0, SUMMARY_CHARS)}…` : short}`;
        this.indented(`[compaction] ${c.data.status.replace(/_/g, ' ')}${c.data.error ? ` (${c.data.error})` : ''}${tail}`, depth, sid);
        return;
      }
      case 'compaction_summary_chunk': {
        const c = zCompactionChunk.safeParse(u);
        if (!c.success) return;
        const t = c.data.content.type === 'text' ? (c.data.content.text ?? '') : `[${c.data.content.type}]`;
        if (t !== '') this.stream({ kind: 'message', key: `compaction ${c.data.compactionId}`, session: sid }, '[compaction summary] ', t, depth);
        return;
      }
      case 'notice': {
        const n = zNotice.safeParse(u);
        if (n.success) this.indented(`[notice ${n.data.severity}] ${n.data.title}${n.data.description ? ` — ${n.data.description}` : ''}`, depth, sid);
        return;
      }
      default:
        return;
    }
  }

  /** A whole line, indented as `sessionId`'s lines are (the run's own lines when it is absent or unknown). */
  line(s: string, sessionId?: string): void {
    this.indented(s, (sessionId === undefined ? undefined : this.tree.depth(sessionId)) ?? 0, sessionId);
  }

  /** A legacy subagent's tool call (no session of its own) goes one level under the `Agent` call that started it. */
  private toolDepth(sid: string, u: unknown, depth: number): number {
    const p = zParentToolUse.safeParse(u);
    const parent = p.success ? this.tools.get(JSON.stringify([sid, p.data._meta.claudeCode.parentToolUseId])) : undefined;
    return parent ? parent.depth + 1 : depth;
  }

  /**
   * Streamed text: continues the open block of the same kind and key, else starts a line with `prefix`
   * (and "…" when this session's text was cut mid-line by another session's: the words go on).
   */
  private stream(block: Stream, prefix: string, text: string, depth: number): void {
    if (this.block.kind !== block.kind || this.block.key !== block.key) {
      this.interrupt(block.session);
      this.endLine();
      this.put(oneLine(prefix) + (this.cut.delete(block.session) ? '…' : ''), depth);
      this.block = block;
    }
    this.put(text, depth, 'all');
  }

  /** A whole line; `session`: whose line it is (undefined: the run's own, like `[stop]`). */
  private indented(s: string, depth: number, session?: string, prose?: Prose): void {
    this.interrupt(session);
    if (session !== undefined) this.cut.delete(session);
    this.endLine();
    if (prose) this.put(s, depth, prose);
    else this.put(oneLine(s), depth);
    this.endLine(true);
  }

  /**
   * Output of `session` is about to end the open block: when it is another session's, mid-line, it was cut.
   * The run's own lines (`[stop]`, `[user]`: no session) come between turns and cut nothing.
   */
  private interrupt(session: string | undefined): void {
    if (session !== undefined && this.block.kind !== 'line' && this.midLine && this.block.session !== session) this.cut.add(this.block.session);
  }

  /** Writes `s`, indenting every line it starts (a child's text may hold line breaks of its own). */
  private put(s: string, depth: number, prose?: Prose): void {
    const indent = '  '.repeat(Math.min(depth, INDENT_LIMIT));
    s.split(prose ? BREAKS : '\n').forEach((part, i) => {
      if (i > 0) {
        this.write('\n');
        this.midLine = false;
      }
      if (part === '') return;
      const guard = prose === 'all' || (prose === 'rest' && i > 0);
      if (!this.midLine) this.write(indent + (guard && part.startsWith('[') ? '\\' : ''));
      this.write(part);
      this.midLine = true;
    });
  }

  /** Ends the open block (and the line, when it has text; `force`: also an empty line, for a line printed empty). */
  private endLine(force = false): void {
    if (this.midLine || force) this.write('\n');
    this.midLine = false;
    this.block = LINE;
  }
}
