/**
 * The agents' own sessions (`session/list`) that ACP Chat does not know yet: started in an agent's CLI or
 * another client. A session is known when any chat, archived ones too, shows it now or showed it before
 * (`seen`: the sessions of the chats' loaded stores); once opened it becomes a chat of its own, so it is
 * offered once and then listed like any chat. Each configured agent gets a row saying where its listing
 * is (the same words in Open Session… and the History view), with the sessions it offers.
 */
import type { ChatRecord } from '../chats/chatIndex';

export function unknownSessions<S extends { readonly sessionId: string }>(listed: readonly S[], records: readonly ChatRecord[], seen: Iterable<string>): S[] {
  const known = new Set<string>(seen);
  for (const r of records) {
    if (r.sessionId) known.add(r.sessionId);
    if (r.origin?.sessionId) known.add(r.origin.sessionId);
  }
  const out: S[] = [];
  for (const s of listed) {
    if (known.has(s.sessionId)) continue;
    known.add(s.sessionId); // an agent listing a session twice shows it once
    out.push(s);
  }
  return out;
}

/** A session as the agent lists it (untrusted text: shown as text only). */
interface ListedSession {
  readonly sessionId: string;
  readonly title?: string | null;
  readonly updatedAt?: string | null;
}

/** Where one agent's listing is. */
export type AgentListing =
  | { readonly state: 'listing' }
  | { readonly state: 'listed'; readonly sessions: readonly ListedSession[] }
  | { readonly state: 'unsupported' }
  | { readonly state: 'failed'; readonly reason: string };

/** One agent's row: its state in words, and the sessions it has that no chat shows. */
export interface AgentSessionsRow {
  readonly agentId: string;
  readonly name: string;
  readonly state: 'listing' | 'listed' | 'none' | 'unsupported' | 'failed';
  readonly note: string;
  readonly sessions: readonly ListedSession[];
}

export function agentSessionsRow(
  agent: { readonly id: string; readonly name: string },
  listing: AgentListing,
  records: readonly ChatRecord[],
  seen: Iterable<string>,
): AgentSessionsRow {
  const base = { agentId: agent.id, name: agent.name, sessions: [] as ListedSession[] };
  switch (listing.state) {
    case 'listing':
      return { ...base, state: 'listing', note: 'listing its sessions…' };
    case 'unsupported':
      return { ...base, state: 'unsupported', note: 'does not list its sessions (no session/list)' };
    case 'failed':
      return { ...base, state: 'failed', note: `listing failed: ${listing.reason}` };
    case 'listed': {
      const sessions = unknownSessions(listing.sessions, records, seen);
      if (sessions.length === 0) return { ...base, state: 'none', note: 'no sessions that ACP Chat does not show' };
      return { ...base, state: 'listed', note: `${sessions.length} session${sessions.length === 1 ? '' : 's'} not in ACP Chat`, sessions };
    }
  }
}
