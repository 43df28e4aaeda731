/**
 * Durable store state: an append-only NDJSON journal of ingested wire messages plus periodic atomic
 * snapshots of the complete store (`MessageStore.toJSON()`).
 *
 *   DIR/ID.snapshot.json      { format, version, seq, store }   written as temp file + rename
 *   DIR/ID.snapshot.json.bak  the previous snapshot, the fallback when the newest is unreadable
 *   DIR/ID.journal.ndjson     one { seq, dir, msg, line?, keys? }, { seq, attach } or { seq, event } record per line, seq
 *                             strictly increasing
 *
 * `keys` are the durable keys the store minted while ingesting that message: replaying the journal
 * hands them back to the store's key factory, so a restored entry has exactly the key it had live.
 *
 * Loading = snapshot, then the journal records newer than the snapshot's `seq`, fed through the same
 * `ingest` as live traffic. A crash mid-write leaves at most a torn last line: it is dropped with a
 * warning (and cut from the file so later appends stay readable). A corrupt snapshot or journal line
 * gives an error diagnostic naming the file and line; everything readable is kept.
 *
 * Ownership: the caller owns the store and, for every message, either calls `journal.ingest(store,
 * dir, msg)` or `store.ingest` followed by `journal.append(dir, msg, changes)`. The journal owns its
 * files until `dispose()`.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { Diagnostic, Direction, StoreDelta } from '../../common/store';
import { MessageStore, type StoreOptions } from '../../common/store';
import { errorText, issueText } from '../../common/util/errors';
import { zClientEvent, type ClientEvent } from '../../common/store/clientEvents';

const SNAPSHOT_FORMAT = 'acp-chat/snapshot';
const zSnapshot = z.object({ format: z.literal(SNAPSHOT_FORMAT), version: z.literal(1), seq: z.number().int().nonnegative(), store: z.unknown() });
const zRecord = z.union([
  z.strictObject({
    seq: z.number().int().positive(),
    dir: z.enum(['client->agent', 'agent->client']),
    msg: z.unknown(),
    line: z.number().int().positive().optional(),
    keys: z.array(z.string()).optional(),
  }),
  // The chat attached to a session (`MessageStore.attach`): not on the wire, so recorded on its own.
  z.strictObject({ seq: z.number().int().positive(), attach: z.string().nullable() }),
  // What the client added that is not on the wire (`MessageStore.record`): terminal output, notices, Changes.
  z.strictObject({ seq: z.number().int().positive(), event: z.unknown() }),
]);

/** How long appended records may wait in memory before they are written. */
const FLUSH_DELAY_MS = 20;

export interface JournalOpenResult {
  readonly store: MessageStore;
  readonly diagnostics: Diagnostic[];
  readonly journal: StoreJournal;
}

export class StoreJournal {
  /**
   * Appended records not yet on disk, in seq order. A write takes the ones up to the seq it was
   * queued for, never "whatever is buffered when it runs": a compaction queued in between empties
   * the journal file, so a write must not carry records newer than the compaction's snapshot.
   */
  private unwritten: { readonly seq: number; readonly text: string }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Every file operation runs on this chain, in order. */
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;
  private writeError: Error | undefined;

  private constructor(
    private readonly files: { snapshot: string; backup: string; journal: string },
    private nextSeq: number,
  ) {}

  /** Files for store `id` in `dir` (created if missing). `id` must be a plain file-name stem. */
  static async open(dir: string, id: string, options?: StoreOptions): Promise<JournalOpenResult> {
    if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new Error(`journal id must be a plain file name, got '${id}'`);
    await fsp.mkdir(dir, { recursive: true });
    const files = {
      snapshot: path.join(dir, `${id}.snapshot.json`),
      backup: path.join(dir, `${id}.snapshot.json.bak`),
      journal: path.join(dir, `${id}.journal.ndjson`),
    };
    const diagnostics: Diagnostic[] = [];
    // Keys recorded in the journal are handed back, in order, while it is replayed; after that the
    // caller's factory (or random UUIDs) takes over.
    const replayKeys: string[] = [];
    const base = options?.newKey ?? (() => crypto.randomUUID());
    const storeOptions: StoreOptions = { ...options, newKey: () => replayKeys.shift() ?? base() };
    const loaded = (await readSnapshot(files.snapshot, diagnostics, storeOptions)) ?? (await readSnapshot(files.backup, diagnostics, storeOptions));
    const store = loaded?.store ?? new MessageStore(storeOptions);
    const snapSeq = loaded?.seq ?? 0;
    const lastSeq = await replayJournal(files.journal, store, snapSeq, diagnostics, replayKeys);
    return { store, diagnostics, journal: new StoreJournal(files, Math.max(snapSeq, lastSeq) + 1) };
  }

  /** Ingests `msg` into `store` and records it (with the keys it minted). Returns the store's changes. */
  ingest(store: MessageStore, dir: Direction, msg: unknown, line?: number): readonly StoreDelta[] {
    const changes = store.ingest(dir, msg, line);
    this.append(dir, msg, changes, line);
    return changes;
  }

  /**
   * Records one message the caller already ingested; `changes` is what `store.ingest` returned (its
   * inserted entries' keys are recorded). Buffered; written within FLUSH_DELAY_MS (or by `flush()`).
   * Throws, changing nothing, when the message cannot be serialised (the caller reports it).
   */
  append(dir: Direction, msg: unknown, changes: readonly StoreDelta[] = [], line?: number): void {
    if (this.disposed) throw new Error('StoreJournal.append after dispose');
    const keys: string[] = [];
    for (const c of changes) if (c.type === 'entryInserted') keys.push(c.entry.key);
    let text: string;
    try {
      text = JSON.stringify({ seq: this.nextSeq, dir, msg, ...(line !== undefined ? { line } : {}), ...(keys.length > 0 ? { keys } : {}) });
    } catch (err) {
      // Nothing is buffered and no seq is used: the journal stays consistent, the caller logs why.
      throw new Error(`message ${line ?? this.nextSeq} could not be saved (it will be missing after a reload): ${err instanceof Error ? err.message : String(err)}`);
    }
    this.push(text);
  }

  /** Records `store.attach(sessionId)`, which the caller already applied. Buffered like `append`. */
  appendAttach(sessionId: string | null): void {
    if (this.disposed) throw new Error('StoreJournal.appendAttach after dispose');
    this.push(JSON.stringify({ seq: this.nextSeq, attach: sessionId }));
  }

  /** Records `store.record(event)`, which the caller already applied. Buffered like `append`. */
  appendEvent(event: ClientEvent): void {
    if (this.disposed) throw new Error('StoreJournal.appendEvent after dispose');
    this.push(JSON.stringify({ seq: this.nextSeq, event }));
  }

  private push(text: string): void {
    this.unwritten.push({ seq: this.nextSeq, text: text + '\n' });
    this.nextSeq++;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined); // the error is kept and rethrown by the next flush()
    }, FLUSH_DELAY_MS);
  }

  /** Writes everything appended so far. Rejects if a write failed (the records stay buffered). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const upTo = this.nextSeq - 1;
    this.queue = this.queue.then(() => this.write(upTo));
    return this.queue.then(() => {
      if (this.writeError) {
        const e = this.writeError;
        this.writeError = undefined;
        throw e;
      }
    });
  }

  /** Appends the unwritten records up to `upTo` to the journal file; on failure they stay, in order, for the next write. */
  private async write(upTo: number): Promise<void> {
    const n = this.countUpTo(upTo);
    if (n === 0) return;
    // Taken before the await: appends during the write stay behind them.
    const taken = this.unwritten.splice(0, n);
    try {
      await fsp.appendFile(this.files.journal, taken.map((r) => r.text).join(''));
    } catch (err) {
      this.unwritten.unshift(...taken);
      this.writeError = err instanceof Error ? err : new Error(String(err));
    }
  }

  private countUpTo(seq: number): number {
    let n = 0;
    while (n < this.unwritten.length && (this.unwritten[n]?.seq ?? Infinity) <= seq) n++;
    return n;
  }

  /**
   * Snapshots `store` (which must reflect every record appended so far) atomically and empties the
   * journal. The previous snapshot is kept as the `.bak` fallback.
   */
  async compact(store: MessageStore): Promise<void> {
    const seq = this.nextSeq - 1;
    const text = JSON.stringify({ format: SNAPSHOT_FORMAT, version: 1, seq, store: store.toJSON() });
    // Every operation queued before this one wrote only records up to `seq` (writes are bounded by
    // the seq they were queued at), so once the snapshot holds them the journal file can be emptied.
    // Records appended later stay unwritten and go to the emptied file by a later write.
    this.queue = this.queue.then(async () => {
      try {
        await writeAtomically(this.files, text);
      } catch (err) {
        await this.write(seq); // no snapshot: the records up to `seq` must reach the journal instead
        throw err;
      }
      this.unwritten.splice(0, this.countUpTo(seq)); // in the snapshot now
      await fsp.writeFile(this.files.journal, '');
    });
    const done = this.queue;
    this.queue = done.catch(() => undefined); // later operations run whatever happened to this one
    await done;
  }

  /** Flushes and stops. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.flush();
    this.disposed = true;
  }
}

/** Replaces the snapshot with `text` (temp file, fsync, rename), keeping the old one as the backup. */
async function writeAtomically(files: { snapshot: string; backup: string }, text: string): Promise<void> {
  const tmp = `${files.snapshot}.tmp`;
  const fh = await fsp.open(tmp, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.copyFile(files.snapshot, files.backup).catch(() => undefined);
  await fsp.rename(tmp, files.snapshot);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return undefined;
    throw err;
  }
}

async function readSnapshot(file: string, diagnostics: Diagnostic[], options?: StoreOptions): Promise<{ store: MessageStore; seq: number } | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    diagnostics.push({ severity: 'error', message: `${file}: snapshot is corrupt (${errorText(err)}); not used` });
    return undefined;
  }
  const snap = zSnapshot.safeParse(data);
  if (!snap.success) {
    diagnostics.push({ severity: 'error', message: `${file}: not a store snapshot (${issueText(snap.error)}); not used` });
    return undefined;
  }
  const restored = MessageStore.fromJSON(snap.data.store, options);
  for (const d of restored.diagnostics) diagnostics.push({ ...d, message: `${file}: ${d.message}` });
  return { store: restored.store, seq: snap.data.seq };
}

/** Feeds the journal's records newer than `afterSeq` into `store`. Returns the last seq seen. */
async function replayJournal(file: string, store: MessageStore, afterSeq: number, diagnostics: Diagnostic[], keys: string[]): Promise<number> {
  const text = await readText(file);
  if (text === undefined) return afterSeq;
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    diagnostics.push({ severity: 'warning', message: `${file}: torn last record (${text.length - end} characters, an interrupted write) dropped` });
    // Cut the fragment so the next append starts on a fresh line.
    await fsp.truncate(file, Buffer.byteLength(text.slice(0, end)));
  }
  let lastSeq = afterSeq;
  const lines = text.slice(0, end).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || line === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      diagnostics.push({ severity: 'error', message: `${file}:${i + 1}: corrupt journal record skipped` });
      continue;
    }
    const r = zRecord.safeParse(raw);
    if (!r.success) {
      diagnostics.push({ severity: 'error', message: `${file}:${i + 1}: malformed journal record skipped (${issueText(r.error)})` });
      continue;
    }
    if (r.data.seq <= lastSeq) continue; // already in the snapshot (a crash between snapshot and truncation)
    if (r.data.seq > lastSeq + 1 && lastSeq > 0) diagnostics.push({ severity: 'warning', message: `${file}:${i + 1}: records ${lastSeq + 1}..${r.data.seq - 1} are missing` });
    lastSeq = r.data.seq;
    if ('attach' in r.data) {
      store.attach(r.data.attach);
      continue;
    }
    if ('event' in r.data) {
      const event = zClientEvent.safeParse(r.data.event);
      if (event.success) store.record(event.data);
      else diagnostics.push({ severity: 'error', message: `${file}:${i + 1}: malformed client event skipped (${issueText(event.error)})` });
      continue;
    }
    keys.push(...(r.data.keys ?? []));
    store.ingest(r.data.dir, r.data.msg, r.data.line);
    if (keys.length > 0) {
      diagnostics.push({ severity: 'warning', message: `${file}:${i + 1}: ${keys.length} recorded key(s) not used on replay` });
      keys.length = 0;
    }
  }
  return lastSeq;
}
