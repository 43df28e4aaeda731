/**
 * Where each chat's saved state (src/common/chats/chatState.ts) is kept between VS Code sessions, so a
 * reload restores every chat exactly (same entries, same keys) and its session can be resumed or loaded;
 * and the chat list itself (src/common/chats/chatIndex.ts). Every window of a workspace shares them, so a
 * chat is taken by one window at a time (`prepare` ... `release`). Stores are keyed by chat id (before
 * several chats existed, by agent id: those ids are adopted as chats of that agent).
 */
import type { Direction, StoreDelta } from '../../common/store';
import { MessageStore } from '../../common/store';
import type { ClientEvent } from '../../common/store/clientEvents';
import type { ChatState } from '../../common/chats/chatState';
import type { LockHolder } from '../persistence/chatLock';
import type { IDisposable } from '../../common/util/lifecycle';
import { parseChatIndex } from '../../common/chats/chatIndex';

/** A chat list read and checked (src/common/chats/chatIndex.ts `parseChatIndex`). */
export type ChatList = ReturnType<typeof parseChatIndex>;

/** A chat's saved state: its store, which holds everything the chat shows (empty when nothing was saved). */
export interface Restored {
  readonly store: MessageStore;
  /** `store.attachedSessionId()`: null when nothing was saved, or the save predates attach records. */
  readonly sessionId: string | null;
}

/** Whether this window may show and write a chat: not while another live window has it. */
export type Claim = { readonly ok: true } | { readonly ok: false; readonly holder: LockHolder };

/** A chat another VS Code window has open: it is shown and written there, not here. */
export class ChatElsewhereError extends Error {
  constructor(
    readonly chatId: string,
    readonly holder: LockHolder,
  ) {
    super('This chat is open in another VS Code window of this workspace. Open it read-only here, or take it over.');
  }
}

export interface ChatPersistence {
  /** The folder the chats are kept in (undefined: nowhere, they do not survive a restart). */
  readonly folder: string | undefined;
  /** Takes a chat for this window (its lock) and reads its saved state, before `restore`; refused while another window has it. */
  prepare(chatId: string): Promise<Claim>;
  /** Who else has a chat now, without taking it. */
  holderOf(chatId: string): Claim;
  /** A chat's saved state read without taking it (another window has it): a copy to show read-only. */
  peek(chatId: string): Promise<MessageStore | undefined>;
  /** Asks the window that has a chat to let go of it (take over); `withdraw` takes the request back. */
  requestHandoff(chatId: string): void;
  withdrawHandoff(chatId: string): void;
  /** Calls `onAsked` when another window asks for a chat this one has (it should let go: `release`). */
  watchHandoffs(onAsked: (chatId: string) => void): IDisposable;
  /** The saved state of a prepared (or new) chat; empty when nothing was saved. */
  restore(chatId: string, warn: (message: string) => void): Restored;
  /** The current state of a chat this window has (what a fork copies). */
  state(chatId: string): ChatState | undefined;
  /** Records one message of the chat's connection after the store ingested it (`changes` carry the keys it minted). */
  append(chatId: string, dir: Direction, msg: unknown, changes: readonly StoreDelta[], seq: number): void;
  /** Records `store.attach(sessionId)` of the chat's store, which the caller applied. */
  attach(chatId: string, sessionId: string | null): void;
  /** Records `store.record(event)` of the chat's store (terminal output, a notice, Changes), which the caller applied. */
  record(chatId: string, event: ClientEvent): void;
  /** Writes everything pending. */
  flush(): Promise<void>;
  /** Writes everything pending and lets go of every chat (the window closes). */
  close(): Promise<void>;
  /** Writes what a chat has pending and lets go of it (no view shows it): another window may take it. */
  release(chatId: string): Promise<void>;
  /** Starts a new chat's saved state from `state` (a fork): `restore` returns it. */
  seed(chatId: string, state: ChatState): void;
  /** Forgets a chat: every file of its state is deleted. */
  remove(chatId: string): Promise<void>;
  /** Ids that have a saved store (found when opened). */
  savedIds(): readonly string[];
  /** The saved chat list as read when opened (undefined: none saved yet). */
  readIndex(): unknown;
  /** The same, checked (records that do not parse left out and logged): what the window's chat list starts from. */
  chatList(): ChatList;
  /** Saves the chat list (written in order; `flush()` waits for it). */
  writeIndex(index: unknown): void;
  /**
   * Saved chats the list lacks (it was lost, damaged, or written by a window that crashed), rebuilt from their
   * search files and added to the saved list; run after the window's first chat painted (ChatService.ready).
   */
  recoverMissing(): Promise<ChatList['chats']>;
  /** Calls `onIndex` with the chat list each time another window writes it (the file as read), until disposed. */
  watchIndex(onIndex: (raw: unknown) => void): IDisposable;
}

/** Keeps nothing across restarts: used when the extension has no storage folder, and in tests. */
export class MemoryPersistence implements ChatPersistence {
  readonly folder = undefined;
  private readonly seeded = new Map<string, ChatState>();
  private readonly live = new Map<string, ChatState>();
  async prepare(): Promise<Claim> {
    return { ok: true };
  }
  holderOf(): Claim {
    return { ok: true };
  }
  async peek(): Promise<MessageStore | undefined> {
    return undefined;
  }
  requestHandoff(): void {}
  withdrawHandoff(): void {}
  watchHandoffs(): IDisposable {
    return { dispose: () => undefined };
  }
  watchIndex(): IDisposable {
    return { dispose: () => undefined };
  }
  restore(chatId: string): Restored {
    const s = this.seeded.get(chatId) ?? this.live.get(chatId) ?? { store: new MessageStore() };
    this.seeded.delete(chatId);
    this.live.set(chatId, s);
    return { store: s.store, sessionId: s.store.attachedSessionId() };
  }
  state(chatId: string): ChatState | undefined {
    return this.live.get(chatId);
  }
  seed(chatId: string, state: ChatState): void {
    this.seeded.set(chatId, state);
  }
  private index: unknown;
  append(): void {}
  attach(): void {}
  record(): void {}
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
  async release(chatId: string): Promise<void> {
    this.live.delete(chatId);
  }
  async remove(chatId: string): Promise<void> {
    this.live.delete(chatId);
  }
  savedIds(): readonly string[] {
    return [];
  }
  readIndex(): unknown {
    return this.index;
  }
  chatList(): ChatList {
    return parseChatIndex(this.index, () => undefined);
  }
  writeIndex(index: unknown): void {
    this.index = index;
  }
  async recoverMissing(): Promise<ChatList['chats']> {
    return [];
  }
}

/**
 * The session a restored chat reattaches: the one its store recorded as attached (a chat opened on a chosen
 * session and a fork start attached: `openedSessionState`, `forkChatState`); for a save from before attaches
 * were recorded, the session its chat-list entry names (`listed`, the index's cache, from the older versions
 * that wrote it), else its store's last session.
 */
export function sessionToAttach(restored: Restored, listed: string | null): string | null {
  return restored.sessionId ?? listed ?? restored.store.sessions().at(-1)?.sessionId ?? null;
}
