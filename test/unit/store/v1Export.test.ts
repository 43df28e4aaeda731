// v2 -> v1 export: one chunk per content block; what v1 cannot express is an error, never dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportV1, MessageStore, textOf } from '../../../src/common/store';
import { connected, update } from './helpers';

const text = (t: string) => ({ type: 'text', text: t });

test('whole-message updates become one chunk per block, and reduce to the same transcript', () => {
  const v2 = [
    { sessionUpdate: 'user_message', messageId: 'u1', content: [text('Hi')] },
    { sessionUpdate: 'agent_message', messageId: 'a1', content: [text('See '), { type: 'resource_link', uri: 'file:///a', name: 'a' }], _meta: { k: 1 } },
    { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: text('.') },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'Run', status: 'in_progress' },
    { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'c1', content: { type: 'content', content: text('1') } },
    { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'c1', content: { type: 'content', content: text('2') } },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', locations: null },
  ];
  const r = exportV1(v2);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(
    r.updates.map((u) => u.sessionUpdate),
    ['user_message_chunk', 'agent_message_chunk', 'agent_message_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'tool_call_update', 'tool_call_update'],
  );
  assert.deepEqual(r.updates[1]?._meta, { k: 1 });
  assert.equal(r.updates[2]?._meta, undefined);

  // Reducing the v1 export on a v1 connection gives the same transcript as the v2 original on v2.
  const reduce = (version: number, updates: readonly unknown[]) => {
    const store: MessageStore = connected(version);
    for (const u of updates) store.ingest('agent->client', update('s', u as Record<string, unknown>));
    assert.deepEqual(
      store.diagnostics().filter((d) => d.severity === 'error'),
      [],
    );
    return (store.session('s')?.entries ?? []).map((e) =>
      e.kind === 'tool_call'
        ? [e.toolCallId, e.status, e.content]
        : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction'
          ? []
          : [e.messageId, textOf(e.content), e.content.length],
    );
  };
  assert.deepEqual(reduce(1, r.updates), reduce(2, v2));
});

test('updates v1 cannot express fail with a clear error naming the update', () => {
  const cases: [unknown, RegExp][] = [
    [{ sessionUpdate: 'agent_message', messageId: 'a', _meta: { x: 1 } }, /without content/],
    [{ sessionUpdate: 'agent_message', messageId: 'a', content: null }, /clears content/],
    [{ sessionUpdate: 'agent_message', messageId: 'a', content: [] }, /clears content/],
    [{ sessionUpdate: 'agent_message', messageId: 'a', content: [text('x')], _meta: null }, /clears _meta/],
    [{ sessionUpdate: 'tool_call_update', toolCallId: 'c', rawOutput: null }, /clears rawOutput/],
    [{ sessionUpdate: 'state_update', state: 'idle' }, /no v1 equivalent/],
    [{ sessionUpdate: 'agent_message_chunk', content: text('x') }, /messageId/],
  ];
  for (const [u, re] of cases) {
    const r = exportV1([u]);
    assert.ok(!r.ok, JSON.stringify(u));
    assert.equal(r.errors[0]?.index, 0);
    assert.match(r.errors[0]?.message ?? '', re);
  }
  const replaced = exportV1([
    { sessionUpdate: 'agent_message_chunk', messageId: 'a', content: text('x') },
    { sessionUpdate: 'agent_message', messageId: 'a', content: [text('y')] },
  ]);
  assert.ok(!replaced.ok);
  assert.equal(replaced.errors[0]?.index, 1);
  assert.match(replaced.errors[0]?.message ?? '', /already sent/);
});
