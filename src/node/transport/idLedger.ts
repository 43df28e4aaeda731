/**
 * Request ids in flight, both ways, checked before vscode-jsonrpc sees a message.
 *
 * vscode-jsonrpc queues incoming messages in a map keyed by id, so a second message with the id of one
 * still queued replaces it: a duplicate response would win over the first, and of two requests with
 * the same id only the last would be answered (issue 11, item 11). So:
 * - a response is delivered only for a request we sent and that is still unanswered: the first
 *   response wins, a later one (or one for an id we never used) is dropped with a reason;
 * - a request whose id is still being handled is refused at once (the connection answers it Invalid
 *   Request): nothing is held for it, so an agent repeating an id cannot grow our memory (issue 39), and
 *   the first request still gets its own answer.
 */
import { Message } from 'vscode-jsonrpc/node';
import type { RequestMessage, ResponseMessage } from 'vscode-jsonrpc/node';

/** `answer`: the peer's request is refused with an error reply (it reused an id still being handled). */
export type Verdict = { deliver: true } | { deliver: false; reason: string; answer?: boolean };

const DELIVER: Verdict = { deliver: true };

export class IdLedger {
  /** Requests we sent that have no response yet. */
  private readonly awaiting = new Set<string>();
  /** Requests of the peer being handled (delivered, not yet answered). */
  private readonly handling = new Set<string>();

  /** We are sending `msg` (called as it is handed to the writer). */
  sent(msg: Message): void {
    if (Message.isRequest(msg)) {
      const key = keyOf(msg.id);
      if (key !== undefined) this.awaiting.add(key);
    } else if (Message.isResponse(msg)) {
      const key = keyOf(msg.id);
      if (key !== undefined) this.handling.delete(key);
    }
  }

  /** The peer sent `msg`: deliver it now, hold it, or drop it (with why). */
  received(msg: Message): Verdict {
    // Without an id a message is neither a request nor a response (vscode-jsonrpc's own tests below need
    // one): the streamed notifications, nearly every message, take this one check.
    if ((msg as { id?: unknown }).id === undefined) return DELIVER;
    if (Message.isResponse(msg)) {
      const key = keyOf(msg.id);
      if (key === undefined) return { deliver: true }; // id null: vscode-jsonrpc logs it, nothing waits on it
      if (this.awaiting.delete(key)) return { deliver: true };
      return {
        deliver: false,
        reason: `a response for request id ${JSON.stringify(msg.id)}, which is not waiting for one (a duplicate, or an id never sent); the first response was kept`,
      };
    }
    if (Message.isRequest(msg)) {
      const key = keyOf(msg.id);
      if (key === undefined) return { deliver: true };
      if (!this.handling.has(key)) {
        this.handling.add(key);
        return { deliver: true };
      }
      return { deliver: false, answer: true, reason: `a request with id ${JSON.stringify(msg.id)} while the peer's request with that id is still being handled` };
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
