/**
 * Where an agent's question is drawn. A question tied to a tool call (the `toolCallId` of its
 * `elicitation/create`) is drawn on that tool call's card, when the transcript holds the card; any
 * other question is a card of its own. The question's entry (the store's) stays the one owner of what
 * was asked and answered: this is derived from the entries each time, never stored.
 */

/** What placing needs of an entry (store entries and view entries both fit). */
export interface PlaceableEntry {
  readonly kind: string;
  readonly key: string;
  readonly toolCallId?: string | null;
}

/**
 * For each question drawn on a tool card, the key of that tool call's entry. The card is the nearest
 * one with the question's tool call id before the question (an agent may reuse an id over a long
 * session), else the first after it (a tool call reported after its question). Entries are placed
 * within their segment only: `segments` are the indexes where a new segment starts (an earlier,
 * read-only session above a new one, whose tool call ids may repeat).
 */
export function questionHosts(entries: readonly PlaceableEntry[], segments: readonly number[] = []): Map<string, string> {
  const hosts = new Map<string, string>();
  for (const [from, to] of segmentRanges(entries.length, segments)) placeSegment(entries, from, to, hosts);
  return hosts;
}

/** The [from, to) index ranges of `count` entries split at `segments` (see `questionHosts`). */
export function segmentRanges(count: number, segments: readonly number[]): [number, number][] {
  const starts = [0, ...segments.filter((s) => s > 0 && s < count)].sort((a, b) => a - b);
  return starts.map((start, i) => [start, starts[i + 1] ?? count]);
}

function placeSegment(entries: readonly PlaceableEntry[], from: number, to: number, hosts: Map<string, string>): void {
  /** The latest tool call seen so far, by id. */
  const seen = new Map<string, string>();
  /** Questions whose tool call has not been seen yet, by tool call id. */
  const waiting = new Map<string, string[]>();
  for (let i = from; i < to; i++) {
    const e = entries[i]!;
    const id = e.toolCallId;
    if (typeof id !== 'string' || id === '') continue;
    if (e.kind === 'tool_call') {
      seen.set(id, e.key);
      for (const q of waiting.get(id) ?? []) hosts.set(q, e.key);
      waiting.delete(id);
    } else if (e.kind === 'elicitation') {
      const tool = seen.get(id);
      if (tool !== undefined) hosts.set(e.key, tool);
      else waiting.set(id, [...(waiting.get(id) ?? []), e.key]);
    }
  }
}
