/**
 * The chat index: which chats exist (open in a tab or only in history), which agent each talks to, and
 * which one the user focused last. Pure data, so the rules (history order, what "Open Chat" reveals, tab
 * titles) are tested without VS Code; ChatService owns the live sessions and keeps this in step, and the
 * index is saved beside the chats' journals (`chats.json`).
 *
 * A chat's title is not the index's: its owner is the chat's store (the title the agent sent in
 * `session_info_update`). `ChatRecord.title` is only a cache of it, so the chat list can name a chat
 * whose store is not loaded; it is written in one place (`cacheTitle`, called by ChatTitles when the
 * store's title changes) and read only where the store is not loaded. `ChatRecord.sessionId` is the same
 * kind of cache, of the session the store is attached to (`MessageStore.attach`, its one owner): written
 * only by `cacheSession` from a store, and read only where the store is not loaded (Open Session… finds
 * the chat showing a session; the agents' session lists leave out the sessions chats show).
 */
import * as z from 'zod';
import { labelText } from '../untrusted';
import { Emitter } from '../util/lifecycle';
import { zMcpOff } from '../mcp/mcpServers';
import { zWorktreeInfo } from '../worktrees/worktreeInfo';

/** A branch's source: the chat, its session and the user message (store key) the branch was made at. */
const zChatOrigin = z.object({ kind: z.literal('forked'), chatId: z.string().min(1).max(200), sessionId: z.string().max(2000), messageKey: z.string().max(200) });
export type ChatOrigin = Readonly<z.infer<typeof zChatOrigin>>;

/** One chat in the index. The type is the schema's (one shape for the file and the code); each field is tolerant on read. */
const zChatRecord = z.object({
  /** Our own id: names the chat's journal and capture files, and the webview panel it is shown in. */
  id: z.string().min(1).max(200),
  agentId: z.string().min(1).max(500),
  /** A cache of the store's session title (see the header), for a chat whose store is not loaded. */
  title: z.string().max(2000).nullable().catch(null),
  /** A cache of the session the chat's store is attached to (see the header; null: none yet). */
  sessionId: z.string().max(2000).nullable().catch(null),
  createdAt: z.number().catch(0),
  updatedAt: z.number().catch(0),
  /** Where a branch came from (Edit and Rerun, Regenerate); null (or absent, in older lists): a chat of its own. */
  origin: zChatOrigin.nullable().optional().catch(undefined),
  /** The MCP servers (by name) the user turned off for this chat's sessions (absent: none); see common/mcp. */
  mcpOff: zMcpOff.optional().catch(undefined),
  /** Archive Chat put it away: out of the lists (history, "open chat") until Unarchive Chat… brings it back. */
  archived: z.boolean().optional().catch(undefined),
  /** The folder the chat's agent works in (its `cwd`), for history's folder filter; absent before it started. */
  folder: z.string().max(4000).optional().catch(undefined),
  /** How its last turn ended (history's state filter); absent: no turn ended since this was recorded. */
  ended: z.enum(['finished', 'failed']).optional().catch(undefined),
  /** It finished or asked something while the user was not looking, and they have not looked since. */
  unread: z.boolean().optional().catch(undefined),
  /** A worktree chat's git worktree (absent: the chat works in the workspace); see common/worktrees. */
  worktree: zWorktreeInfo.optional().catch(undefined),
});
export type ChatRecord = Readonly<z.infer<typeof zChatRecord>>;

const zChatIndex = z.object({ version: z.literal(1), chats: z.array(z.unknown()), focused: z.array(z.string()).catch([]) });

export interface ChatIndexFile {
  readonly version: 1;
  readonly chats: readonly ChatRecord[];
  /** Chat ids, most recently focused first. */
  readonly focused: readonly string[];
}

/** Reads a saved index; unreadable records are reported and skipped, never fatal. */
export function parseChatIndex(raw: unknown, warn: (message: string) => void): { chats: ChatRecord[]; focused: string[] } {
  if (raw === undefined || raw === null) return { chats: [], focused: [] };
  const index = zChatIndex.safeParse(raw);
  if (!index.success) {
    warn(`the chat list is unreadable and was started afresh: ${index.error.issues[0]?.message ?? 'bad format'}`);
    return { chats: [], focused: [] };
  }
  const chats: ChatRecord[] = [];
  const seen = new Set<string>();
  for (const [i, item] of index.data.chats.entries()) {
    const r = zChatRecord.safeParse(item);
    if (!r.success) warn(`chat ${i} in the chat list is unreadable and was skipped`);
    else if (!seen.has(r.data.id)) {
      seen.add(r.data.id);
      chats.push(r.data);
    }
  }
  return { chats, focused: index.data.focused.filter((id) => seen.has(id)) };
}

/**
 * One chat list from two: `mine` (what this window writes) and `theirs` (what another window wrote, or a
 * storage folder being moved in). Chats only one side has are kept, except those `dropped` (deleted here);
 * a chat both have keeps the record used last. Focus order: mine first, then theirs.
 */
export function mergeChatIndex(mine: ChatIndexFile, theirs: unknown, dropped: ReadonlySet<string> = new Set(), warn: (message: string) => void = () => undefined): ChatIndexFile {
  const other = parseChatIndex(theirs, warn);
  const byId = new Map<string, ChatRecord>();
  for (const c of other.chats) if (!dropped.has(c.id)) byId.set(c.id, c);
  for (const c of mine.chats) {
    const o = byId.get(c.id);
    byId.set(c.id, o && o.updatedAt > c.updatedAt ? o : c);
  }
  const focused = [...new Set([...mine.focused, ...other.focused])].filter((id) => byId.has(id));
  return { version: 1, chats: [...byId.values()], focused };
}

/** Whether an id is one `newChatId` made (else it is an agent id: a store saved before several chats existed). */
export function isChatId(id: string): boolean {
  return /^chat-[a-z0-9]+-[a-z0-9]+$/.test(id);
}

/** A new chat id: time-ordered, unique within the chat index, safe as a file name. */
export function newChatId(now: number, random: () => number, taken: (id: string) => boolean): string {
  for (;;) {
    const id = `chat-${now.toString(36)}-${Math.floor(random() * 36 ** 6)
      .toString(36)
      .padStart(6, '0')}`;
    if (!taken(id)) return id;
  }
}

/**
 * A chat's tab title: the agent's session title when it sent one, else "Chat N · agent" with N the
 * chat's place in creation order (readable, and unchanged when the agent opens its session), made safe
 * for VS Code's label rendering (no icons, links or breaks).
 */
export function chatTitle(record: Pick<ChatRecord, 'title'>, agentName: string, ordinal: number): string {
  if (record.title && record.title.trim()) return labelText(record.title.trim(), 60);
  return labelText(`Chat ${ordinal} · ${agentName}`, 60);
}

/** History order: most recently used first; a tie (same millisecond) by creation, newest first. */
export function historyOrder(chats: readonly ChatRecord[]): ChatRecord[] {
  return [...chats].sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
}

/**
 * Chats as a tree of branches, for the history list: each chat in history order at the top level unless
 * it is a branch of a chat still listed, in which case it follows its source (its own branches after it,
 * deeper). `depth` 0 is a chat of its own. A cycle (not made by us, but the list is a file) ends at the root.
 */
export function branchTree(chats: readonly ChatRecord[]): { readonly record: ChatRecord; readonly depth: number }[] {
  const ordered = historyOrder(chats);
  const ids = new Set(ordered.map((c) => c.id));
  const parentOf = (c: ChatRecord) => (c.origin && c.origin.chatId !== c.id && ids.has(c.origin.chatId) ? c.origin.chatId : undefined);
  const children = new Map<string, ChatRecord[]>();
  for (const c of ordered) {
    const p = parentOf(c);
    if (p !== undefined) children.set(p, [...(children.get(p) ?? []), c]);
  }
  const out: { record: ChatRecord; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (c: ChatRecord, depth: number) => {
    if (seen.has(c.id)) return;
    seen.add(c.id);
    out.push({ record: c, depth });
    for (const k of children.get(c.id) ?? []) visit(k, depth + 1);
  };
  for (const c of ordered) if (parentOf(c) === undefined) visit(c, 0);
  // Chats only reachable through a cycle of origins: listed at the top level rather than lost.
  for (const c of ordered) visit(c, 0);
  return out;
}

export class ChatIndex {
  private readonly chats = new Map<string, ChatRecord>();
  /** Most recently focused first. */
  private focusOrder: string[] = [];
  private readonly changed = new Emitter<void>();
  /** Any record or the focus changed (ChatService saves the index on this). */
  readonly onDidChange = this.changed.event;
  private readonly focusChanged = new Emitter<string | undefined>();
  readonly onDidChangeFocus = this.focusChanged.event;
  private readonly followed = new Emitter<readonly string[]>();
  /** Records another window wrote were taken (`follow`): the chats' ids. Nothing to save, unlike onDidChange. */
  readonly onDidFollow = this.followed.event;

  constructor(initial: { chats: readonly ChatRecord[]; focused: readonly string[] } = { chats: [], focused: [] }) {
    for (const c of initial.chats) this.chats.set(c.id, c);
    this.focusOrder = initial.focused.filter((id) => this.chats.has(id));
  }

  get(id: string): ChatRecord | undefined {
    return this.chats.get(id);
  }

  has(id: string): boolean {
    return this.chats.has(id);
  }

  /** Every chat in history order, the archived ones left out. */
  history(): ChatRecord[] {
    return historyOrder([...this.chats.values()].filter((c) => c.archived !== true));
  }

  /** The archived chats, in history order. */
  archived(): ChatRecord[] {
    return historyOrder([...this.chats.values()].filter((c) => c.archived === true));
  }

  /** A chat's number for people: 1 + how many chats in history were created before it. */
  ordinal(id: string): number {
    const c = this.chats.get(id);
    if (!c) return this.chats.size + 1;
    let n = 1;
    for (const o of this.chats.values()) if (o.createdAt < c.createdAt || (o.createdAt === c.createdAt && o.id < c.id)) n++;
    return n;
  }

  create(agentId: string, now: number, random: () => number = Math.random, id?: string): ChatRecord {
    const record: ChatRecord = { id: id ?? newChatId(now, random, (x) => this.chats.has(x)), agentId, title: null, sessionId: null, createdAt: now, updatedAt: now };
    this.chats.set(record.id, record);
    this.changed.fire();
    return record;
  }

  /** Changes fields of a chat (not its title or session: see `cacheTitle`, `cacheSession`); fires only when something differs. */
  update(id: string, patch: Partial<Omit<ChatRecord, 'id' | 'createdAt' | 'title' | 'sessionId'>>): ChatRecord | undefined {
    return this.patch(id, patch);
  }

  /** Caches the session the chat's store is attached to (the store owns it) for when the store is not loaded. */
  cacheSession(id: string, sessionId: string | null): ChatRecord | undefined {
    return this.patch(id, { sessionId });
  }

  /** Caches the title of the chat's store (the title's owner) for when the store is not loaded. */
  cacheTitle(id: string, title: string | null): ChatRecord | undefined {
    return this.patch(id, { title });
  }

  private patch(id: string, patch: Partial<Omit<ChatRecord, 'id' | 'createdAt'>>): ChatRecord | undefined {
    const old = this.chats.get(id);
    if (!old) return undefined;
    const next = { ...old, ...patch };
    if ((Object.keys(patch) as (keyof typeof patch)[]).every((k) => old[k] === next[k])) return old;
    this.chats.set(id, next);
    this.changed.fire();
    return next;
  }

  remove(id: string): boolean {
    if (!this.chats.delete(id)) return false;
    const wasFocused = this.focusOrder[0] === id;
    this.focusOrder = this.focusOrder.filter((x) => x !== id);
    this.changed.fire();
    if (wasFocused) this.focusChanged.fire(this.focused());
    return true;
  }

  /** The chat the user focused last (a tab or the side bar), if it still exists. */
  focused(): string | undefined {
    return this.focusOrder[0];
  }

  focus(id: string): void {
    if (!this.chats.has(id) || this.focusOrder[0] === id) return;
    this.focusOrder = [id, ...this.focusOrder.filter((x) => x !== id)];
    this.changed.fire();
    this.focusChanged.fire(id);
  }

  /** The most recently focused chat that satisfies `pred` (e.g. open in a tab). */
  lastFocused(pred: (c: ChatRecord) => boolean): ChatRecord | undefined {
    for (const id of this.focusOrder) {
      const c = this.chats.get(id);
      if (c && c.archived !== true && pred(c)) return c;
    }
    return this.history().find(pred);
  }

  /**
   * Takes in records another window wrote to the chat list (chatIndexFollow.ts decides which). Returns the
   * ids of the chats that changed; fires onDidFollow (and onDidChangeFocus when the focused chat was deleted
   * there), not onDidChange: this is the file's content, not a change to save.
   */
  takeFollowed(changes: { readonly set: readonly ChatRecord[]; readonly removed: readonly string[] }): readonly string[] {
    for (const r of changes.set) this.chats.set(r.id, r);
    for (const id of changes.removed) this.chats.delete(id);
    const ids = [...changes.set.map((r) => r.id), ...changes.removed];
    if (ids.length === 0) return ids;
    const wasFocused = this.focusOrder[0];
    this.focusOrder = this.focusOrder.filter((id) => this.chats.has(id));
    this.followed.fire(ids);
    if (wasFocused !== this.focusOrder[0]) this.focusChanged.fire(this.focused());
    return ids;
  }

  toJSON(): ChatIndexFile {
    return { version: 1, chats: [...this.chats.values()], focused: this.focusOrder };
  }

  dispose(): void {
    this.changed.dispose();
    this.focusChanged.dispose();
    this.followed.dispose();
  }
}

/**
 * Which chat "open chat" means (ChatService.openChat): a chat by id; the chat showing an agent session
 * (`liveSessionId` tells a running chat's current session), else a new chat attaching it; with `newChat`
 * a new one; otherwise the focused chat, else the agent's latest chat, else a new chat.
 */
export function chatToOpen(
  index: ChatIndex,
  options: { readonly chatId?: string; readonly sessionId?: string; readonly newChat?: boolean },
  agentId: string,
  liveSessionId: (chatId: string) => string | null,
): { kind: 'existing'; record: ChatRecord } | { kind: 'new'; sessionId?: string } | { kind: 'missing' } {
  if (options.chatId !== undefined) {
    const record = index.get(options.chatId);
    return record ? { kind: 'existing', record } : { kind: 'missing' };
  }
  if (options.sessionId !== undefined) {
    const sid = options.sessionId;
    const record = index.history().find((c) => c.agentId === agentId && (c.sessionId === sid || liveSessionId(c.id) === sid));
    return record ? { kind: 'existing', record } : { kind: 'new', sessionId: sid };
  }
  if (options.newChat) return { kind: 'new' };
  const focused = index.focused();
  const record = (focused !== undefined ? index.get(focused) : undefined) ?? index.lastFocused((c) => c.agentId === agentId);
  return record ? { kind: 'existing', record } : { kind: 'new' };
}
