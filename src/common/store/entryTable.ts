/**
 * One session's entries: an append-only array with maps from messageId / toolCallId / key to index, so
 * every chunk is O(1) amortized. Entries are immutable values: an update replaces the object in its slot.
 *
 * A message's identity is its kind and its id: one `messageId` may name a user message, an agent message
 * and a thought at once (the Claude Code adapter gives a model response's thought and its text one id),
 * and they stay three entries.
 *
 * This is the only code that changes an entry, and it reports every change: `append` (the single append
 * point, the only caller of `newKey()`) emits `entryInserted`, `replace` emits `entryUpdated`. Views
 * mirror the store by applying exactly these changes, so an entry changed any other way would show
 * something the store does not hold (test/unit/store/patches.property.test.ts checks this).
 */
import type { StoreDelta } from './deltas';
import type { CompactionEntry, ElicitationEntry, Entry, MessageEntry, MessageKind, SubagentEntry, ToolCallEntry } from './model';

/** What the table needs from the reducer step that changes it. */
export interface ChangeSink {
  readonly changes: StoreDelta[];
  newKey(): string;
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class EntryTable {
  private readonly list: Entry[] = [];
  /** By kind, then messageId: no key string is built per chunk (a template per lookup was ~5% of a flood). */
  private readonly byMessageId: Record<MessageKind, Map<string, number>> = {
    user_message: new Map(),
    agent_message: new Map(),
    agent_thought: new Map(),
    session_message: new Map(),
  };
  private readonly byToolCallId = new Map<string, number>();
  private readonly byChildSessionId = new Map<string, number>();
  private readonly byCompactionId = new Map<string, number>();
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
    return e && e.kind !== 'tool_call' && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'compaction' ? e : undefined;
  }

  compaction(index: number): CompactionEntry | undefined {
    const e = this.list[index];
    return e && e.kind === 'compaction' ? e : undefined;
  }

  indexOfCompaction(compactionId: string): number | undefined {
    return this.byCompactionId.get(compactionId);
  }

  subagent(index: number): SubagentEntry | undefined {
    const e = this.list[index];
    return e && e.kind === 'subagent' ? e : undefined;
  }

  indexOfChild(childSessionId: string): number | undefined {
    return this.byChildSessionId.get(childSessionId);
  }

  /** How many subagents this session announced (its `subagent` entries). */
  get childCount(): number {
    return this.byChildSessionId.size;
  }

  elicitation(index: number): ElicitationEntry | undefined {
    const e = this.list[index];
    return e && e.kind === 'elicitation' ? e : undefined;
  }

  toolCall(index: number): ToolCallEntry | undefined {
    const e = this.list[index];
    return e && e.kind === 'tool_call' ? e : undefined;
  }

  indexOfKey(key: string): number | undefined {
    return this.byKey.get(key);
  }

  indexOfMessageId(kind: MessageKind, messageId: string): number | undefined {
    return this.byMessageId[kind].get(messageId);
  }

  /** The first of `kinds` that has a message with this id (for a tool call's parent, a reuse warning). */
  kindWithMessageId(messageId: string, kinds: readonly MessageKind[]): MessageKind | undefined {
    return kinds.find((k) => this.byMessageId[k].has(messageId));
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
   * toolCallId changed. `appendedText` says the only change was that text appended (see StoreDelta).
   */
  replace(index: number, entry: Entry, sink: ChangeSink, appendedText?: string): void {
    const old = this.list[index];
    if (!old) return;
    const oldId = idOf(old);
    const newId = idOf(entry);
    if (oldId !== newId || old.kind !== entry.kind) {
      const oldMap = this.idMap(old);
      if (oldId !== null && oldMap?.get(oldId) === index) oldMap.delete(oldId);
      if (newId !== null) this.idMap(entry)?.set(newId, index);
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
    if (id !== null) this.idMap(e)?.set(id, i);
  }

  /** The map that finds `e` by its id (none for an elicitation). */
  private idMap(e: Entry): Map<string, number> | undefined {
    if (e.kind === 'tool_call') return this.byToolCallId;
    if (e.kind === 'subagent') return this.byChildSessionId;
    if (e.kind === 'compaction') return this.byCompactionId;
    if (e.kind === 'elicitation') return undefined;
    return this.byMessageId[e.kind];
  }
}

/** The entry's key in its id map (`idMap`), or null when it has no id (elicitations are found by key). A subagent's id is its child session, a compaction's its `compactionId`. */
function idOf(e: Entry): string | null {
  if (e.kind === 'tool_call') return e.toolCallId;
  if (e.kind === 'subagent') return e.childSessionId;
  if (e.kind === 'compaction') return e.compactionId;
  if (e.kind === 'elicitation') return null;
  return e.messageId;
}
