/**
 * A store holding one session of another store, entries and keys as they are: how a fork becomes a chat
 * of its own (the source chat's store copied the shared history into the fork when `session/fork`
 * answered; the new chat starts from exactly those entries, attached to that session). Pending requests
 * and diagnostics stay behind. `inherit`: the session the fork was made from, whose plan, usage, title,
 * commands and terminal views the fork shows until the agent sends its own (the copy of the history carries entries only).
 */
import type { SessionState } from './model';
import { MessageStore } from './store';

export function storeWithSession(source: MessageStore, sessionId: string, inherit?: SessionState): MessageStore {
  const json = source.toJSON();
  const sessions = json.sessions.flatMap((raw) => {
    const s = raw as { sessionId?: unknown; plan?: unknown; usage?: unknown; title?: unknown; availableCommands?: unknown; terminals?: object };
    if (s.sessionId !== sessionId) return [];
    if (!inherit) return [raw];
    const commands = Array.isArray(s.availableCommands) && s.availableCommands.length > 0 ? s.availableCommands : inherit.availableCommands;
    // The copied tool calls name the source's terminals: their cards keep the output.
    const terminals = { ...inherit.terminals, ...s.terminals };
    return [{ ...s, plan: s.plan ?? inherit.plan, usage: s.usage ?? inherit.usage, title: s.title ?? inherit.title, availableCommands: commands, terminals }];
  });
  // Notices and Changes stay behind too (the caller moves the Changes it keeps).
  return MessageStore.fromJSON({ ...json, attached: sessionId, sessions, pending: { 'client->agent': [], 'agent->client': [] }, diagnostics: [], notices: [], changes: undefined }).store;
}
