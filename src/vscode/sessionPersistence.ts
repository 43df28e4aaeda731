/**
 * Where each chat's message store is kept between VS Code sessions, so a reload restores every chat
 * exactly (same entries, same keys) and its session can be resumed or loaded; and the chat list itself
 * (src/common/chats/registry.ts). Stores are keyed by chat id (before several chats existed, by agent id:
 * those ids are adopted as chats of that agent).
 */
import type { Direction, StoreChange } from '../common/store';
import { MessageStore } from '../common/store';

export interface SessionPersistence {
  /** The saved store and last session of a chat (an empty store when nothing was saved). */
  restore(chatId: string, warn: (message: string) => void): { store: MessageStore; sessionId: string | null };
  /** Records one message of the chat's connection after the store ingested it (`changes` carry the keys it minted). */
  append(chatId: string, dir: Direction, msg: unknown, changes: readonly StoreChange[], seq: number): void;
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
  restore(chatId: string): { store: MessageStore; sessionId: string | null } {
    const store = this.seeded.get(chatId);
    this.seeded.delete(chatId);
    return store ? { store, sessionId: store.sessions().at(-1)?.sessionId ?? null } : { store: new MessageStore(), sessionId: null };
  }
  seed(chatId: string, store: MessageStore): void {
    this.seeded.set(chatId, store);
  }
  private index: unknown;
  append(): void {}
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
