// The hand-written hot path must agree with the zod path: whenever it accepts a message, zod accepts
// it too and yields the same chunk; and it accepts every canonical text chunk (so the bench measures it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fastChunk } from '../../../src/common/jsonrpc/fastPath';
import { checkMessage, parseRpc } from '../../../src/common/jsonrpc/rpc';
import { parseSessionUpdate } from '../../../src/common/protocol/updates';
import { ClientMethods, PROTOCOL_V1, PROTOCOL_V2, type ProtocolVersion } from '../../../src/common/protocol/methods';

function viaZod(msg: unknown, version: ProtocolVersion) {
  const rpc = parseRpc(msg);
  if (!rpc.ok || rpc.msg.type !== 'notification' || rpc.msg.method !== ClientMethods.sessionUpdate) return undefined;
  const r = parseSessionUpdate(rpc.msg.params, version);
  if (!r.ok || r.update.kind !== 'chunk' || r.warnings.length > 0) return undefined;
  return { sessionId: r.sessionId, chunkKind: r.update.chunkKind, content: r.update.chunk.content, messageId: r.update.chunk.messageId };
}

const version = fc.constantFrom<ProtocolVersion>(PROTOCOL_V1, PROTOCOL_V2);
const chunkKind = fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk');
const canonical = fc.record({
  kind: chunkKind,
  sessionId: fc.string(),
  text: fc.string(),
  messageId: fc.option(fc.string(), { nil: undefined }),
});
const build = (c: { kind: string; sessionId: string; text: string; messageId: string | undefined }) => ({
  jsonrpc: '2.0',
  method: ClientMethods.sessionUpdate,
  params: { sessionId: c.sessionId, update: { sessionUpdate: c.kind, content: { type: 'text', text: c.text }, ...(c.messageId !== undefined ? { messageId: c.messageId } : {}) } },
});

/** One random mutation somewhere in the message: a wrong value, a missing key or an extra key. */
const junk = fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.constant([]), fc.constant({}), fc.constant({ type: 'text', text: 1 }));
const path = fc.constantFrom([], ['params'], ['params', 'update'], ['params', 'update', 'content']);
const field = fc.constantFrom('jsonrpc', 'method', 'params', 'id', 'sessionId', 'update', 'sessionUpdate', 'content', 'messageId', 'type', 'text', '_meta', 'annotations', 'extra');
const mutation = fc.record({ path, field, value: fc.option(junk, { nil: undefined }) });

function mutate(msg: Record<string, unknown>, m: { path: readonly string[]; field: string; value: unknown }): unknown {
  const copy = JSON.parse(JSON.stringify(msg)) as Record<string, unknown>;
  let at: unknown = copy;
  for (const p of m.path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[p] : undefined;
  if (typeof at !== 'object' || at === null) return copy;
  const o = at as Record<string, unknown>;
  if (m.value === undefined) delete o[m.field];
  else o[m.field] = m.value;
  return copy;
}

test('fast path accepts every canonical text chunk exactly as zod does', () => {
  fc.assert(
    fc.property(canonical, version, (c, v) => {
      const msg = build(c);
      const slow = viaZod(msg, v);
      const fast = fastChunk(msg, v);
      if (v === PROTOCOL_V2 && c.messageId === undefined) {
        assert.equal(fast, undefined);
        assert.equal(slow, undefined);
        return;
      }
      assert.ok(fast, 'fast path declined a canonical chunk');
      assert.deepEqual(slow, { sessionId: fast.sessionId, chunkKind: fast.chunkKind, content: { type: 'text', text: fast.text }, messageId: fast.messageId });
    }),
    { numRuns: 500 },
  );
});

/**
 * Mutations that keep a chunk well-formed (another text, id, session or chunk kind; a dropped or null id), so
 * that most generated messages are ones the fast path must handle, not only ones it declines.
 */
const wellFormed = fc.oneof(
  fc.record({ path: fc.constant(['params', 'update', 'content']), field: fc.constant('text'), value: fc.string() }),
  fc.record({ path: fc.constant(['params', 'update']), field: fc.constant('messageId'), value: fc.option(fc.string(), { nil: null }) }),
  fc.record({ path: fc.constant(['params', 'update']), field: fc.constant('messageId'), value: fc.constant(undefined) }),
  fc.record({ path: fc.constant(['params']), field: fc.constant('sessionId'), value: fc.string() }),
  fc.record({ path: fc.constant(['params', 'update']), field: fc.constant('sessionUpdate'), value: chunkKind }),
);

test('whatever the fast path accepts, zod accepts with the same result', () => {
  const runs = 3000;
  let accepted = 0;
  fc.assert(
    fc.property(canonical, fc.array(fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 1, arbitrary: mutation }), { minLength: 1, maxLength: 3 }), version, (c, ms, v) => {
      let msg: unknown = build(c);
      for (const m of ms) msg = typeof msg === 'object' && msg !== null ? mutate(msg as Record<string, unknown>, m) : msg;
      const fast = fastChunk(msg, v);
      const slow = viaZod(msg, v);
      if (fast === undefined) return; // declined: the zod path decides
      accepted++;
      assert.deepEqual(slow, { sessionId: fast.sessionId, chunkKind: fast.chunkKind, content: { type: 'text', text: fast.text }, messageId: fast.messageId });
    }),
    { numRuns: runs },
  );
  // The property says something only about accepted messages: make sure there were many.
  assert.ok(accepted >= runs * 0.3, `only ${accepted} of ${runs} generated messages took the fast path`);
});

test('fast path declines shapes it cannot vouch for', () => {
  const base = build({ kind: 'agent_message_chunk', sessionId: 's', text: 'x', messageId: 'm' });
  assert.ok(fastChunk(base, PROTOCOL_V1));
  assert.equal(fastChunk({ ...base, id: 1 }, PROTOCOL_V1), undefined);
  assert.equal(fastChunk(mutate(base, { path: ['params', 'update'], field: 'messageId', value: null }), PROTOCOL_V2), undefined);
  assert.equal(fastChunk(mutate(base, { path: ['params', 'update', 'content'], field: 'annotations', value: {} }), PROTOCOL_V1), undefined);
  // A `_meta` zod would warn about (not an object, not null) goes to zod; an object or null is dropped there too.
  assert.equal(fastChunk(mutate(base, { path: ['params', 'update'], field: '_meta', value: 'x' }), PROTOCOL_V1), undefined);
  assert.equal(fastChunk(mutate(base, { path: ['params', 'update'], field: '_meta', value: [] }), PROTOCOL_V1), undefined);
});

test("a chunk's _meta object or null keeps it on the fast path, with zod's result (Claude's subagent chunks all carry one)", () => {
  const base = build({ kind: 'agent_message_chunk', sessionId: 's', text: 'x', messageId: 'm' });
  for (const value of [{}, null, { claudeCode: { parentToolUseId: 'toolu_1' } }]) {
    const msg = mutate(base, { path: ['params', 'update'], field: '_meta', value });
    assert.deepEqual(fastChunk(msg, PROTOCOL_V1), { sessionId: 's', chunkKind: 'agent_message_chunk', text: 'x', messageId: 'm' });
    const slow = parseRpc(msg);
    assert.ok(slow.ok && slow.msg.type === 'notification');
  }
});

test("checkMessage (the transport's one check) gives parseRpc's verdict and message, and marks exactly the fast-path chunks", () => {
  let chunks = 0;
  fc.assert(
    fc.property(fc.oneof(canonical.map(build), fc.jsonValue()), fc.array(fc.oneof(wellFormed, mutation), { maxLength: 3 }), (start, ms) => {
      let msg: unknown = start;
      for (const m of ms) msg = typeof msg === 'object' && msg !== null ? mutate(msg as Record<string, unknown>, m) : msg;
      const checked = checkMessage(msg);
      const slow = parseRpc(msg);
      assert.equal(checked.ok, slow.ok);
      if (!checked.ok || !slow.ok) {
        assert.ok(!checked.ok && !slow.ok && checked.error === slow.error);
        return;
      }
      assert.deepEqual(checked.rpc, slow.msg);
      // v1 takes every chunk shape (a missing or null messageId is null there).
      assert.equal(checked.chunk !== undefined, fastChunk(msg, PROTOCOL_V1) !== undefined);
      if (checked.chunk) chunks++;
    }),
    { numRuns: 2000 },
  );
  assert.ok(chunks > 200, `only ${chunks} chunks were generated`);
});
