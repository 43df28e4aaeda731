import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PermissionBroker } from '../../src/common/permissionBroker';

const options = [
  { optionId: 'a1', name: 'Allow', kind: 'allow_once' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
];
const ask = (sessionId: string, toolCallId: string, opts = options) => ({ sessionId, toolCallId, toolCallKey: null, title: toolCallId, options: opts });

test('requests queue oldest first and resolve with the chosen option', async () => {
  const b = new PermissionBroker();
  let changes = 0;
  b.onDidChange(() => changes++);
  const p1 = b.ask(ask('s', 't1'));
  const p2 = b.ask(ask('s', 't2'));
  assert.deepEqual(b.pending().map((v) => v.toolCallId), ['t1', 't2']);
  const [first] = b.pending();
  assert.ok(first);
  assert.equal(b.respond(first.requestId, 'nope'), false, 'an option the request did not offer is refused');
  assert.equal(b.respond(first.requestId, 'a1'), true);
  assert.deepEqual(await p1, { outcome: 'selected', optionId: 'a1' });
  assert.equal(b.respond(first.requestId, 'a1'), false, 'a settled request cannot be answered twice');
  assert.deepEqual(b.pending().map((v) => v.toolCallId), ['t2']);
  assert.equal(changes, 3);
  b.cancelAll();
  assert.deepEqual(await p2, { outcome: 'cancelled' });
});

test('Esc (null) picks the reject option, or cancels when there is none', async () => {
  const b = new PermissionBroker();
  const p1 = b.ask(ask('s', 't1'));
  const p2 = b.ask(ask('s', 't2', [{ optionId: 'a', name: 'OK', kind: 'allow_once' }]));
  const [v1, v2] = b.pending();
  b.respond(v1!.requestId, null);
  b.respond(v2!.requestId, null);
  assert.deepEqual(await p1, { outcome: 'selected', optionId: 'r1' });
  assert.deepEqual(await p2, { outcome: 'cancelled' });
});

test('cancelling a session answers only its requests with cancelled', async () => {
  const b = new PermissionBroker();
  const a = b.ask(ask('s1', 't1'));
  b.ask(ask('s2', 't2'));
  assert.equal(b.cancelSession('s1'), 1);
  assert.deepEqual(await a, { outcome: 'cancelled' });
  assert.deepEqual(b.pending().map((v) => v.toolCallId), ['t2']);
});

test('an aborted signal withdraws the request', async () => {
  const b = new PermissionBroker();
  const ac = new AbortController();
  const p = b.ask(ask('s', 't'), ac.signal);
  ac.abort();
  assert.deepEqual(await p, { outcome: 'cancelled' });
  assert.equal(b.pending().length, 0);
  assert.deepEqual(await b.ask(ask('s', 'u'), ac.signal), { outcome: 'cancelled' });
});
