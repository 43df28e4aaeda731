/**
 * Which chats are live in this window: a chat is taken first (read from its folder and locked, so two
 * windows never write one chat), then made live (its ChatController built and its agent started), and
 * stopped and let go when nothing shows it any more. The one owner of the live sessions; ChatService
 * decides when a chat is needed or no longer shown.
 */
import * as vscode from 'vscode';
import { findAgent, type AgentConfig } from '../../common/config/settings';
import type { ChatIndex } from '../../common/chats/chatIndex';
import type { IDisposable } from '../../common/util/lifecycle';
import { createChatController, type ChatFactoryDeps } from './chatFactory';
import type { ChatController } from '../../node/chat/chatController';
import { watchWorkspaceFolders } from '../workspace/workspaceFolders';
import { ChatElsewhereError, type ChatPersistence } from '../../node/chat/chatPersistence';
import type { ChatsElsewhere } from './chatsElsewhere';

export interface LiveChatsHost {
  readonly log: vscode.LogOutputChannel;
  index(): ChatIndex;
  /** The saved chats (undefined before ChatService.ready()). */
  persistence(): ChatPersistence | undefined;
  agents(): AgentConfig[];
  /** What every chat session shares (the chat's own record and agent aside). */
  factory(persistence: ChatPersistence): ChatFactoryDeps;
  /** Ties a new live chat to what follows it (attention, title, the index's session id, the tree). */
  follow(chatId: string, session: ChatController): void;
  /** A live chat stopped. */
  dropped(chatId: string): void;
  /** The window is closing: stopped chats keep their locks until the host exits. */
  closing(): boolean;
  /** Chats another window has: offered read-only or to take over; handed over when another window asks. */
  elsewhere(): Pick<ChatsElsewhere, 'offer' | 'handOff'>;
}

export class LiveChats implements IDisposable {
  private readonly live = new Map<string, ChatController>();
  /** Another window asking for a chat this one has (watched from the first chat taken). */
  private handoffs: IDisposable | undefined;
  /** A folder added to or removed from the workspace is said in every live chat. */
  private readonly folders = watchWorkspaceFolders(() => this.live.values());

  constructor(private readonly host: LiveChatsHost) {}

  get(chatId: string): ChatController | undefined {
    return this.live.get(chatId);
  }

  has(chatId: string): boolean {
    return this.live.has(chatId);
  }

  sessions(): IterableIterator<ChatController> {
    return this.live.values();
  }

  /** The settings changed: chats waiting for their agent start once the settings name it. */
  agentsChanged(): void {
    for (const s of this.live.values()) {
      const agent = findAgent(this.host.agents(), s.agent.id);
      if (agent) s.agentConfigured(agent); // a no-op for a chat that has its agent
    }
  }

  /** The chat id of a live session. */
  idOf(session: ChatController): string | undefined {
    for (const [id, s] of this.live) if (s === session) return id;
    return undefined;
  }

  /**
   * The live session of a chat, taken for this window first (read from its folder, locked): refused with
   * a message when another window of the workspace has the chat open.
   */
  async take(chatId: string): Promise<ChatController> {
    const live = this.live.get(chatId);
    if (live) return live;
    await this.claim(chatId);
    return this.make(chatId);
  }

  /** Takes a chat for this window; throws ChatElsewhereError (after saying so) when another window has it. */
  async claim(chatId: string): Promise<void> {
    const claim = await this.persistence().prepare(chatId);
    if (claim.ok) return;
    void this.host.elsewhere().offer(chatId);
    throw new ChatElsewhereError(chatId, claim.holder);
  }

  /** Whether this window may show a chat: it is live here, or taken now (false: another window has it). */
  async tryTake(chatId: string): Promise<boolean> {
    return this.live.has(chatId) || ((await this.host.persistence()?.prepare(chatId))?.ok ?? false);
  }

  /** The live session of a chat taken for this window (created, and its agent started, on first use). */
  make(chatId: string): ChatController {
    const existing = this.live.get(chatId);
    if (existing) return existing;
    const record = this.host.index().get(chatId);
    if (!record) throw new Error(`no chat ${chatId}`);
    // A chat never runs another agent than its own: without it, it says so and waits for the settings to
    // name it (ChatService's onDidChangeConfiguration).
    const agent = findAgent(this.host.agents(), record.agentId) ?? null;
    if (!agent) this.host.log.warn(`chat ${chatId}: its agent '${record.agentId}' is not in acpChat.agents; it waits for the settings to name it`);
    this.handoffs ??= this.persistence().watchHandoffs((id) => this.host.elsewhere().handOff(id));
    const session = createChatController(this.host.factory(this.persistence()), record, agent);
    this.live.set(chatId, session);
    this.host.follow(chatId, session);
    void session.start();
    return session;
  }

  /** Stops a live chat (agent, terminals); what it wrote is flushed and, unless the window closes, let go. */
  drop(chatId: string): void {
    const session = this.live.get(chatId);
    if (!session) return;
    this.live.delete(chatId);
    session.dispose();
    // Written and let go, so another window of the workspace may take it (not while this window closes).
    if (!this.host.closing()) void this.host.persistence()?.release(chatId);
    // Holding no chat, the window has nothing to hand off: no poll for requests (2.5 a second) while idle.
    if (this.live.size === 0) {
      this.handoffs?.dispose();
      this.handoffs = undefined;
    }
    this.host.dropped(chatId);
  }

  dispose(): void {
    this.handoffs?.dispose();
    this.folders.dispose();
    this.live.forEach((s) => s.dispose());
  }

  private persistence(): ChatPersistence {
    const p = this.host.persistence();
    if (!p) throw new Error('ChatService.ready() must complete before a chat is used');
    return p;
  }
}
