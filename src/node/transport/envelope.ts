/**
 * The JSON-RPC 2.0 envelope, checked at the process boundary with the same schema the store uses
 * (src/common/jsonrpc/rpc.ts): anything that is not exactly one request, notification or response is
 * refused before vscode-jsonrpc sees it (vscode-jsonrpc would otherwise log and drop it, or mistake it for
 * something else).
 */
import type { Message } from 'vscode-jsonrpc/node';
import { checkMessage, type CheckedMessage } from '../../common/jsonrpc/rpc';
import { TopLevelScanner } from './peek';

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

/**
 * An integer id beyond 2^53 is not a JS number: `JSON.parse` rounds it, and the answer would name
 * another request. Its text from the line is kept instead, as a private string id, and written back
 * as that same number (see wireText).
 */
const RAW_ID_PREFIX = '\u0000acp-raw-id:';

/** The exact text of a request's integer id that a JS number cannot hold, read from its line. */
export function unsafeIdText(msg: Message, raw: string): string | undefined {
  if (!('method' in msg) || !('id' in msg) || typeof msg.id !== 'number' || Number.isSafeInteger(msg.id) || !Number.isInteger(msg.id)) return undefined;
  const scanner = new TopLevelScanner();
  scanner.push(Buffer.from(raw));
  const text = scanner.idText;
  return text !== undefined && /^-?[0-9]+$/.test(text) ? text : undefined;
}

export function withInternalId(msg: Message, rawId?: string): Message {
  if (!('method' in msg) || !('id' in msg)) return msg;
  if (rawId !== undefined) return { ...msg, id: `${RAW_ID_PREFIX}${rawId}` } as Message;
  if (msg.id !== null) return msg;
  return { ...msg, id: `${NULL_ID_PREFIX}${++nullIds}` } as Message;
}

export function withWireId(msg: Message): Message {
  if ('method' in msg || !('id' in msg) || typeof msg.id !== 'string') return msg;
  if (msg.id.startsWith(NULL_ID_PREFIX)) return { ...msg, id: null } as Message;
  // What taps and logs see; the line itself carries the exact digits (wireText).
  if (msg.id.startsWith(RAW_ID_PREFIX)) return { ...msg, id: Number(msg.id.slice(RAW_ID_PREFIX.length)) } as Message;
  return msg;
}

/** The line for a message (the writer's one serialisation): a kept integer id goes out digit for digit. */
export function wireText(internal: Message, msg: Message): string {
  if ('method' in internal || !('id' in internal) || typeof internal.id !== 'string' || !internal.id.startsWith(RAW_ID_PREFIX)) return JSON.stringify(msg);
  const { jsonrpc, id: _id, ...rest } = msg as Message & { id: unknown };
  const tail = JSON.stringify(rest);
  return `{"jsonrpc":${JSON.stringify(jsonrpc)},"id":${internal.id.slice(RAW_ID_PREFIX.length)}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
}
