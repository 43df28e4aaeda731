/**
 * The requests we sent the agent that still wait for their answer. vscode-jsonrpc does not reject pending
 * requests when the stream ends; this does, once, with a clear message (plus the close's description, e.g.
 * the agent's exit status and stderr tail), so no caller waits forever on a dead agent.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { AcpClosedError, toAcpError } from './errors';

interface Waiting {
  readonly method: string;
  readonly reject: (e: Error) => void;
}

export class OutstandingCalls {
  private readonly waiting = new Set<Waiting>();
  private closed = false;

  constructor(private readonly describeClose?: () => string | undefined) {}

  /** Sends a request; its answer or error, or an `AcpClosedError` when the connection ends first. */
  send(connection: MessageConnection, method: string, params: object): Promise<unknown> {
    if (this.closed) return Promise.reject(new AcpClosedError(this.closedMessage(method)));
    return new Promise<unknown>((resolve, reject) => {
      const entry: Waiting = { method, reject };
      this.waiting.add(entry);
      connection.sendRequest(method, params).then(
        (r: unknown) => {
          this.waiting.delete(entry);
          resolve(r);
        },
        (e: unknown) => {
          this.waiting.delete(entry);
          reject(toAcpError(method, e));
        },
      );
    });
  }

  /**
   * Something other than a response that `method`'s caller waits for (a v2 turn's idle update): `promise`
   * rejects when the connection ends before `release()`.
   */
  hold(method: string): { readonly promise: Promise<never>; release(): void } {
    if (this.closed) return { promise: Promise.reject(new AcpClosedError(this.closedMessage(method))), release: () => undefined };
    let entry: Waiting | undefined;
    const promise = new Promise<never>((_resolve, reject) => (entry = { method, reject }));
    if (entry) this.waiting.add(entry);
    return { promise, release: () => entry && this.waiting.delete(entry) };
  }

  /** The connection ended: everything still waiting fails. */
  closeAll(): void {
    this.closed = true;
    for (const w of [...this.waiting]) w.reject(new AcpClosedError(this.closedMessage(w.method)));
    this.waiting.clear();
  }

  private closedMessage(method: string): string {
    const extra = this.describeClose?.();
    return `the agent connection closed while waiting for the ${method} response${extra ? ` (${extra})` : ''}`;
  }
}
