/**
 * What a running subagent is doing now, for its card: the title of its latest tool call still pending or in
 * progress ('' when none). Derived from the child's entries when one of its tool calls changes; the chat
 * posts the map only when a text in it changed, so a subagent's streamed text costs the panel nothing.
 */
import type { StoreDelta } from '../store';
import type { SessionState } from '../store/model';
import { rootOf, type SessionLookup } from '../store/sessionTree';

const OPEN = new Set(['pending', 'in_progress']);

/** The latest open tool call's title in `session` ('' when none is open). */
export function activityOf(session: SessionState | undefined): string {
  const entries = session?.entries ?? [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'tool_call' && OPEN.has(e.status)) return e.title || e.name || e.toolCallId;
  }
  return '';
}

/** Child sessions under `root` whose tool calls these deltas touched (checked in O(1) for every other delta). */
export function touchedSubagents(store: SessionLookup, root: string, changes: readonly StoreDelta[]): Set<string> {
  const out = new Set<string>();
  for (const c of changes) {
    if ((c.type !== 'entryInserted' && c.type !== 'entryUpdated') || c.entry.kind !== 'tool_call' || c.sessionId === root) continue;
    if (!out.has(c.sessionId) && rootOf(store, c.sessionId) === root) out.add(c.sessionId);
  }
  return out;
}
