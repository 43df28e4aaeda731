/**
 * One place that builds an ACP `MessageConnection` (used by the client and by the demo agent):
 * NDJSON framing, ACP cancellation, and typed request/notification registration with zod at the
 * boundary. Invalid params get -32602 with the zod message; a handler aborted by `$/cancel_request`
 * answers -32800; unknown requests get -32601 (vscode-jsonrpc's default); unknown notifications are
 * ignored (we install a no-op fallback so vscode-jsonrpc does not log them as errors).
 *
 * Against a hostile or broken peer (issue 11): a refused line is answered when it can be (a request
 * or batch gets -32600, a refused response fails its request at once); duplicate ids are sorted out
 * before vscode-jsonrpc's id-keyed queue sees them (idLedger.ts); reading pauses while too many
 * messages wait for dispatch; a throwing tap is logged and never costs a message.
 */
import type { Readable, Writable } from 'node:stream';
import { createMessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import type { CancellationToken, Logger, Message, MessageConnection, ResponseMessage } from 'vscode-jsonrpc/node';
import type * as z from 'zod';
import { ErrorCodes, ProtocolMethods } from '../../common/protocol/methods';
import { zCancelRequestParams } from '../../common/protocol/requests';
import { AcpCancellationStrategy } from './cancellation';
import { IdLedger } from './idLedger';
import { NdjsonMessageReader } from './ndjson';
import { NdjsonMessageWriter } from './ndjsonWriter';
import type { InvalidLine } from './ndjson';
import { errorText, issueText } from '../../common/util/errors';
import type { CheckedMessage } from '../../common/jsonrpc/rpc';
import { isRecord } from '../../common/util/guards';

/**
 * vscode-jsonrpc's own cancel notification: it handles some of them on arrival without dispatching
 * them, so they are left out of the count of messages waiting for dispatch.
 */
const JSONRPC_CANCEL = '$/cancelRequest';
const uncounted = (msg: Message) => 'method' in msg && msg.method === JSONRPC_CANCEL;

type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFn = (level: LogLevel, message: string) => void;

export interface AcpConnectionOptions {
  input: Readable;
  output: Writable;
  /**
   * Sees every message: `in` as it is read (before dispatch), `out` as it is written, with its exact
   * JSON line. It may throw: the error is logged and the message is still delivered or sent.
   */
  tap?: (direction: 'in' | 'out', msg: Message, raw: string, checked?: CheckedMessage) => void;
  onInvalidLine?: (line: InvalidLine) => void;
  log?: LogFn;
  maxMessageBytes?: number;
  maxNesting?: number;
  /** Stop reading the peer while this many messages wait for dispatch (default 256). */
  maxQueued?: number;
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
  /** The most messages that ever waited for dispatch at once (backpressure keeps it at `maxQueued`). */
  readonly maxQueuedSeen: number;
  /**
   * Handles `method` notifications as they are read, instead of one per event-loop turn through
   * vscode-jsonrpc's queue, whenever nothing read earlier still waits there (so the order of dispatch
   * stays the order on the wire). `onAcpNotification` registers its handlers here too.
   */
  onNotificationDirect(method: string, handler: (params: unknown, checked: CheckedMessage | undefined) => void): void;
}

/** Marks the error replies the connection makes up itself (for the capture and the protocol log). */
const REFUSED_BY = 'acp-chat';

export function createAcpConnection(opts: AcpConnectionOptions): AcpConnection {
  const log: LogFn = opts.log ?? (() => undefined);
  const maxQueued = Math.max(1, opts.maxQueued ?? 256);
  const resumeAt = Math.floor(maxQueued / 2);
  let delivered = 0;
  let handled = 0;
  let maxQueuedSeen = 0;
  let drainWaiters: (() => void)[] = [];
  const checkDrained = () => {
    if (handled < delivered) return;
    const ws = drainWaiters;
    drainWaiters = [];
    for (const w of ws) w();
  };
  const tapError = (direction: 'in' | 'out') => (err: unknown, msg: Message) => {
    // Recording (capture, journal, store) must never break the live connection.
    log('error', `recording a message (${direction}) failed, the message itself went through: ${err instanceof Error ? err.message : String(err)}${describe(msg)}`);
  };
  /** Replies the connection sends on its own; they answer nothing vscode-jsonrpc is handling. */
  const ownReplies = new WeakSet<Message>();
  const ledger = new IdLedger();
  const reader: NdjsonMessageReader = new NdjsonMessageReader(opts.input, {
    ...(opts.maxMessageBytes !== undefined ? { maxMessageBytes: opts.maxMessageBytes } : {}),
    ...(opts.maxNesting !== undefined ? { maxNesting: opts.maxNesting } : {}),
    onInvalid: (line) => {
      log('warn', `skipped a line from the peer (${line.reason}): ${line.text.slice(0, 200)}`);
      try {
        opts.onInvalidLine?.(line);
      } catch (err) {
        log('error', `reporting a skipped line failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      answerRefused(line);
    },
    accept: (msg, raw) => {
      const verdict = ledger.received(msg);
      if (verdict.deliver) return true;
      log('warn', `skipped a message from the peer (${verdict.reason}): ${raw.slice(0, 200)}`);
      const peer =
        verdict.answer && 'id' in msg && (typeof msg.id === 'string' || typeof msg.id === 'number')
          ? { kind: 'request' as const, id: msg.id }
          : { kind: 'response' as const, id: null };
      opts.onInvalidLine?.({ text: raw.slice(0, 1000), reason: verdict.reason, kind: 'envelope', peer, bytes: Buffer.byteLength(raw) });
      if (peer.kind === 'request')
        reply({ jsonrpc: '2.0', id: peer.id, error: { code: ErrorCodes.invalidRequest, message: `request refused: ${verdict.reason}` } } as ResponseMessage);
      return false;
    },
    tap: (msg, raw, checked) => opts.tap?.('in', msg, raw, checked),
    dispatch: (msg, checked) => {
      // A hot notification (session/update while an agent streams) is handled right here when nothing
      // read before it still waits in vscode-jsonrpc's queue, which dispatches one message per
      // event-loop turn. Array params go the queue's way (vscode-jsonrpc spreads them into arguments).
      const rpc = checked?.rpc;
      const direct = rpc?.type === 'notification' && delivered === handled && isRecord(rpc.params) ? directHandlers.get(rpc.method) : undefined;
      if (direct && rpc?.type === 'notification' && !disposed) {
        try {
          direct(rpc.params, checked);
        } catch (err) {
          log('error', `handling ${rpc.method} failed: ${errorText(err)}`);
        }
        return true;
      }
      if (uncounted(msg)) return false;
      delivered++;
      const queued = delivered - handled;
      if (queued > maxQueuedSeen) maxQueuedSeen = queued;
      // Backpressure: a flooding agent waits on its pipe instead of growing our memory.
      if (queued >= maxQueued) reader.pause();
      return false;
    },
    onTapError: tapError('in'),
    onDeliverError: (err, msg) => log('error', `could not handle a message from the peer, it was skipped: ${errorText(err)}${describe(msg)}`),
  });
  const writer = new NdjsonMessageWriter(opts.output, {
    tap: (msg, raw) => opts.tap?.('out', msg, raw),
    onTapError: tapError('out'),
    onWrite: (msg) => {
      if (!ownReplies.has(msg)) ledger.sent(msg);
    },
  });
  /** Our own replies not yet written: they count towards backpressure like messages waiting for dispatch. */
  let replying = 0;
  const resumeIfDrained = () => {
    if (reader.isPaused && delivered - handled <= resumeAt && replying <= resumeAt) reader.resume();
  };
  const reply = (msg: Message) => {
    ownReplies.add(msg);
    if (++replying >= maxQueued) reader.pause();
    writer
      .write(msg)
      .catch((err: unknown) => log('warn', `could not answer a refused message: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        replying--;
        resumeIfDrained();
      });
  };
  /**
   * A refused line still gets its answer when it can: a request (or a batch) an error reply, a
   * response the failure of the request it answers, so neither side waits forever.
   */
  const answerRefused = (line: InvalidLine) => {
    const { peer } = line;
    if (line.kind === 'batch') {
      reply({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.invalidRequest, message: 'JSON-RPC batches are not supported: send one message per line' } } as ResponseMessage);
    } else if (line.kind !== 'notJson' && peer.kind === 'request') {
      // An id we cannot name back (an object, `1e400`) is answered as JSON-RPC says: with id null.
      reply({ jsonrpc: '2.0', id: peer.id, error: { code: ErrorCodes.invalidRequest, message: `request refused: ${line.reason}` } } as ResponseMessage);
    } else if (peer.kind === 'response' && peer.id !== null && ledger.isAwaiting(peer.id)) {
      const failure: ResponseMessage = {
        jsonrpc: '2.0',
        id: peer.id,
        // No `data`: error data is shown to the user, and the message already says it all.
        error: { code: ErrorCodes.internalError, message: `the agent's response was refused by ${REFUSED_BY}: ${line.reason}` },
      };
      const raw = JSON.stringify(failure);
      if (ledger.received(failure).deliver) reader.deliver(failure, raw);
    }
  };
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
          if (!uncounted(message)) handled++;
          resumeIfDrained();
          checkDrained();
        }
      },
    },
  });
  connection.onNotification(ProtocolMethods.cancelRequest, (params: unknown) => {
    const p = zCancelRequestParams.safeParse(params);
    if (p.success && !cancellation.cancelIncoming(p.data.requestId)) {
      log('warn', `$/cancel_request for ${JSON.stringify(p.data.requestId)}, which is no request of the peer still in progress; ignored`);
    }
  });
  // Unknown notifications (including `_vendor/...` extensions) are ignored, per ACP.
  connection.onUnhandledNotification(() => undefined);
  const directHandlers = new Map<string, (params: unknown, checked: CheckedMessage | undefined) => void>();
  // As vscode-jsonrpc: nothing is handled once the connection is disposed.
  let disposed = false;
  connection.onDispose(() => (disposed = true));
  const whenDrained = () =>
    new Promise<void>((resolve) => {
      drainWaiters.push(resolve);
      checkDrained();
    });
  return {
    connection,
    cancellation,
    reader,
    writer,
    whenDrained,
    get maxQueuedSeen() {
      return maxQueuedSeen;
    },
    onNotificationDirect: (method, handler) => void directHandlers.set(method, handler),
  };
}

function describe(msg: Message): string {
  const m = msg as { method?: unknown; id?: unknown };
  if (typeof m.method === 'string') return ` (${m.method}${m.id !== undefined ? ` #${String(m.id)}` : ''})`;
  return m.id !== undefined ? ` (response #${String(m.id)})` : '';
}

export interface RequestMeta {
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
export function onAcpRequest<S extends z.ZodType, R>(acp: AcpConnection, method: string, schema: S, handler: (params: z.infer<S>, ctx: RequestMeta) => Promise<R> | R): void {
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

/**
 * Register a notification handler with zod-validated params; invalid params are logged and dropped.
 * `prechecked` says when the transport's one check of the message (`CheckedMessage`) already proves
 * the params match `schema`, so they are not validated again (the text chunks of a streaming turn).
 */
export function onAcpNotification<S extends z.ZodType>(
  acp: AcpConnection,
  method: string,
  schema: S,
  handler: (params: z.infer<S>) => void,
  log?: LogFn,
  prechecked?: (checked: CheckedMessage) => boolean,
): void {
  const run = (raw: unknown, checked?: CheckedMessage) => {
    if (checked && prechecked?.(checked)) {
      handler(raw as z.infer<S>);
      return;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      log?.('warn', `ignored ${method} with invalid params: ${issueText(parsed.error, true)}`);
      return;
    }
    handler(parsed.data);
  };
  acp.connection.onNotification(method, (raw: unknown) => run(raw));
  acp.onNotificationDirect(method, run);
}
