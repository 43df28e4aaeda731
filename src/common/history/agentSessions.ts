/**
 * The agent's own sessions (`session/list`) that ACP Chat does not know yet: started in the agent's CLI or
 * another client. A session is known when any chat, archived ones too, shows it now or showed it before
 * (`seen`: the sessions of the chats' loaded stores); once opened it becomes a chat of its own, so it is
 * offered once and then listed like any chat.
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
