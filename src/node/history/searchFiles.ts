/**
 * The chats' search files (src/common/history/searchLines.ts says what one holds): written whole from the
 * chat's store a moment after it changes, when it is let go and when it is flushed, always as a temp file
 * renamed over the old one (a reader, or a crash, sees the old file or the new one, never half of one).
 * Only the window holding the chat's lock writes it, like its journal. The first line keeps the chat's
 * record, so the chat list can be rebuilt from these files when `chats.json` is missing or damaged.
 */
import { open, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MessageStore } from '../../common/store';
import { parseHeader, searchFileText } from '../../common/history/searchLines';
import { errorText } from '../../common/util/errors';
import { isChatId } from '../../common/chats/chatIndex';
import { SEARCH_EXT } from '../persistence/chatFiles';

/** How long after a change the file is written again (a streaming turn rewrites it about once a second). */
const WRITE_DELAY_MS = 1000;
/** A header longer than this is not read (a title is at most 2,000 characters). */
const HEADER_MAX_BYTES = 64 * 1024;

export function searchFile(dir: string, fileId: string): string {
  return path.join(dir, fileId + SEARCH_EXT);
}

/** Writes one chat's search file atomically. */
async function writeSearchFile(dir: string, fileId: string, meta: unknown, store: MessageStore): Promise<void> {
  const file = searchFile(dir, fileId);
  await writeFile(`${file}.tmp`, searchFileText(meta, store.sessions()));
  await rename(`${file}.tmp`, file);
}

/** The record a search file's first line keeps (undefined: no file, or no readable header). */
async function readSearchHeader(file: string): Promise<unknown> {
  const fh = await open(file, 'r').catch(() => undefined);
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(HEADER_MAX_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEADER_MAX_BYTES, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const nl = text.indexOf('\n');
    return nl < 0 ? undefined : parseHeader(text.slice(0, nl));
  } finally {
    await fh.close();
  }
}

/**
 * Records for the chats of `ids` (file ids with a transcript) that the list lacks, from their search
 * files' headers: a lost or damaged `chats.json` loses no chat that has one.
 */
export async function recoverRecords(dir: string, ids: readonly string[], listed: ReadonlySet<string>, log: (m: string) => void): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const id of ids) {
    // Stores older than several chats are keyed by agent id: the chat service adopts those (ChatService.ready).
    if (listed.has(id) || !isChatId(id)) continue;
    const header = await readSearchHeader(searchFile(dir, id)).catch(() => undefined);
    const h = header && typeof header === 'object' ? (header as Record<string, unknown>) : undefined;
    if (h && typeof h['id'] === 'string' && typeof h['agentId'] === 'string') out.push({ ...h });
    else log(`the saved chat ${id} is not in the chat list and has no search file to rebuild its entry from; it is left out`);
  }
  return out;
}

/** Per chat, a write of its search file a moment after its last change (one pending write per chat). */
export class SearchFileWriter {
  private readonly timers = new Map<string, { timer: ReturnType<typeof setTimeout>; store: MessageStore; chatId: string }>();
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly meta: (chatId: string) => unknown,
    private readonly log: (m: string) => void,
  ) {}

  /** The chat changed: its file is written WRITE_DELAY_MS after the last change. */
  touched(fileId: string, chatId: string, store: MessageStore): void {
    const t = this.timers.get(fileId);
    if (t) clearTimeout(t.timer);
    this.timers.set(fileId, { timer: setTimeout(() => void this.write(fileId), WRITE_DELAY_MS), store, chatId });
  }

  /** Writes a chat's file now if a write is pending (`store` given: written even if none is). */
  write(fileId: string, force?: { chatId: string; store: MessageStore }): Promise<void> {
    const t = this.timers.get(fileId);
    if (t) clearTimeout(t.timer);
    this.timers.delete(fileId);
    const job = t ?? force;
    if (!job) return this.writes;
    this.writes = this.writes.then(() =>
      writeSearchFile(this.dir, fileId, this.meta(job.chatId), job.store).catch((e: unknown) => this.log(`could not write the search file of ${job.chatId}: ${errorText(e)}`)),
    );
    return this.writes;
  }

  /** A deleted chat: its pending write is dropped. */
  forget(fileId: string): void {
    const t = this.timers.get(fileId);
    if (t) clearTimeout(t.timer);
    this.timers.delete(fileId);
  }

  /** Every pending write, now. */
  async flush(): Promise<void> {
    await Promise.all([...this.timers.keys()].map((id) => this.write(id)));
    await this.writes;
  }
}
