/**
 * The JSON-RPC 2.0 envelope, checked at the process boundary with the same schema the store uses
 * (src/common/store/rpc.ts): anything that is not exactly one request, notification or response is
 * refused before vscode-jsonrpc sees it (vscode-jsonrpc would otherwise log and drop it, or mistake it for
 * something else).
 */
import type { Message } from 'vscode-jsonrpc/node';
import { checkMessage, type CheckedMessage } from '../../common/store/rpc';

export type EnvelopeCheck = { ok: true; message: Message; checked: CheckedMessage } | { ok: false; reason: string };

/**
 * Classify a parsed JSON value. Never throws. `checked` is the one check of this message: it travels
 * with it (taps, the store, the client's handlers), so nothing downstream checks the envelope again.
 */
export function checkEnvelope(value: unknown): EnvelopeCheck {
  if (Array.isArray(value)) return { ok: false, reason: 'JSON-RPC batches are not supported' };
  const r = checkMessage(value);
  if (!r.ok) return { ok: false, reason: r.error };
  // A request with a null id (valid in ACP v1) gets a private id for vscode-jsonrpc: see withInternalId.
  // The schema only checked fields; the object itself (with every unknown field) goes on unchanged.
  return { ok: true, message: value as Message, checked: r };
}

/**
 * vscode-jsonrpc treats a request with `"id": null` as unanswerable and drops it, yet the agent waits
 * for the answer. The reader gives such a request a private string id (unique, so two of them can be
 * pending at once), and the writer turns it back into `null` on the response.
 */
const NULL_ID_PREFIX = '\u0000acp-null-id:';
let nullIds = 0;

export function withInternalId(msg: Message): Message {
  if (!('method' in msg) || !('id' in msg) || msg.id !== null) return msg;
  return { ...msg, id: `${NULL_ID_PREFIX}${++nullIds}` } as Message;
}

export function withWireId(msg: Message): Message {
  if ('method' in msg || !('id' in msg) || typeof msg.id !== 'string' || !msg.id.startsWith(NULL_ID_PREFIX)) return msg;
  return { ...msg, id: null } as Message;
}
