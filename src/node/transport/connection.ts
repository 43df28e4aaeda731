/**
 * One place that builds an ACP `MessageConnection` (used by the client and by the demo agent):
 * NDJSON framing, ACP cancellation, and typed request/notification registration with zod at the
 * boundary. Invalid params get -32602 with the zod message; a handler aborted by `$/cancel_request`
 * answers -32800; unknown requests get -32601 (vscode-jsonrpc's default); unknown notifications are
 * ignored (we install a no-op fallback so vscode-jsonrpc does not log them as errors).
 */
import type { Readable, Writable } from 'node:stream';
import { createMessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import type { CancellationToken, Logger, Message, MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { ErrorCodes, ProtocolMethods } from '../../common/protocol/methods';
import { zCancelRequestParams } from '../../common/protocol/requests';
import { AcpCancellationStrategy } from './cancellation';
import { NdjsonMessageReader, NdjsonMessageWriter } from './ndjson';
import type { InvalidLine } from './ndjson';
import { errorText, issueText } from '../../common/util/errors';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFn = (level: LogLevel, message: string) => void;

export interface AcpConnectionOptions {
  input: Readable;
  output: Writable;
  /** Sees every message: `in` as it is read (before dispatch), `out` as it is written. */
  tap?: (direction: 'in' | 'out', msg: Message) => void;
  onInvalidLine?: (line: InvalidLine) => void;
  log?: LogFn;
  maxMessageBytes?: number;
}

export interface AcpConnection {
  readonly connection: MessageConnection;
  readonly cancellation: AcpCancellationStrategy;
  readonly reader: NdjsonMessageReader;
  readonly writer: NdjsonMessageWriter;
  /**
   * Resolves once every message read so far has been dispatched. vscode-jsonrpc queues incoming
   * messages and dispatches one per tick, but fires `onClose` at once; waiting for this before
   * acting on a close keeps the last updates of a crashed agent from being dropped.
   */
  whenDrained(): Promise<void>;
}

export function createAcpConnection(opts: AcpConnectionOptions): AcpConnection {
  const log: LogFn = opts.log ?? (() => undefined);
  let delivered = 0;
  let handled = 0;
  let drainWaiters: (() => void)[] = [];
  const checkDrained = () => {
    if (handled < delivered) return;
    const ws = drainWaiters;
    drainWaiters = [];
    for (const w of ws) w();
  };
  const reader = new NdjsonMessageReader(opts.input, {
    ...(opts.maxMessageBytes !== undefined ? { maxMessageBytes: opts.maxMessageBytes } : {}),
    onInvalid: (line) => {
      log('warn', `skipped a line from the peer (${line.reason}): ${line.text.slice(0, 200)}`);
      opts.onInvalidLine?.(line);
    },
    tap: (msg) => {
      delivered++;
      opts.tap?.('in', msg);
    },
  });
  const writer = new NdjsonMessageWriter(opts.output, { tap: (msg) => opts.tap?.('out', msg) });
  const cancellation = new AcpCancellationStrategy();
  const logger: Logger = {
    error: (m) => log('error', m),
    warn: (m) => log('warn', m),
    info: (m) => log('info', m),
    log: (m) => log('debug', m),
  };
  const connection = createMessageConnection(reader, writer, logger, {
    cancellationStrategy: cancellation,
    messageStrategy: {
      handleMessage: (message, next) => {
        try {
          return next(message);
        } finally {
          handled++;
          checkDrained();
        }
      },
    },
  });
  connection.onNotification(ProtocolMethods.cancelRequest, (params: unknown) => {
    const p = zCancelRequestParams.safeParse(params);
    if (p.success) cancellation.cancelIncoming(p.data.requestId);
  });
  // Unknown notifications (including `_vendor/...` extensions) are ignored, per ACP.
  connection.onUnhandledNotification(() => undefined);
  const whenDrained = () =>
    new Promise<void>((resolve) => {
      drainWaiters.push(resolve);
      checkDrained();
    });
  return { connection, cancellation, reader, writer, whenDrained };
}

export interface RequestContext {
  /** Aborted when the peer sends `$/cancel_request` for this request or the connection closes. */
  readonly signal: AbortSignal;
  readonly requestId: string | number | undefined;
}

/** Thrown (or returned as rejection) by a handler to answer with a specific JSON-RPC error. */
export function rpcError(code: number, message: string, data?: unknown): ResponseError<unknown> {
  return new ResponseError(code, message, data);
}

/**
 * Register a request handler whose params are validated by `schema`. The handler's result is sent
 * as-is; `undefined` becomes `{}` (ACP's empty result — vscode-jsonrpc would send `null`).
 */
export function onAcpRequest<S extends z.ZodType, R>(
  acp: AcpConnection,
  method: string,
  schema: S,
  handler: (params: z.infer<S>, ctx: RequestContext) => Promise<R> | R,
): void {
  acp.connection.onRequest(method, async (raw: unknown, token: CancellationToken) => {
    const requestId = acp.cancellation.requestIdOf(token);
    try {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        throw rpcError(ErrorCodes.invalidParams, `invalid params for ${method}: ${issueText(parsed.error, true)}`);
      }
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        const result = await handler(parsed.data, { signal: controller.signal, requestId });
        return result === undefined ? {} : result;
      } catch (err) {
        if (err instanceof ResponseError) throw err;
        if (controller.signal.aborted) throw rpcError(ErrorCodes.requestCancelled, `${method} was cancelled`);
        throw rpcError(ErrorCodes.internalError, errorText(err));
      } finally {
        sub.dispose();
      }
    } finally {
      acp.cancellation.release(token);
    }
  });
}

/** Register a notification handler with zod-validated params; invalid params are logged and dropped. */
export function onAcpNotification<S extends z.ZodType>(
  acp: AcpConnection,
  method: string,
  schema: S,
  handler: (params: z.infer<S>) => void,
  log?: LogFn,
): void {
  acp.connection.onNotification(method, (raw: unknown) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      log?.('warn', `ignored ${method} with invalid params: ${issueText(parsed.error, true)}`);
      return;
    }
    handler(parsed.data);
  });
}
