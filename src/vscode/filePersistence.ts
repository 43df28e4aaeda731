/**
 * Session persistence in the extension's storage folder: one StoreJournal (snapshot + append-only
 * journal, see src/node/persistence/journal.ts) per chat, and the chat list in `chats.json` (temp file +
 * rename, so a crash leaves the old list or the new one). Journals are opened on first use of the chats,
 * so a restored panel shows its transcript at once, before the agent has even started.
 */
import type * as vscode from 'vscode';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MessageStore, type Direction, type StoreChange } from '../common/store';
import { StoreJournal } from '../node/persistence/journal';
import { TerminalViewsFile } from '../node/persistence/terminalViews';
import { parseSavedTerminals, terminalsToJSON, type SavedTerminal } from '../common/savedTerminals';
import { MemoryPersistence, type Restored, type SessionPersistence } from './sessionPersistence';
import { errorText } from '../common/util/errors';

/** Snapshot after this many journal records, so a restore replays little. */
const COMPACT_EVERY = 2000;

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
  /** The saved terminal views' JSON as read when opened (undefined: none), and where they are saved. */
  readonly terminalsRaw: unknown;
  readonly terminals: TerminalViewsFile;
  /** The views as last saved in this window (a chat closed and reopened gets these, not the file's as read). */
  lastTerminals?: () => readonly SavedTerminal[];
}

export class FilePersistence implements SessionPersistence {
  private readonly open = new Map<string, Open>();
  private readonly saved: string[] = [];
  private index: unknown;
  /** Index writes, in order (the last one wins on disk). */
  private indexWrites: Promise<void> = Promise.resolve();

  private constructor(private readonly dir: string, private readonly log: (message: string) => void) {}

  static async create(dir: string, log: (message: string) => void): Promise<FilePersistence> {
    const p = new FilePersistence(dir, log);
    const indexText = await readFile(path.join(dir, INDEX_FILE), 'utf8').catch(() => undefined);
    if (indexText !== undefined) {
      try {
        p.index = JSON.parse(indexText) as unknown;
      } catch (e) {
        log(`the chat list (${INDEX_FILE}) is not JSON and was started afresh: ${errorText(e)}`);
      }
    }
    const names = await readdir(dir).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => /^(.+)\.(?:journal\.ndjson|snapshot\.json)$/.exec(n)?.[1]).filter((x): x is string => x !== undefined));
    for (const id of ids) {
      const r = await StoreJournal.open(dir, id);
      const views = await TerminalViewsFile.read(p.terminalsFile(id));
      const problems = [...r.diagnostics.map((d) => `${d.severity}: ${d.message}`), ...(views.problem ? [views.problem] : [])];
      for (const m of problems) log(`restoring ${id}: ${m}`);
      p.open.set(id, { store: r.store, journal: r.journal, pending: [], ready: Promise.resolve(), sinceCompact: 0, problems, terminalsRaw: views.raw, terminals: p.terminalsSaver(id) });
      p.saved.push(id);
    }
    return p;
  }

  private terminalsFile(id: string): string {
    return path.join(this.dir, `${id}${TERMINALS_EXT}`);
  }

  private terminalsSaver(id: string): TerminalViewsFile {
    return new TerminalViewsFile(this.terminalsFile(id), this.log);
  }

  savedIds(): readonly string[] {
    return this.saved;
  }

  readIndex(): unknown {
    return this.index;
  }

  writeIndex(index: unknown): void {
    this.index = index;
    const text = JSON.stringify(index);
    const file = path.join(this.dir, INDEX_FILE);
    this.indexWrites = this.indexWrites.then(async () => {
      try {
        await mkdir(this.dir, { recursive: true });
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
      } catch (e) {
        this.log(`could not save the chat list: ${errorText(e)}`);
      }
    });
  }

  async remove(chatId: string): Promise<void> {
    const id = fileId(chatId);
    const o = this.open.get(id);
    this.open.delete(id);
    if (o) {
      await o.ready;
      await o.journal?.dispose().catch(() => undefined);
      await o.terminals.remove();
    }
    const i = this.saved.indexOf(id);
    if (i >= 0) this.saved.splice(i, 1);
    await Promise.all(
      ['.snapshot.json', '.snapshot.json.bak', '.journal.ndjson', TERMINALS_EXT].map((ext) =>
        rm(path.join(this.dir, id + ext), { force: true }).catch((e: unknown) => this.log(`could not delete ${id}${ext}: ${errorText(e)}`)),
      ),
    );
  }

  restore(chatId: string, warn: (message: string) => void): Restored {
    const id = fileId(chatId);
    const o = this.open.get(id);
    if (o) {
      // Through the saved form either way: the same budget, and our terminals that were running are ended now.
      const views = parseSavedTerminals(o.lastTerminals ? terminalsToJSON(o.lastTerminals()) : o.terminalsRaw);
      for (const m of [...o.problems, ...views.problems]) warn(`the saved chat ${chatId} was partly unreadable: ${m}`);
      return { store: o.store, sessionId: o.store.attachedSessionId(), terminals: views.terminals };
    }
    // Nothing saved yet: start empty and open the journal in the background.
    const fresh = this.start(chatId, new MessageStore());
    return { store: fresh.store, sessionId: null, terminals: [] };
  }

  saveTerminals(chatId: string, saved: () => readonly SavedTerminal[]): void {
    const o = this.open.get(fileId(chatId));
    if (!o) return;
    o.lastTerminals = saved;
    o.terminals.changed(saved);
  }

  /** A new chat whose state starts as `store`: snapshotted as soon as its journal is open, so a reload keeps it. */
  seed(chatId: string, store: MessageStore): void {
    // Copied now: by the time the journal is open the live store may hold messages that are still pending.
    this.start(chatId, store, MessageStore.fromJSON(store.toJSON()).store);
  }

  private start(chatId: string, store: MessageStore, snapshot?: MessageStore): Open {
    const id = fileId(chatId);
    const fresh: Open = { store, journal: undefined, pending: [], ready: Promise.resolve(), sinceCompact: 0, problems: [], terminalsRaw: undefined, terminals: this.terminalsSaver(id) };
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

  append(chatId: string, dir: Direction, msg: unknown, changes: readonly StoreChange[], seq: number): void {
    const o = this.open.get(fileId(chatId));
    if (!o) return;
    if (!o.journal) {
      o.pending.push((j) => j.append(dir, msg, changes, seq));
      return;
    }
    try {
      o.journal.append(dir, msg, changes, seq);
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
    const o = this.open.get(fileId(chatId));
    if (!o) return;
    if (o.journal) o.journal.appendAttach(sessionId);
    else o.pending.push((j) => j.appendAttach(sessionId));
  }

  async flush(): Promise<void> {
    await this.indexWrites;
    await Promise.all(
      [...this.open.values()].map(async (o) => {
        await o.ready;
        await o.journal?.flush().catch((e: unknown) => this.log(`could not save a chat: ${errorText(e)}`));
        await o.terminals.flush();
      }),
    );
  }
}

const INDEX_FILE = 'chats.json';
const TERMINALS_EXT = '.terminals.json';

/** Chat ids (and the agent ids of older saves) are free text; journal ids must be plain file names. */
function fileId(agentId: string): string {
  return agentId.replace(/[^A-Za-z0-9._-]/g, '_');
}

export async function openPersistence(storage: vscode.Uri, log: (message: string) => void): Promise<SessionPersistence> {
  try {
    return await FilePersistence.create(path.join(storage.fsPath, 'sessions'), log);
  } catch (e) {
    log(`chat persistence is off: ${errorText(e)}`);
    return new MemoryPersistence();
  }
}
