/**
 * The JSON-RPC 2.0 envelope, checked strictly at the process boundary: anything that is not exactly
 * one request, notification or response is refused before vscode-jsonrpc sees it (vscode-jsonrpc
 * would otherwise log and drop it, or mistake it for something else).
 */
import { issueText } from '../../common/util/errors';
import { z } from 'zod';
import type { Message } from 'vscode-jsonrpc/node';

const zId = z.union([z.string(), z.number()]);
const zParams = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();

const zRequest = z.object({ jsonrpc: z.literal('2.0'), id: zId, method: z.string(), params: zParams }).loose();
const zNotification = z.object({ jsonrpc: z.literal('2.0'), method: z.string(), params: zParams }).loose();
const zError = z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).loose();
const zResponse = z
  .object({ jsonrpc: z.literal('2.0'), id: zId.nullable(), result: z.unknown().optional(), error: zError.optional() })
  .loose()
  .refine((m) => 'result' in m || m.error !== undefined, 'a response needs "result" or "error"');

export type EnvelopeCheck = { ok: true; message: Message } | { ok: false; reason: string };

/** Classify a parsed JSON value. Never throws. */
export function checkEnvelope(value: unknown): EnvelopeCheck {
  if (Array.isArray(value)) return { ok: false, reason: 'JSON-RPC batches are not supported' };
  if (typeof value !== 'object' || value === null) return { ok: false, reason: 'not a JSON object' };
  const hasMethod = 'method' in value;
  const hasId = 'id' in value;
  const schema = hasMethod ? (hasId ? zRequest : zNotification) : zResponse;
  const r = schema.safeParse(value);
  if (!r.success) return { ok: false, reason: `invalid JSON-RPC message: ${issueText(r.error, true)}` };
  // The schema only checked fields; the object itself (with every unknown field) goes on unchanged.
  return { ok: true, message: value as Message };
}
