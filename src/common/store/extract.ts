/**
 * A store holding one session of another store (and the subagent sessions its cards started, any depth),
 * entries and keys as they are: how a fork becomes a chat of its own (the source chat's store copied the shared history into the fork when `session/fork`
 * answered; the new chat starts from exactly those entries, attached to that session). Pending requests
 * and diagnostics stay behind. `inherit`: the session the fork was made from, whose plan, usage, title,
 * commands and terminal views the fork shows until the agent sends its own (the copy of the history carries entries only).
 */
import type { SessionState } from './model';
import { MessageStore } from './store';

export function storeWithSession(source: MessageStore, sessionId: string, inherit?: SessionState): MessageStore {
  const json = source.toJSON();
  const carried = subagentsOf(source, sessionId);
  const sessions = json.sessions.flatMap((raw) => {
    const s = raw as { sessionId?: unknown; plan?: unknown; usage?: unknown; title?: unknown; availableCommands?: unknown; terminals?: object };
    // The subagents of the cards the session holds come along as they are (entries, keys): their cards open
    // and expand in the new chat too. Their parent is derived from the cards again on restore (linkChildren).
    if (typeof s.sessionId === 'string' && carried.has(s.sessionId)) return [raw];
    if (s.sessionId !== sessionId) return [];
    if (!inherit) return [raw];
    const commands = Array.isArray(s.availableCommands) && s.availableCommands.length > 0 ? s.availableCommands : inherit.availableCommands;
    // The copied tool calls name the source's terminals: their cards keep the output.
    const terminals = { ...inherit.terminals, ...s.terminals };
    return [{ ...s, plan: s.plan ?? inherit.plan, usage: s.usage ?? inherit.usage, title: s.title ?? inherit.title, availableCommands: commands, terminals }];
  });
  // Notices and Changes stay behind too (the caller moves the Changes it keeps).
  return MessageStore.fromJSON({ ...json, attached: sessionId, sessions, pending: { 'client->agent': [], 'agent->client': [] }, diagnostics: [], notices: [], changes: undefined })
    .store;
}

/** The child sessions of the subagent cards in `sessionId`, any depth (each once; a card naming an ancestor is no child). */
function subagentsOf(source: MessageStore, sessionId: string): Set<string> {
  const out = new Set<string>();
  const queue = [sessionId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const e of source.session(id)?.entries ?? []) {
      if (e.kind !== 'subagent' || e.childSessionId === sessionId || out.has(e.childSessionId) || !source.session(e.childSessionId)) continue;
      out.add(e.childSessionId);
      queue.push(e.childSessionId);
    }
  }
  return out;
}
