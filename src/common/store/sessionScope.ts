/**
 * Which sessions the agent may speak of: those of this client (created, loaded or named by our calls) and
 * the subagents one of them announced (`subagent_update`, any depth). Anything else is refused, so an agent
 * cannot slip text or questions into a chat under a session nobody opened. The store asks here for every
 * update and request; the live client keeps the same boundary for the requests it serves (agentRequests.ts).
 */
import { AgentMethods } from '../protocol/methods';
import type { PendingRequest } from './persisted';
import type { Entry } from './model';

/** Our requests whose answer names a session the agent may speak of before the answer arrives (the live client's boundary uses it too). */
export const OPENS_SESSION = new Set<string>([AgentMethods.sessionNew, AgentMethods.sessionFork, AgentMethods.sessionLoad, AgentMethods.sessionResume]);

interface Known {
  has(sessionId: string): boolean;
  get(sessionId: string): { readonly parentSessionId: string | null } | undefined;
  readonly size: number;
}

/**
 * Why `what` for `sessionId` is refused, or null when it is accepted. Two cases adopt an unknown id: a
 * session/new (or fork, load, resume) still unanswered, whose updates may come before its response names
 * the session, and a capture that starts mid-conversation (no session known at all).
 */
export function unknownSession(known: Known, ourPending: Iterable<PendingRequest>, sessionId: string, what: string): string | null {
  if (known.has(sessionId) || known.size === 0) return null;
  for (const req of ourPending) if (OPENS_SESSION.has(req.method)) return null;
  return `${what} for session '${sessionId}', which this client never opened and no subagent_update announced; ignored`;
}

/** Why `parentId` cannot announce `childId` (itself, one of its ancestors, or another parent's child), or null. */
export function misplacedChild(known: Known, parentId: string, childId: string): string | null {
  if (childId === parentId || ancestors(known, parentId).has(childId))
    return `subagent_update on '${parentId}' names '${childId}', which is this session or one of its parents; ignored`;
  const child = known.get(childId);
  if (child && child.parentSessionId !== parentId) {
    return `subagent_update on '${parentId}' names '${childId}', a session ${child.parentSessionId === null ? 'of this client' : `of parent '${child.parentSessionId}'`}; ignored`;
  }
  return null;
}

function ancestors(known: Known, sessionId: string): Set<string> {
  const seen = new Set<string>();
  for (let p = known.get(sessionId)?.parentSessionId ?? null; p !== null && !seen.has(p); p = known.get(p)?.parentSessionId ?? null) seen.add(p);
  return seen;
}

/** After a restore: each child's parent, derived from the parent's subagent entry (it is not saved twice). */
export function linkChildren(sessions: ReadonlyMap<string, { parentSessionId: string | null; readonly sessionId: string; state(): { readonly entries: readonly Entry[] } }>): void {
  for (const s of sessions.values())
    for (const e of s.state().entries) {
      const child = e.kind === 'subagent' ? sessions.get(e.childSessionId) : undefined;
      if (child && child !== s) child.parentSessionId = s.sessionId;
    }
}
