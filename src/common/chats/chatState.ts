/**
 * Everything one chat's saved state holds, in one type: what a reload restores, what a fork copies and
 * what a delete removes. It is the store alone: the store holds everything the chat shows (transcript,
 * terminal views, notices, Changes summaries), saved as one journal + snapshot; the files are listed in
 * one place (src/node/persistence/chatFiles.ts). The chat's record in the chat list (session, agent) is
 * the chat index's, derived for a fork from the forked store; its title is the store's (chatTitles.ts).
 */
import { MessageStore } from '../store';
import { storeWithSession } from '../store/extract';
import { restoreChanges, savedChanges } from '../changes/persist';

export interface ChatState {
  /** Every session the chat showed, and what the client added to them (snapshot + journal on disk). */
  readonly store: MessageStore;
}

/**
 * A new chat's state for an agent session it shows but has not loaded (Open Session… on a listed session):
 * an empty store attached to it, so the chat's connection loads (or resumes) that session when it starts.
 */
export function openedSessionState(sessionId: string): ChatState {
  // Made from a saved form, as a fork's store is (extract.ts): a store starts attached; only the connection attaches one later.
  return { store: MessageStore.fromJSON({ ...new MessageStore().toJSON(), attached: sessionId }).store };
}

/**
 * A new chat's state for the fork `forkSessionId` of the source chat's session `fromSessionId`: the
 * fork's session only (the source's store already copied the shared history into it when `session/fork`
 * answered, under new keys), with the session's plan, usage, title and terminal views where the fork has
 * none yet; and the Changes summaries of the source session, moved to the fork's entries (the
 * n-th copied entry is the copy of the n-th source entry).
 */
export function forkChatState(source: ChatState, fromSessionId: string, forkSessionId: string): ChatState {
  const from = source.store.session(fromSessionId);
  const store = storeWithSession(source.store, forkSessionId, from);
  const copied = store.session(forkSessionId)?.entries.filter((e) => e.provenance === 'fork') ?? [];
  const keys = new Map<string, string>();
  from?.entries.forEach((e, i) => {
    const copy = copied[i];
    if (copy && copy.kind === e.kind) keys.set(e.key, copy.key);
  });
  const changes = forkChanges(source.store.changes(), fromSessionId, forkSessionId, keys);
  // A new store, not yet any chat's: its first record is made here, before its journal exists.
  if (changes !== undefined) store.record({ event: 'changes', saved: changes });
  // Told apart from its source wherever chats are named (tabs, notices); the user may rename it.
  if (from?.title) store.record({ event: 'user_title', sessionId: forkSessionId, title: `${from.title} (fork)` });
  return { store };
}

/** The source session's change sets as the fork's (each shown after the copy of its entry); undefined: none. */
function forkChanges(raw: unknown, fromSessionId: string, forkSessionId: string, keys: ReadonlyMap<string, string>): unknown {
  const { state } = restoreChanges(raw);
  const sets = state.sets
    .filter((s) => s.sessionId === fromSessionId)
    .map((s) => ({ ...s, sessionId: forkSessionId, afterKey: s.afterKey === null ? null : (keys.get(s.afterKey) ?? null) }));
  return sets.length > 0 ? savedChanges({ seq: state.seq, sets }) : undefined;
}
