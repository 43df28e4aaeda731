/**
 * The JSON-RPC 2.0 envelope: the one schema both the transport (before vscode-jsonrpc sees a message) and
 * the store use. Strict on what JSON-RPC requires (`jsonrpc: "2.0"`, the id and method types, structured
 * params, exactly one of result/error), tolerant of extra top-level members such as `_meta`, which the ACP
 * schemas allow. What is inside `params` / `result` is checked by the variant schemas.
 */
import { isRecord } from '../util/guards';
import { issueText } from '../util/errors';
import { ClientMethods } from '../protocol/methods';
import * as z from 'zod';
import { chunkShape, type ChunkShape } from './fastPath';

/**
 * A JSON-RPC message id; JSON-RPC allows null (the answer to a request whose id could not be read). A
 * request id inside ACP params (`session/cancel_request`) is `requests.ts`'s `zRequestId`, without null.
 */
const zRpcId = z.union([z.string(), z.number(), z.null()]);
export type RequestId = z.infer<typeof zRpcId>;

/** JSON-RPC 2.0 §4.2: params, when present, are an object or an array. */
const zParams = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();
const zRequest = z.looseObject({ jsonrpc: z.literal('2.0'), id: zRpcId, method: z.string(), params: zParams });
const zNotification = z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), params: zParams });
const zResponseError = z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() });
const zSuccess = z.looseObject({ jsonrpc: z.literal('2.0'), id: zRpcId, result: z.unknown() });
const zFailure = z.looseObject({ jsonrpc: z.literal('2.0'), id: zRpcId, error: zResponseError });

export type RpcMessage =
  | { readonly type: 'request'; readonly id: RequestId; readonly method: string; readonly params: unknown }
  | { readonly type: 'notification'; readonly method: string; readonly params: unknown }
  | { readonly type: 'response'; readonly id: RequestId; readonly ok: true; readonly result: unknown }
  | { readonly type: 'response'; readonly id: RequestId; readonly ok: false; readonly error: z.infer<typeof zResponseError> };

/** Classifies and validates one message. Returns a readable error instead of throwing. */
export function parseRpc(msg: unknown): { ok: true; msg: RpcMessage } | { ok: false; error: string } {
  if (!isRecord(msg)) return { ok: false, error: 'not a JSON-RPC message: expected an object' };
  if ('method' in msg) {
    if ('id' in msg) {
      const r = zRequest.safeParse(msg);
      return r.success
        ? { ok: true, msg: { type: 'request', id: r.data.id, method: r.data.method, params: r.data.params } }
        : { ok: false, error: `malformed JSON-RPC request: ${issueText(r.error)}` };
    }
    const r = zNotification.safeParse(msg);
    return r.success
      ? { ok: true, msg: { type: 'notification', method: r.data.method, params: r.data.params } }
      : { ok: false, error: `malformed JSON-RPC notification: ${issueText(r.error)}` };
  }
  if ('error' in msg) {
    if ('result' in msg) return { ok: false, error: 'malformed JSON-RPC response: both "result" and "error"' };
    const r = zFailure.safeParse(msg);
    return r.success
      ? { ok: true, msg: { type: 'response', id: r.data.id, ok: false, error: r.data.error } }
      : { ok: false, error: `malformed JSON-RPC error response: ${issueText(r.error)}` };
  }
  const r = zSuccess.safeParse(msg);
  return r.success && 'result' in msg
    ? { ok: true, msg: { type: 'response', id: r.data.id, ok: true, result: r.data.result } }
    : { ok: false, error: `malformed JSON-RPC message: ${r.success ? 'no method, result or error' : issueText(r.error)}` };
}

/**
 * One message checked once, where it is read (the transport) and handed on with the message to whoever
 * needs it (the store, the client's handlers), so nothing downstream checks the envelope again.
 * `chunk` is set when the message is a plain text chunk notification (the hot path: `fastPath.ts`).
 */
export interface CheckedMessage {
  readonly ok: true;
  readonly rpc: RpcMessage;
  readonly chunk: ChunkShape | undefined;
}

/** `parseRpc`, plus the chunk fast path: a text chunk is checked by hand in one pass, never by zod. */
export function checkMessage(msg: unknown): CheckedMessage | { readonly ok: false; readonly error: string } {
  const chunk = chunkShape(msg);
  if (chunk) return { ok: true, rpc: { type: 'notification', method: ClientMethods.sessionUpdate, params: (msg as { params: unknown }).params }, chunk };
  const r = parseRpc(msg);
  return r.ok ? { ok: true, rpc: r.msg, chunk: undefined } : r;
}

/** Request ids of one direction form one space; 1 and "1" are different ids. */
export function idKey(id: RequestId): string {
  return typeof id === 'string' ? `s:${id}` : `n:${String(id)}`;
}
