// One JSON-RPC envelope for the transport and the store: they accept and refuse the same messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRpc } from '../../src/common/jsonrpc/rpc';
import { checkEnvelope } from '../../src/node/transport/envelope';

const accepted = [
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's' }, _meta: { trace: 1 } },
  { jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { path: '/a' } },
  { jsonrpc: '2.0', id: 'x', result: null },
  { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error', data: 'why' } },
];
const refused = [
  { jsonrpc: '1.0', method: 'x' },
  { jsonrpc: '2.0', id: 1 },
  { jsonrpc: '2.0', method: 'x', params: 'not structured' },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
  { jsonrpc: '2.0', id: {}, method: 'x' },
];

test('an extra top-level member (the schemas allow _meta there) is accepted by both, and kept', () => {
  for (const m of accepted) {
    assert.equal(parseRpc(m).ok, true, JSON.stringify(m));
    const c = checkEnvelope(m);
    assert.ok(c.ok, JSON.stringify(m));
    assert.equal(c.message, m, 'the transport passes the object on unchanged');
  }
});

test('what breaks JSON-RPC 2.0 is refused by both, with a reason', () => {
  for (const m of refused) {
    const r = parseRpc(m);
    assert.equal(r.ok, false, JSON.stringify(m));
    const c = checkEnvelope(m);
    assert.equal(c.ok, false, JSON.stringify(m));
    assert.ok(!c.ok && !r.ok && c.reason === r.error);
  }
});
