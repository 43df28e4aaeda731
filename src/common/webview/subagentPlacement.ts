/**
 * Where a subagent's traffic is drawn, as questionPlacement.ts decides it for questions: derived from the
 * entries each time, never stored, so each entry stays the one owner of what it says.
 *
 * - A `session_message` to a child whose delegation card (`subagent` entry) the transcript holds is drawn
 *   in that card as its task; one from such a child, as its result. A message with no card to go to (in
 *   the child's own transcript, or between sessions without a card here) stays a row of its own.
 * - A tool call whose `parentToolCallId` names another tool call of the transcript (a subagent's work
 *   reported flat on the parent by an agent without the subagents capability) is drawn as a step of that
 *   card; when the named call never appears it stays where it is.
 */
import { segmentRanges } from './questionPlacement';

/** What placing needs of an entry (view entries fit; store entries too, minus the tool-call link). */
export interface HostableEntry {
  readonly kind: string;
  readonly key: string;
  readonly toolCallId?: string | null;
  readonly childSessionId?: string;
  readonly route?: { readonly senderSessionId: string | null; readonly recipientSessionId: string | null } | null;
  readonly parentToolCallId?: string;
}

/** How an entry is drawn on its host: the task sent to a child, the child's result, a step of a tool call. */
export type HostRole = 'task' | 'result' | 'step';

export interface Hosted {
  /** The key of the entry that draws this one. */
  readonly host: string;
  readonly role: HostRole;
}

/**
 * For each entry drawn on another one, its host and role. Entries are placed within their segment only
 * (`segments`: where an earlier, read-only session's entries end, as in `questionHosts`).
 */
export function subagentHosts(entries: readonly HostableEntry[], segments: readonly number[] = []): Map<string, Hosted> {
  const hosts = new Map<string, Hosted>();
  for (const [from, to] of segmentRanges(entries.length, segments)) placeSegment(entries, from, to, hosts);
  dropCycles(hosts);
  return hosts;
}

function placeSegment(entries: readonly HostableEntry[], from: number, to: number, hosts: Map<string, Hosted>): void {
  const cards = new Map<string, string>();
  const calls = new Map<string, number[]>();
  for (let i = from; i < to; i++) {
    const e = entries[i]!;
    // The store keeps one card per child; should two ever come, the first one (where it started) keeps it.
    if (e.kind === 'subagent' && e.childSessionId !== undefined && !cards.has(e.childSessionId)) cards.set(e.childSessionId, e.key);
    if (e.kind === 'tool_call' && typeof e.toolCallId === 'string' && e.toolCallId !== '') calls.set(e.toolCallId, [...(calls.get(e.toolCallId) ?? []), i]);
  }
  for (let i = from; i < to; i++) {
    const e = entries[i]!;
    if (e.kind === 'session_message' && e.route) {
      const to = e.route.recipientSessionId !== null ? cards.get(e.route.recipientSessionId) : undefined;
      const back = e.route.senderSessionId !== null ? cards.get(e.route.senderSessionId) : undefined;
      if (to !== undefined) hosts.set(e.key, { host: to, role: 'task' });
      else if (back !== undefined) hosts.set(e.key, { host: back, role: 'result' });
    } else if (e.kind === 'tool_call' && e.parentToolCallId !== undefined && e.parentToolCallId !== e.toolCallId) {
      const at = nearest(calls.get(e.parentToolCallId) ?? [], i);
      if (at !== undefined) hosts.set(e.key, { host: entries[at]!.key, role: 'step' });
    }
  }
}

/** The nearest index before `i` (an agent may reuse an id over a long session), else the first after it. */
function nearest(indexes: readonly number[], i: number): number | undefined {
  let before: number | undefined;
  for (const at of indexes) {
    if (at < i) before = at;
    else if (at > i) return before ?? at;
  }
  return before;
}

/** Steps that would end up inside themselves (A under B under A: agent data is untrusted) stay where they are. */
function dropCycles(hosts: Map<string, Hosted>): void {
  for (const key of [...hosts.keys()]) {
    const seen = new Set<string>([key]);
    for (let h = hosts.get(key); h; h = hosts.get(h.host)) {
      if (h.host === key) hosts.delete(key); // its own ancestor: this one link of the loop goes
      if (seen.has(h.host)) break; // (a loop above it is cut when its own members are walked)
      seen.add(h.host);
    }
  }
}
