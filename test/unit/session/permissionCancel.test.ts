// Cancelling a turn answers each pending permission request exactly once, on the wire and in the panel:
// the client answers the agent `cancelled` (ACP requires it after session/cancel), and the panel's
// request is settled by that answer, not answered a second time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import { inProcessDemoAgent, chatOptions } from './harness';
import { until } from '../../helpers/until.mjs';

test('cancel answers each pending permission request exactly once', async () => {
  const wire: { dir: string; msg: { id?: unknown; method?: unknown; result?: unknown } }[] = [];
  const outcomes: unknown[] = [];
  const session = new ChatController(
    chatOptions({
      connect: inProcessDemoAgent().connect,
      handlers: () => ({
        requestPermission: async (p, _signal, askUser) => {
          const outcome = await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: p.toolCall.title ?? '', options: p.options });
          outcomes.push(outcome);
          return { outcome };
        },
      }),
      sinks: { capture: (dir, msg) => void wire.push({ dir, msg: msg as { id?: unknown } }), persist: () => undefined },
    }),
  );
  await session.start();
  session.prompt('edit with permission');
  await until(() => session.broker.pending().length === 1, 'the permission request');
  const asked = wire.filter((r) => r.dir === 'agent->client' && r.msg.method === 'session/request_permission');
  assert.equal(asked.length, 1);
  session.cancel();
  await session.whenIdle();
  const answers = wire.filter((r) => r.dir === 'client->agent' && r.msg.id === asked[0]?.msg.id && r.msg.method === undefined);
  assert.deepEqual(
    answers.map((a) => a.msg.result),
    [{ outcome: { outcome: 'cancelled' } }],
    'one answer on the wire',
  );
  assert.deepEqual(outcomes, [{ outcome: 'cancelled' }], 'the panel request settled once');
  assert.equal(session.broker.pending().length, 0);
  session.dispose();
});
