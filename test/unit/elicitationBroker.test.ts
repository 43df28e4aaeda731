import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ElicitationBroker } from '../../src/common/elicitationBroker';

const ask = { entryKey: 'k1', mode: 'form', message: 'Which?', requestedSchema: { type: 'object', properties: {} }, url: null };

test('questions queue oldest first, per session plus the sessionless ones; answers settle them once', async () => {
  const b = new ElicitationBroker();
  let changes = 0;
  b.onDidChange(() => changes++);
  const first = b.ask('s1', ask);
  const second = b.ask(null, { ...ask, entryKey: null });
  void b.ask('s2', ask);
  assert.deepEqual(
    b.pending('s1').map((p) => p.requestId),
    ['eli-1', 'eli-2'],
  );
  assert.equal(b.respond('eli-1', { action: 'accept', content: { a: 1 } }), true);
  assert.equal(b.respond('eli-1', { action: 'decline' }), false, 'already settled');
  assert.deepEqual(await first, { action: 'accept', content: { a: 1 } });
  b.respond('eli-2', { action: 'decline' });
  assert.deepEqual(await second, { action: 'decline' });
  assert.equal(changes, 5);
  b.dispose();
});

test('an aborted signal (turn cancelled, request withdrawn, agent gone) answers cancel and removes it', async () => {
  const b = new ElicitationBroker();
  const c = new AbortController();
  const p = b.ask('s1', ask, c.signal);
  c.abort();
  assert.deepEqual(await p, { action: 'cancel' });
  assert.deepEqual(b.pending('s1'), []);
  const gone = new AbortController();
  gone.abort();
  assert.deepEqual(await b.ask('s1', ask, gone.signal), { action: 'cancel' });
  const q = b.ask('s1', ask);
  b.cancelAll();
  assert.deepEqual(await q, { action: 'cancel' });
});
