// Restart while a start is in flight (the recovery after a crash, or an earlier restart, still waiting on
// the agent's initialize): the chat ends up with a session, not "Starting…" for good.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import { chatOptions, inProcessDemoAgent } from './harness';
import { until } from '../../helpers/until.mjs';

test('a restart while a start waits on initialize starts the agent again and gets a session', async () => {
  const agent = inProcessDemoAgent();
  let gate: Promise<void> | null = null;
  let gated = 0;
  const chat = new ChatController(
    chatOptions({
      connect: async (o) => {
        const link = await agent.connect(o);
        const held = gate;
        if (held) {
          const initialize = link.client.initialize.bind(link.client);
          link.client.initialize = async (...a) => {
            gated++;
            await held;
            return initialize(...a);
          };
        }
        return link;
      },
    }),
  );
  await chat.start();
  assert.equal(chat.turnState, 'idle');
  const sessionId = chat.sessionId;

  let open = () => {};
  gate = new Promise<void>((r) => (open = r));
  const first = chat.restart();
  await until(() => gated === 1, 'the first restart to wait on initialize');
  assert.equal(chat.turnState, 'starting');
  gate = null;
  const second = chat.restart();
  open();
  await Promise.all([first, second]);
  await until(
    () => chat.turnState === 'idle',
    () => `the chat to be idle again (it is ${chat.turnState})`,
  );
  assert.equal(chat.sessionId, sessionId, 'the same session, reattached');
  assert.equal(agent.connections, 3, 'the start, the dropped one and the restart');
  chat.dispose();
});
