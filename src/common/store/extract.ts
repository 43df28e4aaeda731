/**
 * A store holding one session of another store, entries and keys as they are: how a fork becomes a chat
 * of its own (the source chat's store copied the shared history into the fork when `session/fork`
 * answered; the new chat starts from exactly those entries, attached to that session). Pending requests
 * and diagnostics stay behind.
 */
import { MessageStore } from './store';

export function storeWithSession(source: MessageStore, sessionId: string): MessageStore {
  const json = source.toJSON();
  const sessions = json.sessions.filter((s) => s.sessionId === sessionId);
  return MessageStore.fromJSON({ ...json, attached: sessionId, sessions, pending: { 'client->agent': [], 'agent->client': [] }, diagnostics: [] }).store;
}
