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

for (const version of [1, 2]) {
  test(`v${version}: streamed _meta.terminal_output pieces are appended, per terminal`, () => {
    const store = new MessageStore();
    store.ingest('client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version } });
    store.ingest('agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: version } });
    store.ingest('agent->client', update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'ls', kind: 'execute', _meta: { terminal_info: { terminal_id: 'x' } } }));
    for (const data of ['a.txt\n', 'b.txt\n', 'c.txt\n'])
      store.ingest('agent->client', update({ sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: { terminal_output: { terminal_id: 'x', data } } }));
    store.ingest(
      'agent->client',
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', _meta: { terminal_exit: { terminal_id: 'x', exit_code: 0 } } }),
    );
    const meta = () => {
      const e = store.session('s')?.entries[0];
      assert.ok(e && e.kind === 'tool_call');
      return e.meta;
    };
    assert.deepEqual(meta(), {
      terminal_info: { terminal_id: 'x' },
      terminal_output: { terminal_id: 'x', data: 'a.txt\nb.txt\nc.txt\n' },
      terminal_exit: { terminal_id: 'x', exit_code: 0 },
    });
    // Output of another terminal starts over.
    store.ingest('agent->client', update({ sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: { terminal_output: { terminal_id: 'y', data: 'new' } } }));
    assert.deepEqual(meta()?.['terminal_output'], { terminal_id: 'y', data: 'new' });
  });
}
