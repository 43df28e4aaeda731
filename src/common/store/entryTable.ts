/**
 * One session's entries: an append-only array with maps from messageId / toolCallId / key to index, so
 * every chunk is O(1) amortized. Entries are immutable values: an update replaces the object in its slot.
 *
 * This is the only code that changes an entry, and it reports every change: `append` (the single append
 * point, the only caller of `newKey()`) emits `entryInserted`, `replace` emits `entryUpdated`. Views
 * mirror the store by applying exactly these changes, so an entry changed any other way would show
 * something the store does not hold (test/unit/store/patches.property.test.ts checks this).
 */
import type { StoreChange } from './changes';
import type { Entry, MessageEntry, ToolCallEntry } from './model';

/** What the table needs from the reducer step that changes it. */
export interface ChangeSink {
  readonly changes: StoreChange[];
  newKey(): string;
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class EntryTable {
  private readonly list: Entry[] = [];
  private readonly byMessageId = new Map<string, number>();
  /** messageId scoped by kind: one agent may give a thought and its text one id (see MessageRules.chunk). */
  private readonly byKindAndId = new Map<string, number>();
  private readonly byToolCallId = new Map<string, number>();
  private readonly byKey = new Map<string, number>();

  constructor(private readonly sessionId: string) {}

  /** The live array (read-only to callers): `SessionState.entries` hands it out without copying. */
  get entries(): readonly Entry[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  at(index: number): Entry | undefined {
    return this.list[index];
  }

  message(index: number): MessageEntry | undefined {
    const e = this.list[index];
    return e && e.kind !== 'tool_call' ? e : undefined;
  }

  toolCall(index: number): ToolCallEntry | undefined {
    const e = this.list[index];
    return e && e.kind === 'tool_call' ? e : undefined;
  }

  indexOfKey(key: string): number | undefined {
    return this.byKey.get(key);
  }

  indexOfMessageId(messageId: string): number | undefined {
    return this.byMessageId.get(messageId);
  }

  /** The message of this kind with this id (another kind may hold the same id). */
  indexOfMessage(messageId: string, kind: MessageEntry['kind']): number | undefined {
    return this.byKindAndId.get(kindId(kind, messageId));
  }

  indexOfToolCallId(toolCallId: string): number | undefined {
    return this.byToolCallId.get(toolCallId);
  }

  /** Restores saved entries (keys included). No changes are emitted: the caller sends a snapshot. */
  restore(entries: readonly Entry[]): void {
    for (const e of entries) this.index(e, this.list.push(e) - 1);
  }

  /** The single append point: the entry gets its durable key here and nowhere else. */
  append(entry: DistributiveOmit<Entry, 'key'>, sink: ChangeSink): number {
    const full = { ...entry, key: sink.newKey() } as Entry;
    const index = this.list.push(full) - 1;
    this.index(full, index);
    sink.changes.push({ type: 'entryInserted', sessionId: this.sessionId, index, entry: full });
    return index;
  }

  /**
   * Replaces the entry at `index` (same key) and keeps the id maps in step when its messageId or
   * toolCallId changed. `appendedText` says the only change was that text appended (see StoreChange).
   */
  replace(index: number, entry: Entry, sink: ChangeSink, appendedText?: string): void {
    const old = this.list[index];
    if (!old) return;
    const oldId = idOf(old);
    const newId = idOf(entry);
    if (oldId !== newId || old.kind !== entry.kind) {
      const oldMap = old.kind === 'tool_call' ? this.byToolCallId : this.byMessageId;
      if (oldId !== null && oldMap.get(oldId) === index) oldMap.delete(oldId);
      if (oldId !== null && old.kind !== 'tool_call' && this.byKindAndId.get(kindId(old.kind, oldId)) === index) this.byKindAndId.delete(kindId(old.kind, oldId));
      if (newId !== null) (entry.kind === 'tool_call' ? this.byToolCallId : this.byMessageId).set(newId, index);
      if (newId !== null && entry.kind !== 'tool_call') this.byKindAndId.set(kindId(entry.kind, newId), index);
    }
    this.list[index] = entry;
    sink.changes.push(
      appendedText === undefined
        ? { type: 'entryUpdated', sessionId: this.sessionId, index, entry, previous: old }
        : { type: 'entryUpdated', sessionId: this.sessionId, index, entry, appendedText, previous: old },
    );
  }

  private index(e: Entry, i: number): void {
    this.byKey.set(e.key, i);
    const id = idOf(e);
    if (id !== null) (e.kind === 'tool_call' ? this.byToolCallId : this.byMessageId).set(id, i);
    if (id !== null && e.kind !== 'tool_call') this.byKindAndId.set(kindId(e.kind, id), i);
  }
}

const kindId = (kind: MessageEntry['kind'], id: string): string => `${kind}\u0000${id}`;

function idOf(e: Entry): string | null {
  return e.kind === 'tool_call' ? e.toolCallId : e.messageId;
}
