/**
 * Plain-text transcript for `cli run`, printed from the message store's deltas (the store `cli run` feeds
 * from its wire tap, as `cli reduce` and the extension do): agent text as it streams, `[thought]` blocks,
 * one `[tool] title (status)` line per tool-call status, plans and permission decisions. Subagents: a
 * child session's lines are indented under its parent (two spaces per depth), with `[subagent] …` lines
 * when one starts or its state changes and `[to subagent …]` / `[from subagent …]` lines for the messages
 * between them (`printedMessages.ts`). Only the run's session and the subagents announced under it are
 * printed; another session's update is dropped, with one warning per session id. `[compaction] status`
 * once per compaction state (with its error, and the start of a summary when sent; streamed summary chunks
 * as `[compaction summary] …`), `[notice severity] title — description`. What an update means is the
 * store's; this file only decides how a change reads (`printedLines.ts`) and where it goes on the page.
 *
 * Every line the client prints begins with a `[marker]`, and agent strings cannot start one (issue 39): a
 * line break inside an agent field of a whole line (a title, a plan entry, an id) is shown as ␤, and a line
 * of the agent's prose (its text, messages) that would begin with `[` is escaped as Markdown does, `\[`.
 */
import { ClientMethods } from '../../common/protocol/methods';
import type { StoreDelta } from '../../common/store/deltas';
import type { Entry } from '../../common/store/model';
import type { Notice } from '../../common/notices';
import { PrintedEntries, type Printout } from './printedEntries';
import { PrintedTree, type TreeLookup } from './printedTree';
import { BREAKS, oneLine, type Prose, type Stream } from './lineText';

/** Deltas that come before the run knows its session id (before the session/new answer), kept until it does. */
const EARLY_LIMIT = 1024;
/** Sessions named in a warning; an agent inventing ids by the thousand gets one more line, not thousands. */
const WARN_LIMIT = 8;

/** Deeper subagents are indented as deep as this: the text stays readable whatever nesting an agent claims. */
const INDENT_LIMIT = 12;

type Block = { readonly kind: 'line' } | Stream;
const LINE: Block = { kind: 'line' };

export class TranscriptPrinter implements Printout {
  private block: Block = LINE;
  /** Whether the current output line has text on it. */
  private midLine = false;
  private readonly tree: PrintedTree;
  private readonly entries: PrintedEntries;
  private readonly early: StoreDelta[] = [];
  private readonly warned = new Set<string>();
  /** Sessions whose streamed text another session's output cut mid-line: their next text starts with "…". */
  private readonly cut = new Set<string>();
  /** The notices last seen per session (the store sends the whole list): a notice not in it is new. */
  private readonly notices = new Map<string, readonly Notice[]>();
  /** The plans by id last seen per session (`plans`: the whole list): a plan object not in it was updated. */
  private readonly plans = new Map<string, readonly object[]>();

  /** `store`: the store whose deltas this prints (read for sessions and labels); `warn` gets one line per session id not printed. */
  constructor(
    store: TreeLookup,
    private readonly write: (s: string) => void,
    private readonly warn: (s: string) => void = () => undefined,
  ) {
    this.tree = new PrintedTree(store);
    this.entries = new PrintedEntries(this.tree, this);
  }

  /** The run's session: its changes (also those that came before this) and its subagents' are printed. */
  attach(sessionId: string): void {
    this.tree.attach(sessionId);
    this.deltas(this.early.splice(0));
  }

  /**
   * What one message changed in the store; `method`: the message's, when it is a request or notification.
   * A permission request's tool call is not printed: the run prints its decision (`[permission] …`).
   */
  deltas(ds: readonly StoreDelta[], method?: string): void {
    for (const d of ds) {
      if (method === ClientMethods.sessionRequestPermission && (d.type === 'entryInserted' || d.type === 'entryUpdated') && d.entry.kind === 'tool_call') continue;
      if (!this.tree.attached) {
        if (this.early.length < EARLY_LIMIT) this.early.push(d);
        continue;
      }
      this.delta(d);
    }
  }

  private delta(d: StoreDelta): void {
    switch (d.type) {
      case 'entryInserted':
        return this.entry(d.sessionId, d.entry, undefined, undefined);
      case 'entryUpdated':
        return this.entry(d.sessionId, d.entry, d.previous, d.appendedText);
      case 'sessionChanged':
        return this.session(d.sessionId, d.fields);
      case 'notices':
        return this.noticesChanged(d.sessionId, d.notices);
      case 'diagnostic':
        // An update the store refused names a session it does not hold (sessionScope.ts).
        if (d.diagnostic.sessionId !== undefined && !this.tree.held(d.diagnostic.sessionId)) this.unknown(d.diagnostic.sessionId);
        return;
      case 'sessionAdded':
      case 'terminal':
      case 'changesRecorded':
        return;
    }
  }

  private entry(sid: string, e: Entry, previous: Entry | undefined, appended: string | undefined): void {
    const depth = this.tree.depth(sid);
    if (depth === undefined) return this.unknown(sid);
    this.entries.changed(sid, depth, e, previous, appended);
  }

  private session(sid: string, fields: readonly string[]): void {
    const depth = this.tree.depth(sid);
    const s = this.tree.session(sid);
    if (!s) return;
    if (depth === undefined) return this.unknown(sid);
    if (fields.includes('plan') && s.plan) this.planLine(s.plan, depth, sid);
    if (fields.includes('plans')) {
      const seen = new Set(this.plans.get(sid) ?? []);
      this.plans.set(sid, s.plans);
      for (const p of s.plans) if (!seen.has(p) && p.type === 'items') this.planLine(p.entries, depth, sid);
    }
  }

  private planLine(entries: readonly { readonly content: string; readonly status: string }[], depth: number, sid: string): void {
    this.indented(`[plan] ${entries.map((e) => `${e.status === 'completed' ? '✓' : e.status === 'in_progress' ? '…' : '·'} ${e.content}`).join('; ')}`, depth, sid);
  }

  private noticesChanged(sid: string | null, list: readonly Notice[]): void {
    if (sid === null) return;
    const depth = this.tree.depth(sid);
    if (depth === undefined) return this.unknown(sid);
    const seen = new Set(this.notices.get(sid) ?? []);
    this.notices.set(sid, list);
    for (const n of list) if (!seen.has(n)) this.indented(`[notice ${n.severity}] ${n.title}${n.description ? ` — ${n.description}` : ''}`, depth, sid);
  }

  private unknown(sid: string): void {
    if (this.warned.has(sid) || this.warned.size > WARN_LIMIT) return;
    this.warned.add(sid);
    this.warn(
      this.warned.size > WARN_LIMIT
        ? 'run: not printing updates for further sessions this run did not open either\n'
        : `run: not printing updates for session ${JSON.stringify(sid.slice(0, 80))}: this run did not open it and no subagent_update announced it\n`,
    );
  }

  /** A whole line, indented as `sessionId`'s lines are (the run's own lines when it is absent or unknown). */
  line(s: string, sessionId?: string): void {
    this.indented(s, (sessionId === undefined ? undefined : this.tree.depth(sessionId)) ?? 0, sessionId);
  }

  /**
   * Streamed text: continues the open block of the same kind and key, else starts a line with `prefix`
   * (and "…" when this session's text was cut mid-line by another session's: the words go on).
   */
  stream(block: Stream, prefix: string, text: string, depth: number): void {
    if (this.block.kind !== block.kind || this.block.key !== block.key) {
      this.interrupt(block.session);
      this.endLine();
      this.put(oneLine(prefix) + (this.cut.delete(block.session) ? '…' : ''), depth);
      this.block = block;
    }
    this.put(text, depth, 'all');
  }

  /** A whole line; `session`: whose line it is (undefined: the run's own, like `[stop]`). */
  indented(s: string, depth: number, session?: string, prose?: Prose): void {
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
