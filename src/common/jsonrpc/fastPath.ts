/**
 * Hot path for the most common message by far: a `session/update` notification carrying a plain text
 * chunk. It accepts only shapes the zod path (`parseRpc` + `parseSessionUpdate`) would accept and
 * returns exactly what that path would produce; anything else returns undefined and goes through zod.
 * `test/unit/jsonrpc/fastPath.test.ts` checks that equivalence with random messages.
 *
 * Split in two so the transport can check a message once and hand the result on: `chunkShape` is the
 * version-free check (envelope and chunk in one pass, done where the line is read), `chunkFor` applies
 * the negotiated version's rule on `messageId` (known only to the store).
 */
import { isRecord as obj } from '../util/guards';
import { ClientMethods, PROTOCOL_V2, type ProtocolVersion } from '../protocol/methods';
import type { ChunkKind } from '../protocol/updates';

export interface FastChunk {
  readonly sessionId: string;
  readonly chunkKind: ChunkKind;
  readonly text: string;
  readonly messageId: string | null;
}

/** A text chunk notification whatever the protocol version: `messageId` undefined when absent. */
export interface ChunkShape {
  readonly sessionId: string;
  readonly chunkKind: ChunkKind;
  readonly text: string;
  readonly messageId: string | null | undefined;
}

function chunkKind(x: unknown): ChunkKind | undefined {
  return x === 'agent_message_chunk' || x === 'agent_thought_chunk' || x === 'user_message_chunk' ? x : undefined;
}

/**
 * Number of enumerable keys, without allocating an array. Inherited enumerable keys (never present on
 * JSON.parse output) only make the count larger, which sends the message to the zod path: safe.
 */
function keyCount(o: Record<string, unknown>): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** A plain text chunk `session/update` notification with nothing else in it, or undefined. */
export function chunkShape(msg: unknown): ChunkShape | undefined {
  if (!obj(msg) || msg.method !== ClientMethods.sessionUpdate || msg.jsonrpc !== '2.0') return undefined;
  const params = msg.params;
  if (!obj(params) || keyCount(msg) !== 3) return undefined;
  const sessionId = params.sessionId;
  const update = params.update;
  if (typeof sessionId !== 'string' || !obj(update) || keyCount(params) !== 2) return undefined;
  const kind = chunkKind(update.sessionUpdate);
  const content = update.content;
  if (kind === undefined || !obj(content) || content.type !== 'text') return undefined;
  const text = content.text;
  if (typeof text !== 'string' || keyCount(content) !== 2) return undefined;
  const id = update.messageId;
  // A chunk's `_meta` (null or an object: Claude puts one on every subagent chunk) is read and dropped by the
  // zod path too, so it does not send the chunk there; anything else in `_meta` does.
  const meta = update._meta;
  if (meta !== undefined && meta !== null && !obj(meta)) return undefined;
  const n = keyCount(update) - ('_meta' in update ? 1 : 0);
  if (id === undefined) return n === 2 ? { sessionId, chunkKind: kind, text, messageId: undefined } : undefined;
  if (n !== 3 || !('messageId' in update)) return undefined;
  return typeof id === 'string' || id === null ? { sessionId, chunkKind: kind, text, messageId: id } : undefined;
}

/** The chunk under `version`'s rules: v2 requires a string `messageId` (undefined: the zod path reports it). */
export function chunkFor(shape: ChunkShape, version: ProtocolVersion): FastChunk | undefined {
  const id = shape.messageId;
  // With a string id the shape already is the chunk (no copy on the hot path).
  if (typeof id === 'string') return shape as FastChunk;
  if (version === PROTOCOL_V2) return undefined;
  return { sessionId: shape.sessionId, chunkKind: shape.chunkKind, text: shape.text, messageId: null };
}

export function fastChunk(msg: unknown, version: ProtocolVersion): FastChunk | undefined {
  const shape = chunkShape(msg);
  return shape && chunkFor(shape, version);
}
