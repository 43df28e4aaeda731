/**
 * A chat's sessions as a tree: the sessions the client opened are its roots, and each subagent hangs under
 * the session whose `subagent_update` announced it (`SessionState.parentSessionId` and the parent's
 * `subagent` entry, both the store's). Everything here is derived on each call; nothing is kept.
 */
import type { SessionState, SubagentEntry } from './model';

export interface SessionLookup {
  session(sessionId: string): SessionState | undefined;
}

/** The subagent entry (in its parent) that announced `sessionId`; undefined for a root or unknown session. */
export function announcementOf(store: SessionLookup, sessionId: string): SubagentEntry | undefined {
  const parentId = store.session(sessionId)?.parentSessionId;
  const parent = parentId === null || parentId === undefined ? undefined : store.session(parentId);
  return parent?.entries.find((e): e is SubagentEntry => e.kind === 'subagent' && e.childSessionId === sessionId);
}

/** The root of the tree `sessionId` is in: the session of ours a subagent (any depth) was started under. */
export function rootOf(store: SessionLookup, sessionId: string): string {
  const seen = new Set([sessionId]);
  let id = sessionId;
  for (let p = store.session(id)?.parentSessionId ?? null; p !== null && !seen.has(p); p = store.session(id)?.parentSessionId ?? null) {
    seen.add(p);
    id = p;
  }
  return id;
}

/** How a subagent is named to the user: its title, else its description, else its session id. */
export function subagentLabel(e: SubagentEntry): string {
  return e.title || e.description || e.childSessionId;
}

/** The subagents `parent` announced that are sessions under it (in announcement order). */
export function childSessions(store: SessionLookup, parent: SessionState): { readonly entry: SubagentEntry; readonly session: SessionState }[] {
  return parent.entries.flatMap((entry) => {
    const session = entry.kind === 'subagent' ? store.session(entry.childSessionId) : undefined;
    return entry.kind === 'subagent' && session && session.parentSessionId === parent.sessionId ? [{ entry, session }] : [];
  });
}

/** `rootId` and every subagent session under it, any depth, parents first (each once). */
export function sessionTree(store: SessionLookup, rootId: string): string[] {
  const out = [rootId];
  for (let i = 0; i < out.length; i++) {
    const s = store.session(out[i]!);
    if (s) for (const c of childSessions(store, s)) if (!out.includes(c.session.sessionId)) out.push(c.session.sessionId);
  }
  return out;
}

/** States in which a subagent's work is not done: it runs, or it waits on the user. */
const BUSY_STATES = new Set(['running', 'requires_action']);

/** The subagents under `rootId` (any depth) whose work is not done. */
export function busySubagents(store: SessionLookup, rootId: string): SubagentEntry[] {
  return sessionTree(store, rootId).flatMap((sid) => {
    const s = store.session(sid);
    return s ? childSessions(store, s).flatMap((c) => (c.entry.state !== null && BUSY_STATES.has(c.entry.state) ? [c.entry] : [])) : [];
  });
}

/** Whether `sessionId` is a subagent under `ancestor`, any depth (never itself). */
export function isUnder(store: SessionLookup, sessionId: string, ancestor: string): boolean {
  const seen = new Set([sessionId]);
  for (let p = store.session(sessionId)?.parentSessionId ?? null; p !== null && !seen.has(p); p = store.session(p)?.parentSessionId ?? null) {
    if (p === ancestor) return true;
    seen.add(p);
  }
  return false;
}
