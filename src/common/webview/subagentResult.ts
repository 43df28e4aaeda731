/**
 * A subagent's result when its card's reply does not hold it. Claude's background form answers the parent's
 * Agent call at once ("Async agent launched…": a `session_message` reply sent while the child still runs),
 * and the child's real answer is then only its own last agent message. A reply is the result when it came
 * (or last changed) once the child was done; otherwise the result is the child's last agent message. Derived
 * from the store each time; the chat posts the map only when it changes (`PanelState.subagentResults`).
 */
import type { ContentBlock } from '../protocol/content';
import type { StoreDelta } from '../store';
import type { Entry, SubagentEntry } from '../store/model';
import { childSessions, sessionTree, type SessionLookup } from '../store/sessionTree';

/** The child's own result for `card` (in `parentEntries`), or null when its reply is the result or it is not done. */
function resultInstead(store: SessionLookup, parentEntries: readonly Entry[], card: SubagentEntry): readonly ContentBlock[] | null {
  if (card.state !== 'idle') return null;
  const reply = parentEntries.findLast((e) => e.kind === 'session_message' && e.route?.senderSessionId === card.childSessionId);
  if (reply && reply.stats.lastSeen >= card.stateSince) return null;
  const last = store.session(card.childSessionId)?.entries.findLast((e) => e.kind === 'agent_message');
  return last?.kind === 'agent_message' && last.content.length ? last.content : null;
}

/** The results instead of replies of every done subagent under `root` (any depth), by child session id. */
export function subagentResults(store: SessionLookup, root: string): Record<string, readonly ContentBlock[]> {
  // Keyed by the agent's session ids: no prototype a key could name.
  const out = Object.create(null) as Record<string, readonly ContentBlock[]>;
  for (const sid of sessionTree(store, root)) {
    const parent = store.session(sid);
    if (!parent) continue;
    for (const c of childSessions(store, parent)) {
      const r = resultInstead(store, parent.entries, c.entry);
      if (r) out[c.entry.childSessionId] = r;
    }
  }
  return out;
}

/** Whether these deltas may change a result: a card or a message between sessions changed (O(1) per delta). */
export function mayChangeResults(changes: readonly StoreDelta[]): boolean {
  return changes.some((c) => (c.type === 'entryInserted' || c.type === 'entryUpdated') && (c.entry.kind === 'subagent' || c.entry.kind === 'session_message'));
}

/** Two result maps say the same (the contents are the store's own arrays: compared by reference). */
export function sameResults(a: Readonly<Record<string, readonly ContentBlock[]>>, b: Readonly<Record<string, readonly ContentBlock[]>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
