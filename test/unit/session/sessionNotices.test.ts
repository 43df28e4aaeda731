// The chat's notices are the store's: a notice recorded before the chat had a session stays on screen
// once the session is attached, under that session, and the panel snapshot reads them from the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store';
import { ChatController } from '../../../src/node/chat/chatController';
import { chatOptions } from './harness';

test('notices from before the first session move to it when it is attached', () => {
  const store = new MessageStore();
  store.record({ event: 'notice', sessionId: null, notice: { severity: 'warning', title: 'A message from the agent was skipped.' } });
  const session = new ChatController(chatOptions({ connect: async () => assert.fail('not started'), store, restoredSessionId: 'sess_1' }));
  assert.deepEqual(
    session.snapshot().panel.notices.map((n) => n.title),
    ['A message from the agent was skipped.'],
  );
  assert.deepEqual(store.notices(null), []);
  assert.deepEqual(
    store.notices('sess_1').map((n) => n.title),
    ['A message from the agent was skipped.'],
  );
  session.dispose();
});
