/**
 * One window writes a chat: a lock file per chat (`<id>.lock`, beside its journal) naming the holder's
 * process and a token of its own. Every window of a workspace shares the chats' folder, so without it
 * two windows could append to one journal and each would overwrite the other's snapshot.
 *
 * A lock is stale, and taken over, when its process is gone (a window that crashed, or was killed,
 * leaves its lock behind) or when the file is unreadable. The file is created with `wx`, so of two
 * windows taking a free lock at once exactly one wins. Synchronous on purpose: a few bytes, taken when
 * a chat goes live, and released while the window closes, when nothing asynchronous is awaited.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { errorText } from '../../common/util/errors';

/** Who holds a lock: a process and the token of the persistence instance in it. */
export interface LockHolder {
  readonly pid: number;
  readonly token: string;
  /** When it was taken (ms since the epoch), for the message shown to the user. */
  readonly since: number;
}

export type LockResult = { readonly ok: true } | { readonly ok: false; readonly holder: LockHolder };

/** Whether a process runs: signal 0 checks without sending (EPERM: it runs as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class ChatLocks {
  private readonly held = new Set<string>();

  constructor(
    private readonly dir: string,
    readonly me: { readonly pid: number; readonly token: string },
    private readonly alive: (pid: number) => boolean = processAlive,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  private file(id: string): string {
    return path.join(this.dir, `${id}${LOCK_EXT}`);
  }

  /** The ids whose locks this instance holds. */
  heldIds(): IterableIterator<string> {
    return this.held.values();
  }

  /** Whether this instance holds the chat's lock. */
  holds(id: string): boolean {
    return this.held.has(id);
  }

  /** The live holder of a chat's lock other than us, if any (taking nothing). */
  holderOf(id: string): LockHolder | undefined {
    if (this.held.has(id)) return undefined;
    const h = this.read(id);
    return h && !this.mine(h) && this.alive(h.pid) ? h : undefined;
  }

  /** Takes a chat's lock: ok when it was free, stale or already ours; else who holds it. */
  acquire(id: string, now = Date.now()): LockResult {
    if (this.held.has(id)) return { ok: true };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(this.file(id), 'wx');
        try {
          writeSync(fd, JSON.stringify({ pid: this.me.pid, token: this.me.token, since: now }));
        } finally {
          closeSync(fd);
        }
        this.held.add(id);
        return { ok: true };
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && attempt === 0) {
          // The chats folder is made with its first chat.
          mkdirSync(this.dir, { recursive: true });
          continue;
        }
        if (code !== 'EEXIST') {
          // No lock can be kept (a read-only folder): writing is then impossible anyway, so go on unlocked.
          this.log(`could not lock the chat ${id}: ${errorText(e)}`);
          this.held.add(id);
          return { ok: true };
        }
      }
      const h = this.read(id);
      if (h && this.mine(h)) {
        this.held.add(id);
        return { ok: true };
      }
      if (h && this.alive(h.pid)) return { ok: false, holder: h };
      // Stale (its process is gone) or unreadable: removed, then taken like a free one.
      rmSync(this.file(id), { force: true });
    }
    const h = this.read(id);
    return h ? { ok: false, holder: h } : { ok: false, holder: { pid: 0, token: '', since: 0 } };
  }

  /** Frees a chat's lock if we hold it (the file is removed only while it still names us). */
  release(id: string): void {
    if (!this.held.delete(id)) return;
    const h = this.read(id);
    if (h && !this.mine(h)) return;
    try {
      rmSync(this.file(id), { force: true });
    } catch (e) {
      this.log(`could not unlock the chat ${id}: ${errorText(e)}`);
    }
  }

  /** Frees every lock we hold (the window closes). */
  releaseAll(): void {
    for (const id of [...this.held]) this.release(id);
  }

  private mine(h: LockHolder): boolean {
    return h.pid === this.me.pid && h.token === this.me.token;
  }

  private read(id: string): LockHolder | undefined {
    try {
      const raw = JSON.parse(readFileSync(this.file(id), 'utf8')) as Partial<LockHolder>;
      if (typeof raw.pid === 'number' && typeof raw.token === 'string') return { pid: raw.pid, token: raw.token, since: typeof raw.since === 'number' ? raw.since : 0 };
    } catch {
      // Missing or torn: no holder.
    }
    return undefined;
  }
}

export const LOCK_EXT = '.lock';
