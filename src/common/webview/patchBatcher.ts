/**
 * Collects transcript changes between two posts to the webview and coalesces them, so a burst of
 * streamed chunks becomes one small `patch` message per frame:
 * - consecutive text appends to one entry become one `appendText`;
 * - a full entry (`insert`/`replace`) still pending absorbs later changes to that entry;
 * - any other change to an entry is sent as the fields that differ from what the webview holds (`fields`);
 * - panel changes merge into one `panel` op, sent after the entry ops.
 * Entries go out as the webview's projection (`toViewEntry`: no raw JSON, see viewEntry.ts), and field
 * diffs are taken between projections, so a change the panel does not show posts nothing.
 * Pure: the caller asks `shouldPost` once per frame (~16 ms) and posts what `take` returns.
 */
import type { Entry } from '../store/model';
import type { PanelState, PatchOp } from './contract';
import { diffEntry, type EntryPatch } from './entryDiff';
import { toViewEntry } from './viewEntry';
import type { ChangeSetView } from '../changes/view';

function isEmptyPatch(p: EntryPatch): boolean {
  return Object.keys(p).length === 0;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * When a batch is worth a post. Every post costs ~90 bytes of framing (envelope, op, entry key), and a
 * 16 ms frame of a typically paced stream holds only ~20 bytes of text, so a batch of nothing but appended
 * text waits until it holds TEXT_WORTH_POSTING bytes or has waited MAX_TEXT_DELAY_MS. Anything else
 * (a new entry, a status change, a permission) goes out on the next frame.
 */
export const TEXT_WORTH_POSTING = 128;
export const MAX_TEXT_DELAY_MS = 100;

export class PatchBatcher {
  private ops: PatchOp[] = [];
  /** Index in `ops` of the newest op that carries or extends each entry key. */
  private lastOpFor = new Map<string, number>();
  /** For each entry key with a pending op, the entry the webview held before it (for field-level diffs). */
  private baseFor = new Map<string, Entry>();
  private panel: Mutable<Partial<PanelState>> | null = null;
  /** Characters of appended text (and terminal output) pending, and whether anything else is pending. */
  private textChars = 0;
  private structural = false;

  get isEmpty(): boolean {
    return this.ops.length === 0 && this.panel === null;
  }

  /** Whether the pending batch should be posted now, given how long its oldest change has waited. */
  shouldPost(waitedMs: number): boolean {
    if (this.isEmpty) return false;
    return this.structural || this.textChars >= TEXT_WORTH_POSTING || waitedMs >= MAX_TEXT_DELAY_MS;
  }

  inserted(index: number, entry: Entry): void {
    this.structural = true;
    this.push(entry.key, { op: 'insert', index, entry: toViewEntry(entry) });
  }

  /**
   * `appendedText` is set when the only change is text appended at the end of the entry's content;
   * `previous` is the entry before this change (what the webview holds once earlier posts are applied),
   * so any other change is sent as a field-level `fields` op instead of the whole entry.
   */
  updated(entry: Entry, appendedText?: string, previous?: Entry): void {
    if (appendedText === undefined) this.structural = true;
    else this.textChars += appendedText.length;
    const at = this.lastOpFor.get(entry.key);
    const pending = at === undefined ? undefined : this.ops[at];
    const base = this.baseFor.get(entry.key);
    if (pending && at !== undefined) {
      switch (pending.op) {
        case 'insert':
          this.ops[at] = { ...pending, entry: toViewEntry(entry) };
          return;
        case 'replace':
          this.ops[at] = { op: 'replace', entry: toViewEntry(entry) };
          return;
        case 'appendText':
          this.ops[at] =
            appendedText !== undefined ? { ...pending, text: pending.text + appendedText } : this.fieldsOrReplace(base, entry);
          return;
        case 'fields':
          this.ops[at] = this.fieldsOrReplace(base, entry);
          return;
        case 'panel':
        case 'terminal':
        case 'changeSet':
          break;
      }
    }
    if (previous) this.baseFor.set(entry.key, previous);
    if (appendedText !== undefined) this.push(entry.key, { op: 'appendText', key: entry.key, text: appendedText });
    else {
      const op = this.fieldsOrReplace(previous, entry);
      if (op.op === 'fields' && isEmptyPatch(op.patch)) return;
      this.push(entry.key, op);
    }
  }

  /** The smallest op that turns `base` (what the webview holds) into `entry`. */
  private fieldsOrReplace(base: Entry | undefined, entry: Entry): PatchOp {
    const next = toViewEntry(entry);
    const patch = base ? diffEntry(toViewEntry(base), next) : null;
    return patch ? { op: 'fields', key: entry.key, patch } : { op: 'replace', entry: next };
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
    this.structural = true;
    this.panel = { ...(this.panel ?? {}), ...fields };
  }

  /** The coalesced ops since the last call, in order; empties the batcher. */
  take(): PatchOp[] {
    const ops = this.ops;
    if (this.panel) ops.push({ op: 'panel', panel: this.panel });
    this.ops = [];
    this.lastOpFor.clear();
    this.baseFor.clear();
    this.panel = null;
    this.textChars = 0;
    this.structural = false;
    return ops;
  }

  private push(key: string, op: PatchOp): void {
    this.lastOpFor.set(key, this.ops.length);
    this.ops.push(op);
  }
}
