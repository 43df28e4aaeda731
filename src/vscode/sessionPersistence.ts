/**
 * Where each chat's message store is kept between VS Code sessions, so a reload restores every chat
 * exactly (same entries, same keys) and its session can be resumed or loaded; and the chat list itself
 * (src/common/chats/registry.ts). Stores are keyed by chat id (before several chats existed, by agent id:
 * those ids are adopted as chats of that agent).
 */
import type { Direction, StoreChange } from '../common/store';
import { MessageStore } from '../common/store';
import type { SavedTerminal } from '../common/savedTerminals';

/** A chat's saved state: its store, attached session and terminal views (all empty when nothing was saved). */
export interface Restored {
  readonly store: MessageStore;
  /** `store.attachedSessionId()`: null when nothing was saved, or the save predates attach records. */
  readonly sessionId: string | null;
  readonly terminals: readonly SavedTerminal[];
}

export interface SessionPersistence {
  /** The saved store, last session and terminal views of a chat (empty when nothing was saved). */
  restore(chatId: string, warn: (message: string) => void): Restored;
  /** The chat's terminal views changed; `saved` reads them when they are written (batched, and on `flush`). */
  saveTerminals(chatId: string, saved: () => readonly SavedTerminal[]): void;
  /** Records one message of the chat's connection after the store ingested it (`changes` carry the keys it minted). */
  append(chatId: string, dir: Direction, msg: unknown, changes: readonly StoreChange[], seq: number): void;
  /** Records `store.attach(sessionId)` of the chat's store, which the caller applied. */
  attach(chatId: string, sessionId: string | null): void;
  /** Writes everything pending (called on deactivate). */
  flush(): Promise<void>;
  /** Starts a new chat's saved state from `store` (a fork's shared history): `restore` returns it. */
  seed(chatId: string, store: MessageStore): void;
  /** Forgets a chat: its journal and snapshots are deleted. */
  remove(chatId: string): Promise<void>;
  /** Ids that have a saved store (found when opened). */
  savedIds(): readonly string[];
  /** The saved chat list as read when opened (undefined: none saved yet). */
  readIndex(): unknown;
  /** Saves the chat list (written in order; `flush()` waits for it). */
  writeIndex(index: unknown): void;
}

/** Keeps nothing across restarts: used when the extension has no storage folder, and in tests. */
export class MemoryPersistence implements SessionPersistence {
  private readonly seeded = new Map<string, MessageStore>();
  restore(chatId: string): Restored {
    const store = this.seeded.get(chatId);
    this.seeded.delete(chatId);
    return store ? { store, sessionId: store.attachedSessionId(), terminals: [] } : { store: new MessageStore(), sessionId: null, terminals: [] };
  }
  saveTerminals(): void {}
  seed(chatId: string, store: MessageStore): void {
    this.seeded.set(chatId, store);
  }
  private index: unknown;
  append(): void {}
  attach(): void {}
  async flush(): Promise<void> {}
  async remove(): Promise<void> {}
  savedIds(): readonly string[] {
    return [];
  }
  readIndex(): unknown {
    return this.index;
  }
  writeIndex(index: unknown): void {
    this.index = index;
  }
}

/**
 * The session a restored chat reattaches: the one its store recorded as attached; for a chat with no
 * record yet, the one its chat-list entry names (a chat opened on a chosen session, a fork); for a save
 * from before attaches were recorded, its store's last session.
 */
export function sessionToAttach(restored: Restored, listed: string | null): string | null {
  return restored.sessionId ?? listed ?? restored.store.sessions().at(-1)?.sessionId ?? null;
}
