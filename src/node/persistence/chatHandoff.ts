/**
 * Taking a chat over from another window: the asking window writes `<id>.handoff` (beside the chat's
 * lock) naming itself; the window holding the chat looks for requests on the chats it holds, lets go
 * of the chat (it writes what it has pending and frees the lock) and the asker takes the lock as usual.
 * A file, not a signal: windows of one workspace share only the chats' folder. Polled, because a
 * handful of `stat`s twice a second costs nothing and a folder watcher is not reliable everywhere
 * (network and remote file systems).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { honoursHandoff, type WindowId } from '../../common/chats/chatOwnership';
import { errorText } from '../../common/util/errors';
import type { IDisposable } from '../../common/util/lifecycle';

export const HANDOFF_EXT = '.handoff';
const POLL_MS = 400;

export class ChatHandoffs {
  constructor(
    private readonly dir: string,
    private readonly me: WindowId,
    private readonly alive: (pid: number) => boolean,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  private file(id: string): string {
    return path.join(this.dir, `${id}${HANDOFF_EXT}`);
  }

  /** Asks the window holding chat `id` to let go of it. */
  request(id: string, now = Date.now()): void {
    try {
      writeFileSync(this.file(id), JSON.stringify({ pid: this.me.pid, token: this.me.token, since: now }));
    } catch (e) {
      this.log(`could not ask for the chat ${id}: ${errorText(e)}`);
    }
  }

  /** Takes our request back (the chat was taken, or the wait gave up); another window's request stays. */
  withdraw(id: string): void {
    const r = this.requester(id);
    if (r && r.pid === this.me.pid && r.token === this.me.token) rmSync(this.file(id), { force: true });
  }

  /** Who asks for chat `id`, if anyone. */
  requester(id: string): (WindowId & { readonly since: number }) | undefined {
    try {
      const raw = JSON.parse(readFileSync(this.file(id), 'utf8')) as { pid?: unknown; token?: unknown; since?: unknown };
      if (typeof raw.pid === 'number' && typeof raw.token === 'string') return { pid: raw.pid, token: raw.token, since: typeof raw.since === 'number' ? raw.since : 0 };
    } catch {
      // No request (or a torn one: read again on the next look).
    }
    return undefined;
  }

  /** Ids among `held` another live window asks for, each request once. */
  private readonly answered = new Set<string>();
  asked(held: Iterable<string>): string[] {
    const ids: string[] = [];
    for (const id of held) {
      const r = this.requester(id);
      if (!r || !honoursHandoff(r, this.me, true, this.alive)) continue;
      const key = `${id}\0${r.token}\0${r.since}`;
      if (this.answered.has(key)) continue;
      this.answered.add(key);
      ids.push(id);
    }
    return ids;
  }

  /** Looks for requests on the chats `held()` names until disposed. */
  watch(held: () => Iterable<string>, onAsked: (id: string) => void, everyMs = POLL_MS): IDisposable {
    const timer = setInterval(() => this.asked(held()).forEach(onAsked), everyMs);
    timer.unref?.();
    return { dispose: () => clearInterval(timer) };
  }
}
