/**
 * The JSON-RPC 2.0 envelope, checked at the process boundary with the same schema the store uses
 * (src/common/store/rpc.ts): anything that is not exactly one request, notification or response is
 * refused before vscode-jsonrpc sees it (vscode-jsonrpc would otherwise log and drop it, or mistake it for
 * something else).
 */
import type { Message } from 'vscode-jsonrpc/node';
import { parseRpc } from '../../common/store/rpc';

export type EnvelopeCheck = { ok: true; message: Message } | { ok: false; reason: string };

/** Classify a parsed JSON value. Never throws. */
export function checkEnvelope(value: unknown): EnvelopeCheck {
  if (Array.isArray(value)) return { ok: false, reason: 'JSON-RPC batches are not supported' };
  const r = parseRpc(value);
  if (!r.ok) return { ok: false, reason: r.error };
  // vscode-jsonrpc takes a request with a null id for a notification and would never answer it.
  if (r.msg.type === 'request' && r.msg.id === null) return { ok: false, reason: 'malformed JSON-RPC request: id is null' };
  // The schema only checked fields; the object itself (with every unknown field) goes on unchanged.
  return { ok: true, message: value as Message };
}
