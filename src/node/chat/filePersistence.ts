/**
 * Session persistence in the workspace's chats folder (src/node/persistence/chatHome.ts, shared by
 * every window of the workspace): one StoreJournal (snapshot + append-only journal, see
 * src/node/persistence/journal.ts) per chat, which holds everything the chat shows (terminal views,
 * notices and Changes summaries too: older side files are migrated when opened, chatRestore.ts), and the chat list in `chats.json` (temp file +
 * rename, merged with what other windows wrote). A chat is read when this window takes it (`prepare`:
 * its lock, then its files) and let go when no view shows it (`release`), so another window can take it.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MessageStore, type Direction, type StoreDelta } from '../../common/store';
import { mergeChatIndex, parseChatIndex } from '../../common/chats/chatIndex';
import type { ChatState } from '../../common/chats/chatState';
import { StoreJournal } from '../persistence/journal';
import { ChatLocks, processAlive } from '../persistence/chatLock';
import { ChatHandoffs } from '../persistence/chatHandoff';
import type { IDisposable } from '../../common/util/lifecycle';
import { CHAT_DELETE_EXTS, chatIdsIn, fileId } from '../persistence/chatFiles';
import { openedChat, removeMigrated } from '../persistence/chatRestore';
import type { ClientEvent } from '../../common/store/clientEvents';
import { INDEX_FILE, writeAtomic } from '../persistence/chatHome';
import { ChatElsewhereError, MemoryPersistence, type ChatList, type Claim, type Restored, type ChatPersistence } from './chatPersistence';
import { errorText } from '../../common/util/errors';
import { recoverRecords, SearchFileWriter, searchFile } from '../history/searchFiles';
import { followIndexFile, type IndexMine } from '../persistence/indexWatch';

/** Snapshot after this many journal records, so a restore replays little. */
const COMPACT_EVERY = 2000;
/** The chat list's lock (no chat id starts with a dot), and how long a save waits for another window's. */
const INDEX_LOCK = '.chats';
const INDEX_LOCK_TRIES = 50;
const INDEX_LOCK_WAIT_MS = 20;

/** A record waiting for the journal to open. */
type Pending = (journal: StoreJournal) => void;

interface Open {
  readonly store: MessageStore;
  /** Undefined while the journal file is being opened; messages wait in `pending` meanwhile. */
  journal: StoreJournal | undefined;
  readonly pending: Pending[];
  /** Settles when the journal is open (or failed to open). */
  ready: Promise<void>;
  sinceCompact: number;
  readonly problems: readonly string[];
}

/** Who this window is to the chats' locks (tests give two instances in one process different tokens). */
export interface PersistenceOwner {
  readonly pid: number;
  readonly token: string;
  readonly alive?: (pid: number) => boolean;
}

export class FilePersistence implements ChatPersistence {
  private readonly open = new Map<string, Open>();
  private readonly preparing = new Map<string, Promise<Claim>>();
  private readonly releasing = new Map<string, Promise<void>>();
  private readonly saved: string[];
  /** Chats deleted in this window: a merge with another window's list must not bring them back. */
  private readonly removed = new Set<string>();
  private index: unknown;
  /** The chat list as read and checked when opened (`create`). */
  private listed: ChatList = { chats: [], focused: [] };
  /** Index writes, in order (the last one wins on disk). */
  private indexWrites: Promise<void> = Promise.resolve();
  /** What following the list must know of this window's own writes (indexWatch.ts). */
  private readonly indexMine: IndexMine = { queued: 0, text: undefined };
  private readonly locks: ChatLocks;
  /** Each chat's search file, written from its store (src/node/history/searchFiles.ts). */
  private readonly searchFiles: SearchFileWriter;
  /** The records of `index`, by chat id, parsed when a search file needs one. */
  private records: Map<string, unknown> | undefined;
  private readonly handoffs: ChatHandoffs;
  /** The chat id of each file id this window took (what a handoff request names). */
  private readonly chatIds = new Map<string, string>();

  private constructor(
    private readonly dir: string,
    private readonly log: (message: string) => void,
    owner: PersistenceOwner,
    saved: string[],
  ) {
    this.locks = new ChatLocks(dir, owner, owner.alive ?? processAlive, log);
    this.handoffs = new ChatHandoffs(dir, owner, owner.alive ?? processAlive, log);
    this.saved = saved;
    this.searchFiles = new SearchFileWriter(dir, (chatId) => this.recordOf(chatId), log);
  }

  static async create(dir: string, log: (message: string) => void, owner: PersistenceOwner = { pid: process.pid, token: randomUUID() }): Promise<FilePersistence> {
    const [names, raw] = await Promise.all([readdir(dir).catch(() => [] as string[]), readIndexFile(dir, log)]);
    const p = new FilePersistence(dir, log, owner, chatIdsIn(names));
    p.index = raw;
    // Checked once, here: the window's chat list is built from this (`chatList`), not from a second check.
    p.listed = parseChatIndex(raw, log);
    return p;
  }

  async recoverMissing(): Promise<ChatList['chats']> {
    const listed = new Set([...this.listed.chats.map((c) => c.id), ...this.removed].map(fileId));
    const recovered = await recoverRecords(this.dir, this.saved, listed, this.log);
    if (recovered.length === 0) return [];
    this.log(`${recovered.length} chat(s) missing from the chat list were added back from their search files`);
    const chats = parseChatIndex({ version: 1, chats: recovered, focused: [] }, this.log).chats;
    this.listed = { chats: [...this.listed.chats, ...chats], focused: this.listed.focused };
    // Added to the list as this window has it now (it may have been written since it was read).
    const index = parseChatIndex(this.index, () => undefined);
    const has = new Set(index.chats.map((c) => c.id));
    this.writeIndex({ version: 1, chats: [...index.chats, ...chats.filter((c) => !has.has(c.id))], focused: index.focused });
    return chats;
  }

  private recordOf(chatId: string): unknown {
    this.records ??= new Map(parseChatIndex(this.index, () => undefined).chats.map((c) => [c.id, c]));
    return this.records.get(chatId) ?? { id: chatId };
  }

  get folder(): string {
    return this.dir;
  }

  private file(id: string, ext: string): string {
    return path.join(this.dir, id + ext);
  }

  savedIds(): readonly string[] {
    return this.saved;
  }

  readIndex(): unknown {
    return this.index;
  }

  chatList(): ChatList {
    return this.listed;
  }

  writeIndex(index: unknown): void {
    this.index = index;
    this.records = undefined;
    this.indexMine.queued++;
    const file = path.join(this.dir, INDEX_FILE);
    this.indexWrites = this.indexWrites.then(async () => {
      // Another window of the workspace may have added chats since: theirs are kept. Read, merge and
      // write under the list's own lock, so two windows saving at once both keep their chats.
      for (let i = 0; i < INDEX_LOCK_TRIES && !this.locks.acquire(INDEX_LOCK).ok; i++) await new Promise((r) => setTimeout(r, INDEX_LOCK_WAIT_MS));
      try {
        const merged = mergeChatIndex({ version: 1, ...parseChatIndex(index, () => undefined) }, await readIndexFile(this.dir, () => undefined), this.removed);
        await writeAtomic(file, JSON.stringify(merged));
      } catch (e) {
        this.log(`could not save the chat list: ${errorText(e)}`);
      } finally {
        this.locks.release(INDEX_LOCK);
      }
    });
  }

  watchIndex(onIndex: (raw: unknown) => void): IDisposable {
    return followIndexFile(this.dir, { settled: () => this.indexWrites, mine: this.indexMine }, onIndex, this.log);
  }

  holderOf(chatId: string): Claim {
    const h = this.locks.holderOf(fileId(chatId));
    return h ? { ok: false, holder: h } : { ok: true };
  }

  async peek(chatId: string): Promise<MessageStore | undefined> {
    const id = fileId(chatId);
    const o = this.open.get(id);
    if (o) return o.store;
    // Read as a restore reads it; the journal object is left unused (it holds no file until written).
    if (!existsSync(this.file(id, '.snapshot.json')) && !existsSync(this.file(id, '.journal.ndjson'))) return undefined;
    return (await StoreJournal.open(this.dir, id)).store;
  }

  requestHandoff(chatId: string): void {
    this.handoffs.request(fileId(chatId));
  }

  withdrawHandoff(chatId: string): void {
    this.handoffs.withdraw(fileId(chatId));
  }

  watchHandoffs(onAsked: (chatId: string) => void): IDisposable {
    return this.handoffs.watch(
      () => [...this.locks.heldIds()].filter((id) => id !== INDEX_LOCK),
      (id) => onAsked(this.chatIds.get(id) ?? id),
    );
  }

  prepare(chatId: string): Promise<Claim> {
    const id = fileId(chatId);
    this.chatIds.set(id, chatId);
    const running = this.preparing.get(id);
    if (running) return running;
    const p = this.take(id, chatId).finally(() => this.preparing.delete(id));
    this.preparing.set(id, p);
    return p;
  }

  private async take(id: string, chatId: string): Promise<Claim> {
    await this.releasing.get(id);
    if (this.open.has(id)) return { ok: true };
    const lock = this.locks.acquire(id);
    if (!lock.ok) return lock;
    try {
      const r = await StoreJournal.open(this.dir, id);
      const opened = await openedChat(this.dir, id, r.store);
      for (const e of opened.events) r.journal.appendEvent(e);
      if (opened.migrated.length > 0) {
        // The side files go only once their facts are on disk in the journal.
        await r.journal.flush();
        await removeMigrated(opened.migrated, this.log);
      }
      const problems = [...r.diagnostics.map((d) => `${d.severity}: ${d.message}`), ...opened.problems];
      for (const m of problems) this.log(`restoring ${id}: ${m}`);
      this.open.set(id, { store: r.store, journal: r.journal, pending: [], ready: Promise.resolve(), sinceCompact: 0, problems });
      // A chat saved before search files existed (or whose file was lost) gets one now.
      if (!existsSync(searchFile(this.dir, id))) void this.searchFiles.write(id, { chatId, store: r.store });
    } catch (e) {
      this.locks.release(id);
      throw new Error(`could not open the saved chat ${chatId}: ${errorText(e)}`);
    }
    return { ok: true };
  }

  async release(chatId: string): Promise<void> {
    const id = fileId(chatId);
    const o = this.open.get(id);
    if (!o) return this.locks.release(id);
    this.open.delete(id);
    const done = (async () => {
      await o.ready;
      await this.searchFiles.write(id);
      await o.journal?.dispose();
    })()
      .catch((e: unknown) => this.log(`could not save the chat ${chatId}: ${errorText(e)}`))
      .finally(() => {
        this.locks.release(id);
        if (this.releasing.get(id) === done) this.releasing.delete(id);
      });
    this.releasing.set(id, done);
    await done;
  }

  async remove(chatId: string): Promise<void> {
    const id = fileId(chatId);
    this.removed.add(chatId);
    // A release under way writes the chat's files one last time: deleted after that, or some would stay.
    await this.releasing.get(id);
    const o = this.open.get(id);
    this.open.delete(id);
    if (o) {
      await o.ready;
      await o.journal?.dispose().catch(() => undefined);
    }
    this.searchFiles.forget(id);
    await this.searchFiles.flush(); // a write under way would bring the file back after the delete
    const i = this.saved.indexOf(id);
    if (i >= 0) this.saved.splice(i, 1);
    await Promise.all(CHAT_DELETE_EXTS.map((ext) => rm(this.file(id, ext), { force: true }).catch((e: unknown) => this.log(`could not delete ${id}${ext}: ${errorText(e)}`))));
    this.locks.release(id);
  }

  restore(chatId: string, warn: (message: string) => void): Restored {
    const id = fileId(chatId);
    const o = this.open.get(id);
    if (o) {
      for (const m of o.problems) warn(`the saved chat ${chatId} was partly unreadable: ${m}`);
      return { store: o.store, sessionId: o.store.attachedSessionId() };
    }
    // A chat with saved files must be prepared first (async); starting it empty would hide them.
    if (existsSync(this.file(id, '.snapshot.json')) || existsSync(this.file(id, '.journal.ndjson'))) throw new Error(`the saved chat ${chatId} was not opened before use`);
    // A new chat: ours, started empty, its journal opened in the background.
    this.claimNew(id, chatId);
    const fresh = this.start(chatId, new MessageStore());
    return { store: fresh.store, sessionId: null };
  }

  private claimNew(id: string, chatId: string): void {
    this.chatIds.set(id, chatId);
    const lock = this.locks.acquire(id);
    if (!lock.ok) throw new ChatElsewhereError(chatId, lock.holder);
  }

  state(chatId: string): ChatState | undefined {
    const o = this.open.get(fileId(chatId));
    return o ? { store: o.store } : undefined;
  }

  /** A new chat whose state starts as `state` (a fork): saved as soon as its journal is open, so a reload keeps it. */
  seed(chatId: string, state: ChatState): void {
    const id = fileId(chatId);
    this.claimNew(id, chatId);
    // Copied now: by the time the journal is open the live store may hold messages that are still pending.
    this.start(chatId, state.store, MessageStore.fromJSON(state.store.toJSON()).store);
    this.searchFiles.touched(id, chatId, state.store);
  }

  private start(chatId: string, store: MessageStore, snapshot?: MessageStore): Open {
    const id = fileId(chatId);
    const fresh: Open = { store, journal: undefined, pending: [], ready: Promise.resolve(), sinceCompact: 0, problems: [] };
    this.open.set(id, fresh);
    fresh.ready = StoreJournal.open(this.dir, id).then(
      async (r) => {
        if (this.open.get(id) !== fresh) return void r.journal.dispose();
        // The snapshot first (the store before any message of the new chat), then what arrived meanwhile.
        if (snapshot) await r.journal.compact(snapshot).catch((e: unknown) => this.log(`could not save the new chat ${chatId}: ${errorText(e)}`));
        fresh.journal = r.journal;
        for (const record of fresh.pending.splice(0)) record(r.journal);
      },
      (e: unknown) => {
        this.log(`could not open the chat journal of ${chatId}: ${errorText(e)}; this chat will not survive a reload`);
        if (this.open.get(id) === fresh) this.open.delete(id);
      },
    );
    return fresh;
  }

  append(chatId: string, dir: Direction, msg: unknown, changes: readonly StoreDelta[], seq: number): void {
    this.appendRecord(chatId, (j) => j.append(dir, msg, changes, seq));
  }

  /** Journals a record of an open chat (once its journal is open), snapshotting every COMPACT_EVERY records. */
  private appendRecord(chatId: string, write: Pending): void {
    const o = this.open.get(fileId(chatId));
    if (!o) return;
    this.searchFiles.touched(fileId(chatId), chatId, o.store);
    if (!o.journal) {
      o.pending.push(write);
      return;
    }
    try {
      write(o.journal);
    } catch (e) {
      this.log(`chat journal of ${chatId}: ${errorText(e)}`);
      return;
    }
    if (++o.sinceCompact >= COMPACT_EVERY) {
      o.sinceCompact = 0;
      o.journal.compact(o.store).catch((e: unknown) => this.log(`could not snapshot the chat ${chatId}: ${errorText(e)}`));
    }
  }

  attach(chatId: string, sessionId: string | null): void {
    this.appendRecord(chatId, (j) => j.appendAttach(sessionId));
  }

  record(chatId: string, event: ClientEvent): void {
    // Terminal output comes in many small events: they count towards the next snapshot like messages.
    this.appendRecord(chatId, (j) => j.appendEvent(event));
  }

  async flush(): Promise<void> {
    await this.indexWrites;
    await this.searchFiles.flush();
    await Promise.all(
      [...this.open.values()].map(async (o) => {
        await o.ready;
        await o.journal?.flush().catch((e: unknown) => this.log(`could not save a chat: ${errorText(e)}`));
      }),
    );
  }

  async close(): Promise<void> {
    await this.flush();
    this.locks.releaseAll();
  }
}

async function readJson(file: string): Promise<{ raw: unknown; problem: string | null }> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return { raw: undefined, problem: null };
  try {
    return { raw: JSON.parse(text) as unknown, problem: null };
  } catch (e) {
    return { raw: undefined, problem: `${path.basename(file)} is not JSON and was dropped: ${errorText(e)}` };
  }
}

async function readIndexFile(dir: string, log: (message: string) => void): Promise<unknown> {
  const r = await readJson(path.join(dir, INDEX_FILE));
  if (r.problem) log(`the chat list (${INDEX_FILE}) is not JSON and was started afresh: ${r.problem}`);
  return r.raw;
}

export async function openPersistence(dir: string | undefined, log: (message: string) => void): Promise<ChatPersistence> {
  if (dir === undefined) return new MemoryPersistence();
  try {
    return await FilePersistence.create(dir, log);
  } catch (e) {
    log(`chat persistence is off: ${errorText(e)}`);
    return new MemoryPersistence();
  }
}
