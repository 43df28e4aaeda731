/**
 * Collects transcript changes between two posts to the webview and coalesces them, so a burst of
 * streamed chunks becomes one small `patch` message per frame:
 * - consecutive text appends to one entry become one `appendText` (a thought's, a `fields` op that also
 *   moves its span's end, which "Thought for N s" reads);
 * - a full entry (`insert`/`replace`) still pending absorbs later changes to that entry;
 * - any other change to an entry is sent as the fields that differ from what the webview holds (`fields`);
 * - panel deltas merge into one `panel` op, sent after the entry ops.
 * Entries go out as the webview's projection (`toViewEntry`: no raw JSON, see viewEntry.ts) in its wire
 * form (wire.ts), and field diffs are taken between projections, so a change the panel does not show
 * posts nothing. The batcher numbers the entries the webview holds (their handles, counted from the last
 * snapshot: `reset`), so an op names its entry by that number instead of its key.
 * Panel fields equal to what the webview already shows are dropped (agents repeat usage updates).
 * Pure: the caller asks `shouldPost` once per frame (~16 ms) and posts what `take` returns.
 */
import type { Entry } from '../store/model';
import type { PanelState, PatchOp } from './contract';
import { diffEntry, sameValue, type DiffableEntry, type EntryPatch } from './entryDiff';
import { toViewEntry } from './viewEntry';
import { encodeEntry, encodePatch } from './wire';
import { WireEncoder } from './wireEncoder';
import { toWireEntry } from './wireEntry';
import type { Mutable } from '../util/types';
import type { ChangeSetView } from '../changes/view';

function isEmptyPatch(p: EntryPatch): boolean {
  return Object.keys(p).length === 0;
}

/**
 * When a batch is worth a post. Every post costs ~50 bytes of framing (envelope, op, handle), and a
 * 16 ms frame of a typically paced stream holds only ~20 bytes of text, so a batch of nothing but appended
 * text waits until it holds TEXT_WORTH_POSTING bytes or has waited MAX_TEXT_DELAY_MS. A new agent message
 * or thought is streamed text too (its first chunk; the next ones join it), and so is a usage count.
 * Anything else (the user's prompt, a tool call, a status change, a permission) goes out on the next frame.
 */
export const TEXT_WORTH_POSTING = 128;
export const MAX_TEXT_DELAY_MS = 100;

export class PatchBatcher {
  private ops: PatchOp[] = [];
  /** Index in `ops` of the newest op that carries or extends each entry key. */
  private lastOpFor = new Map<string, number>();
  /**
   * Thoughts with text appended in this batch, and when their newest chunk came: the webview's "Thought for
   * N s" reads the span's end, which appended text alone would leave at the first chunk.
   */
  private thoughtEnds = new Map<string, number>();
  /** For each entry key with a pending op, the entry the webview held before it (for field-level diffs). */
  private baseFor = new Map<string, Entry>();
  private panel: Mutable<Partial<PanelState>> | null = null;
  /** Characters of appended text (and terminal output) pending, and whether anything else is pending. */
  private textChars = 0;
  private structural = false;
  /** Handles of the entries the webview holds (numbered as the webview's WireDecoder numbers them). */
  private readonly wire = new WireEncoder();
  /** The panel fields as the webview has them (after the last snapshot and the ops taken since). */
  private shownPanel: Partial<PanelState> = {};

  /**
   * A snapshot of `entries` and `panel` is being posted: what was pending is dropped (the snapshot has
   * it) and the handles start again from the snapshot's entries, numbered by position.
   */
  reset(entries: readonly { readonly key: string }[], panel: Partial<PanelState>): void {
    this.take();
    this.wire.snapshot(entries);
    this.shownPanel = { ...panel };
  }

  get isEmpty(): boolean {
    return this.ops.length === 0 && this.panel === null;
  }

  /** Whether the pending batch should be posted now, given how long its oldest change has waited. */
  shouldPost(waitedMs: number): boolean {
    if (this.isEmpty) return false;
    return this.structural || this.textChars >= TEXT_WORTH_POSTING || waitedMs >= MAX_TEXT_DELAY_MS;
  }

  inserted(index: number, entry: Entry): void {
    if (entry.kind === 'agent_message' || entry.kind === 'agent_thought') this.textChars += textLength(entry);
    else this.structural = true;
    const h = this.wire.inserted(entry);
    // Most entries land after all the others: the webview knows where that is.
    this.push(entry.key, index === h ? { op: 'insert', entry: toWireEntry(entry) } : { op: 'insert', index, entry: toWireEntry(entry) });
  }

  /** The entry's handle; -1 for one the webview was never given, which it answers with a resync. */
  private handleOf(key: string): number {
    return this.wire.handleOf(key);
  }

  /**
   * `appendedText` is set when the only change is text appended at the end of the entry's content;
   * `previous` is the entry before this change (what the webview holds once earlier posts are applied),
   * so any other change is sent as a field-level `fields` op instead of the whole entry.
   */
  updated(entry: Entry, appendedText?: string, previous?: Entry): void {
    if (appendedText === undefined) this.structural = true;
    else this.textChars += appendedText.length;
    if (appendedText !== undefined && entry.kind === 'agent_thought') this.thoughtEnds.set(entry.key, entry.stats.lastSeen);
    const at = this.lastOpFor.get(entry.key);
    const pending = at === undefined ? undefined : this.ops[at];
    if (pending && at !== undefined) {
      switch (pending.op) {
        case 'insert':
          this.ops[at] = { ...pending, entry: toWireEntry(entry) };
          return;
        case 'replace':
          this.ops[at] = { op: 'replace', h: pending.h, entry: toWireEntry(entry) };
          return;
        case 'appendText':
          // The per-chunk path of a stream: spelled out rather than spread.
          this.ops[at] =
            appendedText !== undefined ? { op: 'appendText', h: pending.h, text: pending.text + appendedText } : this.fieldsOrReplace(this.baseFor.get(entry.key), entry);
          return;
        case 'fields':
          this.ops[at] = this.fieldsOrReplace(this.baseFor.get(entry.key), entry);
          return;
        case 'panel':
        case 'terminal':
        case 'changeSet':
          break;
      }
    }
    if (previous) this.baseFor.set(entry.key, previous);
    if (appendedText !== undefined) this.push(entry.key, { op: 'appendText', h: this.handleOf(entry.key), text: appendedText });
    else {
      const op = this.fieldsOrReplace(previous, entry);
      if (op.op === 'fields' && isEmptyPatch(op.patch)) return;
      this.push(entry.key, op);
    }
  }

  /** The smallest op that turns `base` (what the webview holds) into `entry`. */
  private fieldsOrReplace(base: Entry | undefined, entry: Entry): PatchOp {
    const next = toViewEntry(entry);
    const prev = base ? toViewEntry(base) : undefined;
    // Every kind goes as fields: a subagent's card changes with each state the child reports (Codex flips it
    // between running and requires_action), and sent whole each time it was most of the bytes of such a turn.
    const patch = prev ? diffEntry<DiffableEntry>(prev, next) : null;
    const h = this.handleOf(entry.key);
    return patch ? { op: 'fields', h, patch: encodePatch(next.kind, patch) } : { op: 'replace', h, entry: encodeEntry(next) };
  }

  /**
   * Terminal output: consecutive appends to one terminal become one op; an exit status rides along.
   * A replacement (`replace`) drops what was pending for that terminal: the snapshot supersedes it.
   */
  terminal(terminalId: string, append: string, exit?: { exitCode: number | null; signal: string | null }, replace?: true): void {
    this.textChars += append.length;
    if (exit) this.structural = true;
    const key = `terminal:${terminalId}`;
    const at = this.lastOpFor.get(key);
    const pending = at === undefined ? undefined : this.ops[at];
    if (pending?.op === 'terminal' && at !== undefined) {
      const merged = replace ? { ...pending, append, replace } : { ...pending, append: pending.append + append };
      this.ops[at] = { ...merged, ...(exit ? { exit } : {}) };
      return;
    }
    this.push(key, { op: 'terminal', terminalId, append, ...(replace ? { replace } : {}), ...(exit ? { exit } : {}) });
  }

  /** A Changes summary: a newer state of the same set replaces a pending one. */
  changeSet(id: string, set: ChangeSetView | null): void {
    this.structural = true;
    const key = `changes:${id}`;
    const at = this.lastOpFor.get(key);
    if (at !== undefined && this.ops[at]?.op === 'changeSet') {
      this.ops[at] = { op: 'changeSet', id, set };
      return;
    }
    this.push(key, { op: 'changeSet', id, set });
  }

  panelChanged(fields: Partial<PanelState>): void {
    const pending = (this.panel ?? {}) as Record<string, unknown>;
    let changed: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(fields)) {
      // Already what the webview shows, and no other value on its way: nothing to send.
      if (!Object.hasOwn(pending, k) && this.isShown(k, v)) continue;
      (changed ??= {})[k] = v;
      if (k !== 'usage') this.structural = true;
    }
    if (changed) this.panel = { ...pending, ...changed } as Mutable<Partial<PanelState>>;
  }

  /** The coalesced ops since the last call, in order; empties the batcher. */
  take(): PatchOp[] {
    const ops = this.ops;
    for (const [key, last] of this.thoughtEnds) {
      const at = this.lastOpFor.get(key);
      const op = at === undefined ? undefined : ops[at];
      // Inserts, replaces and field patches carry the span already; appended text gets its end beside it.
      if (op?.op === 'appendText' && at !== undefined) ops[at] = { op: 'fields', h: op.h, patch: { appendText: op.text, nested: { span: { set: { last } } } } };
    }
    this.thoughtEnds.clear();
    const panel = this.panel ? this.unshown(this.panel) : null;
    if (panel) ops.push({ op: 'panel', panel });
    this.ops = [];
    this.lastOpFor.clear();
    this.baseFor.clear();
    this.panel = null;
    this.textChars = 0;
    this.structural = false;
    return ops;
  }

  /** The fields of `panel` the webview does not show already (null: none); they count as shown from now. */
  private unshown(panel: Partial<PanelState>): Partial<PanelState> | null {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const [k, v] of Object.entries(panel)) {
      if (this.isShown(k, v)) continue;
      out[k] = v;
      any = true;
    }
    if (!any) return null;
    this.shownPanel = { ...this.shownPanel, ...out };
    return out as Partial<PanelState>;
  }

  /** Whether the webview already shows `value` for panel field `field`. */
  private isShown(field: string, value: unknown): boolean {
    const shown = this.shownPanel as Record<string, unknown>;
    return Object.hasOwn(shown, field) && sameValue(shown[field], value);
  }

  private push(key: string, op: PatchOp): void {
    this.lastOpFor.set(key, this.ops.length);
    this.ops.push(op);
  }
}

/** Characters of text in a message's content. */
function textLength(entry: Entry): number {
  let n = 0;
  if (entry.kind === 'elicitation' || entry.kind === 'subagent' || entry.kind === 'compaction') return n;
  for (const c of entry.content) if (c.type === 'text') n += c.text.length;
  return n;
}
