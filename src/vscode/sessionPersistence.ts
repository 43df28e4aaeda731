/**
 * Where each agent's message store is kept between VS Code sessions, so a reload restores the panel
 * exactly (same entries, same keys) and the session can be resumed or loaded.
 */
import type { Direction, StoreChange } from '../common/store';
import { MessageStore } from '../common/store';

export interface SessionPersistence {
  /** The saved store and last session of an agent (an empty store when nothing was saved). */
  restore(agentId: string, warn: (message: string) => void): { store: MessageStore; sessionId: string | null };
  /** Records one message of the agent's connection after the store ingested it (`changes` carry the keys it minted). */
  append(agentId: string, dir: Direction, msg: unknown, changes: readonly StoreChange[], seq: number): void;
  /** Writes everything pending (called on deactivate). */
  flush(): Promise<void>;
}

/** Keeps nothing across restarts: used when the extension has no storage folder, and in tests. */
export class MemoryPersistence implements SessionPersistence {
  restore(): { store: MessageStore; sessionId: string | null } {
    return { store: new MessageStore(), sessionId: null };
  }
  append(): void {}
  async flush(): Promise<void> {}
}
