/**
 * Request ids in flight, both ways, checked before vscode-jsonrpc sees a message.
 *
 * vscode-jsonrpc queues incoming messages in a map keyed by id, so a second message with the id of one
 * still queued replaces it: a duplicate response would win over the first, and of two requests with
 * the same id only the last would be answered (issue 11, item 11). So:
 * - a response is delivered only for a request we sent and that is still unanswered: the first
 *   response wins, a later one (or one for an id we never used) is dropped with a reason;
 * - a request whose id is still being handled waits here until the first one is answered, then is
 *   delivered: every request gets its own answer, in order.
 */
import { Message } from 'vscode-jsonrpc/node';
import type { RequestMessage, ResponseMessage } from 'vscode-jsonrpc/node';

export type Verdict = { deliver: true } | { deliver: false; reason: string } | { deliver: false; held: true };

export class IdLedger {
  /** Requests we sent that have no response yet. */
  private readonly awaiting = new Set<string>();
  /** Requests of the peer being handled (delivered, not yet answered). */
  private readonly handling = new Set<string>();
  /** Requests of the peer that reused an id still being handled, in arrival order. */
  private readonly held = new Map<string, { msg: RequestMessage; raw: string }[]>();

  constructor(private readonly deliver: (msg: Message, raw: string) => void) {}

  /** We are sending `msg` (called as it is handed to the writer). */
  sent(msg: Message): void {
    if (Message.isRequest(msg)) {
      const key = keyOf(msg.id);
      if (key !== undefined) this.awaiting.add(key);
    } else if (Message.isResponse(msg)) {
      const key = keyOf(msg.id);
      if (key === undefined || !this.handling.delete(key)) return;
      const queue = this.held.get(key);
      const next = queue?.shift();
      if (queue && queue.length === 0) this.held.delete(key);
      if (next) {
        this.handling.add(key);
        this.deliver(next.msg, next.raw);
      }
    }
  }

  /** The peer sent `msg`: deliver it now, hold it, or drop it (with why). */
  received(msg: Message, raw: string): Verdict {
    if (Message.isResponse(msg)) {
      const key = keyOf(msg.id);
      if (key === undefined) return { deliver: true }; // id null: vscode-jsonrpc logs it, nothing waits on it
      if (this.awaiting.delete(key)) return { deliver: true };
      return { deliver: false, reason: `a response for request id ${JSON.stringify(msg.id)}, which is not waiting for one (a duplicate, or an id never sent); the first response was kept` };
    }
    if (Message.isRequest(msg)) {
      const key = keyOf(msg.id);
      if (key === undefined) return { deliver: true };
      if (!this.handling.has(key)) {
        this.handling.add(key);
        return { deliver: true };
      }
      const queue = this.held.get(key) ?? [];
      queue.push({ msg, raw });
      this.held.set(key, queue);
      return { deliver: false, held: true };
    }
    return { deliver: true };
  }

  /** Whether a request we sent with this id still waits for its response. */
  isAwaiting(id: string | number): boolean {
    const key = keyOf(id);
    return key !== undefined && this.awaiting.has(key);
  }
}

/** `number:2` and `string:2` are different ids, as in vscode-jsonrpc's own maps. */
function keyOf(id: ResponseMessage['id'] | RequestMessage['id'] | undefined): string | undefined {
  if (id === null || id === undefined) return undefined;
  return `${typeof id}:${id}`;
}
