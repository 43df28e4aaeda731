// v1 tool_call_update `_meta` is kept (merged by key) for display: agents send terminal output and tool
// responses there. Protocol fields keep their v1 patch rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store';

const update = (u: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } });

test('v1 update _meta merges by top-level key; null leaves it', () => {
  const store = new MessageStore();
  store.ingest('agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } });
  store.ingest('agent->client', update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Run', kind: 'execute', _meta: { a: 1 } }));
  store.ingest('agent->client', update({ sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: { terminal_output: { terminal_id: 'x', data: 'hi' } } }));
  store.ingest('agent->client', update({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', _meta: null }));
  const [e] = store.session('s')!.entries;
  assert.ok(e && e.kind === 'tool_call');
  assert.deepEqual(e.meta, { a: 1, terminal_output: { terminal_id: 'x', data: 'hi' } });
  assert.equal(e.status, 'completed');
  assert.equal(e.title, 'Run', 'absent fields keep their value');
});
