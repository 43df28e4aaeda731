// A rejected permission request is visible on its tool call even when the agent says nothing more
// (the store sees the client's answer on the wire); an allow, a cancel, or a later agent update do not
// leave a stale "rejected".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientMethods } from '../../../src/common/protocol/methods';
import { connected, ok, req, update } from './helpers';

const options = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
];

function asked(toolCallId = 'tc1') {
  const store = connected();
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId, title: 'Edit notes.txt', kind: 'edit', status: 'pending' }));
  store.ingest('agent->client', req(7, ClientMethods.sessionRequestPermission, { sessionId: 's', toolCall: { toolCallId }, options }));
  const status = () => {
    const e = store.session('s')?.entries.find((x) => x.kind === 'tool_call' && x.toolCallId === toolCallId);
    return e?.kind === 'tool_call' ? { status: e.status, history: e.statusHistory.map((h) => h.status) } : undefined;
  };
  return { store, status };
}

for (const optionId of ['no', 'never']) {
  test(`answering the request with a reject option (${optionId}) marks the tool call rejected`, () => {
    const { store, status } = asked();
    const changes = store.ingest('client->agent', ok(7, { outcome: { outcome: 'selected', optionId } }));
    assert.deepEqual(status(), { status: 'rejected', history: ['pending', 'rejected'] });
    assert.ok(
      changes.some((c) => c.type === 'entryUpdated'),
      'the panel hears about it',
    );
  });
}

test('an allow, a cancelled outcome or an error answer leave the status to the agent', () => {
  for (const answer of [
    ok(7, { outcome: { outcome: 'selected', optionId: 'yes' } }),
    ok(7, { outcome: { outcome: 'cancelled' } }),
    { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'x' } },
  ]) {
    const { store, status } = asked();
    store.ingest('client->agent', answer);
    assert.equal(status()?.status, 'pending', JSON.stringify(answer));
  }
});

test('the agent has the last word: a later update replaces rejected; a finished call stays finished', () => {
  const { store, status } = asked();
  store.ingest('client->agent', ok(7, { outcome: { outcome: 'selected', optionId: 'no' } }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call_update', toolCallId: 'tc1', status: 'in_progress' }));
  assert.equal(status()?.status, 'in_progress');

  const done = asked('tc2');
  done.store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call_update', toolCallId: 'tc2', status: 'completed' }));
  done.store.ingest('client->agent', ok(7, { outcome: { outcome: 'selected', optionId: 'no' } }));
  assert.equal(done.status()?.status, 'completed');
});

test("the agent's 'failed' for a refused call keeps it rejected (that is why it did not run)", () => {
  const { store, status } = asked();
  store.ingest('client->agent', ok(7, { outcome: { outcome: 'selected', optionId: 'no' } }));
  store.ingest(
    'agent->client',
    update('s', {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc1',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'Rejected by the user.' } }],
    }),
  );
  assert.deepEqual(status(), { status: 'rejected', history: ['pending', 'rejected'] });
});

test('a cancel after a rejection keeps it rejected', () => {
  const { store, status } = asked();
  store.ingest('client->agent', ok(7, { outcome: { outcome: 'selected', optionId: 'no' } }));
  store.ingest('client->agent', { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } });
  assert.equal(status()?.status, 'rejected');
});
