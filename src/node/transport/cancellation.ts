/**
 * ACP's generic request cancellation for vscode-jsonrpc. vscode-jsonrpc's built-in strategy speaks
 * LSP (`$/cancelRequest` with `{id}`); ACP uses `$/cancel_request` with `{requestId}` (DIGEST §8.2).
 *
 * Sender: cancelling a token passed to `sendRequest` sends `$/cancel_request`.
 * Receiver: vscode-jsonrpc never sees an ACP cancel, so we keep our own map of incoming request id ->
 * token source and `cancelIncoming(requestId)` (called from the `$/cancel_request` notification
 * handler that `createAcpConnection` registers) fires the handler's token. vscode-jsonrpc never
 * disposes receiver token sources, so handlers registered through `onAcpRequest` `release()` theirs.
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { AbstractCancellationTokenSource, CancellationToken, CancellationId, CancellationStrategy, MessageConnection, RequestMessage } from 'vscode-jsonrpc/node';
import { ProtocolMethods } from '../../common/protocol/methods';

export class AcpCancellationStrategy implements CancellationStrategy {
  /** Incoming requests still being handled, keyed by `typeof id + id` (string "2" and number 2 differ). */
  private readonly incoming = new Map<string, CancellationTokenSource>();
  private readonly ids = new WeakMap<CancellationToken, string | number>();

  readonly receiver = {
    kind: 'request' as const,
    createCancellationTokenSource: (request: RequestMessage): AbstractCancellationTokenSource => {
      const source = new CancellationTokenSource();
      const key = keyOf(request.id);
      if (key !== undefined) {
        this.incoming.set(key, source);
        this.ids.set(source.token, request.id as string | number);
      }
      return source;
    },
  };

  readonly sender = {
    sendCancellation: async (conn: MessageConnection, id: CancellationId): Promise<void> => {
      await conn.sendNotification(ProtocolMethods.cancelRequest, { requestId: id });
    },
    cleanup: (_id: CancellationId): void => undefined,
  };

  /** Fire the token of an incoming request; returns false if it is unknown or already answered. */
  cancelIncoming(requestId: string | number): boolean {
    const key = keyOf(requestId);
    const source = key === undefined ? undefined : this.incoming.get(key);
    if (!source) return false;
    source.cancel();
    return true;
  }

  /** The id of the incoming request a handler's token belongs to (handlers are not told their id). */
  requestIdOf(token: CancellationToken): string | number | undefined {
    return this.ids.get(token);
  }

  /** Forget a finished request (its reply is being sent). */
  release(token: CancellationToken): void {
    const id = this.ids.get(token);
    const key = keyOf(id);
    if (key !== undefined) this.incoming.delete(key);
  }
}

function keyOf(id: string | number | null | undefined): string | undefined {
  if (id === null || id === undefined) return undefined;
  return `${typeof id}:${id}`;
}
