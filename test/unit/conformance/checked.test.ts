// Live traffic reaches the conformance check with the transport's one check of each message
// (CheckedMessage), which spares the schema check of plain text chunks. The findings must be exactly
// those of the check without it, for chunks well-formed or not, under v1 and v2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConformanceChecker } from '../../../src/common/conformance';
import { checkMessage } from '../../../src/common/jsonrpc/rpc';
import { PROTOCOL_V1, PROTOCOL_V2, type ProtocolVersion } from '../../../src/common/protocol/methods';

const chunk = fc.record({
  sessionUpdate: fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk', 'plan', 'mystery'),
  content: fc.oneof(
    fc.record({ type: fc.constant('text'), text: fc.string() }),
    fc.record({ type: fc.constant('text'), text: fc.integer() }),
    fc.record({ type: fc.constant('image'), data: fc.string() }),
    fc.constant(null),
  ),
  messageId: fc.option(fc.oneof(fc.string(), fc.constant(null), fc.integer()), { nil: undefined }),
  extra: fc.option(fc.constant({ x: 1 }), { nil: undefined }),
});
const message = fc.record({ sessionId: fc.constantFrom('s', 'other'), update: chunk }).map(({ sessionId, update }) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: {
    sessionId,
    update: {
      sessionUpdate: update.sessionUpdate,
      content: update.content,
      ...(update.messageId !== undefined ? { messageId: update.messageId } : {}),
      ...(update.extra ? { _meta: update.extra } : {}),
    },
  },
}));

function findings(version: ProtocolVersion, msgs: readonly unknown[], withChecked: boolean) {
  const c = new ConformanceChecker({ protocolVersion: version });
  c.observe('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } }, 1);
  c.observe('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } }, 2);
  msgs.forEach((m, i) => {
    const checked = checkMessage(m);
    c.observe('agent->client', m, i + 3, withChecked && checked.ok ? checked : undefined);
  });
  c.finish();
  return c.findings();
}

test('the conformance findings are the same with and without the transport check', () => {
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), fc.constantFrom<ProtocolVersion>(PROTOCOL_V1, PROTOCOL_V2), (msgs, v) => {
      assert.deepEqual(findings(v, msgs, true), findings(v, msgs, false));
    }),
    { numRuns: 400 },
  );
});
