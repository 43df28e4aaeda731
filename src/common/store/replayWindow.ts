/**
 * The session/load window: while the agent replays a session's history, replayed entries are matched to
 * the entries already shown (those before the load started) instead of being appended a second time.
 */
import type { ApplyContext } from './context';
import type { EntryTable } from './entryTable';
import type { Entry, EntryKind, Provenance } from './model';

export interface ReplayState {
  /** Entries [0, priorLength) existed when the load started. */
  readonly priorLength: number;
  /** Position of the next prior entry the replay is expected to bring back. */
  cursor: number;
  /** Prior entries the replay already matched (their content is rebuilt from the replay). */
  readonly touched: Set<number>;
}

export class ReplayWindow {
  state: ReplayState | null = null;

  constructor(private readonly table: EntryTable) {}

  get active(): boolean {
    return this.state !== null;
  }

  start(): void {
    this.state = { priorLength: this.table.length, cursor: 0, touched: new Set() };
  }

  end(): void {
    this.state = null;
  }

  /** What a new entry's provenance is: appended during a load, it came from the replay. */
  provenance(): Provenance {
    return this.state ? 'replay' : 'live';
  }

  /**
   * The replay reached a prior entry by its id. A message reached for the first time is rebuilt from the
   * replay: its content starts again from empty (keeping key and position) so nothing is shown twice.
   */
  reached(index: number, ctx: ApplyContext): void {
    const r = this.state;
    if (!r || index >= r.priorLength || r.touched.has(index)) return;
    r.touched.add(index);
    r.cursor = Math.max(r.cursor, index + 1);
    const e = this.table.message(index);
    if (e) this.table.replace(index, { ...e, content: [] }, ctx);
  }

  /**
   * A replayed message with no id match: the prior entry at the replay's position, when it has the same
   * kind and `same` holds (ids may be minted fresh by the replay). Its content is reset and it takes the
   * replay's id; returns its index, or -1.
   */
  matchMessage(kind: EntryKind, messageId: string | null, same: (e: Entry) => boolean, ctx: ApplyContext): number {
    const index = this.next(kind, same);
    const e = index >= 0 ? this.table.message(index) : undefined;
    if (!e) return -1;
    this.table.replace(index, { ...e, content: [], messageId: messageId ?? e.messageId }, ctx);
    return index;
  }

  /** A replayed tool call with no id match: the prior tool call at the replay's position; it takes the replay's id. */
  matchToolCall(toolCallId: string, title: string | null, ctx: ApplyContext): number {
    const index = this.next('tool_call', (e) => e.kind === 'tool_call' && (title === null || e.title === title));
    const e = index >= 0 ? this.table.toolCall(index) : undefined;
    if (!e) return -1;
    if (e.toolCallId !== toolCallId) this.table.replace(index, { ...e, toolCallId }, ctx);
    return index;
  }

  private next(kind: EntryKind, same: (e: Entry) => boolean): number {
    const r = this.state;
    if (!r || r.cursor >= r.priorLength) return -1;
    const index = r.cursor;
    const e = this.table.at(index);
    if (!e || e.kind !== kind || r.touched.has(index) || !same(e)) return -1;
    r.touched.add(index);
    r.cursor = index + 1;
    return index;
  }
}
