import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PermissionBroker, type PermissionAnswer } from '../../src/common/permissionBroker';

const options = [
  { optionId: 'a1', name: 'Allow', kind: 'allow_once' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
];
/** A request decided by the user: its card goes to the panel at once. */
const ask = (b: PermissionBroker, sessionId: string, toolCallId: string, opts = options, signal?: AbortSignal) =>
  b.request(sessionId, async (_s, askUser) => ({ outcome: await askUser({ toolCallId, toolCallKey: null, title: toolCallId, options: opts }) }), signal ? { signal } : {});
const outcomeOf = async (p: Promise<PermissionAnswer>) => (await p).outcome;

test('requests queue oldest first and resolve with the chosen option', async () => {
  const b = new PermissionBroker();
  let changes = 0;
  b.onDidChange(() => changes++);
  const p1 = ask(b, 's', 't1');
  const p2 = ask(b, 's', 't2');
  assert.deepEqual(
    b.pending().map((v) => v.toolCallId),
    ['t1', 't2'],
  );
  const [first] = b.pending();
  assert.ok(first);
  assert.equal(b.respond(first.requestId, 'nope'), false, 'an option the request did not offer is refused');
  assert.equal(b.respond(first.requestId, 'a1'), true);
  assert.deepEqual(await outcomeOf(p1), { outcome: 'selected', optionId: 'a1' });
  assert.equal(b.respond(first.requestId, 'a1'), false, 'a settled request cannot be answered twice');
  assert.deepEqual(
    b.pending().map((v) => v.toolCallId),
    ['t2'],
  );
  assert.equal(changes, 3);
  b.cancelAll();
  assert.deepEqual(await outcomeOf(p2), { outcome: 'cancelled' });
});

test('Esc (null) picks the reject option, or cancels when there is none', async () => {
  const b = new PermissionBroker();
  const p1 = ask(b, 's', 't1');
  const p2 = ask(b, 's', 't2', [{ optionId: 'a', name: 'OK', kind: 'allow_once' }]);
  const [v1, v2] = b.pending();
  b.respond(v1!.requestId, null);
  b.respond(v2!.requestId, null);
  assert.deepEqual(await outcomeOf(p1), { outcome: 'selected', optionId: 'r1' });
  assert.deepEqual(await outcomeOf(p2), { outcome: 'cancelled' });
});

test('cancelling a session answers only its requests with cancelled', async () => {
  const b = new PermissionBroker();
  const a = ask(b, 's1', 't1');
  void ask(b, 's2', 't2');
  assert.equal(b.cancelSession('s1'), 1);
  assert.deepEqual(await outcomeOf(a), { outcome: 'cancelled' });
  assert.deepEqual(
    b.pending().map((v) => v.toolCallId),
    ['t2'],
  );
});

test('an aborted signal withdraws the request', async () => {
  const b = new PermissionBroker();
  const ac = new AbortController();
  const p = ask(b, 's', 't', options, ac.signal);
  ac.abort();
  assert.deepEqual(await outcomeOf(p), { outcome: 'cancelled' });
  assert.equal(b.pending().length, 0);
  assert.deepEqual(await outcomeOf(ask(b, 's', 'u', options, ac.signal)), { outcome: 'cancelled' });
});

test('each request settles exactly once, whoever answers first, and nothing is left pending', async () => {
  const b = new PermissionBroker();
  const settled: string[] = [];
  const deciderSignals: AbortSignal[] = [];
  let late: ((a: PermissionAnswer) => void) | undefined;
  // A decider that answers late (after the cancel), and one that waits on the user.
  const byRule = b.request('s', (signal) => {
    deciderSignals.push(signal);
    return new Promise<PermissionAnswer>((r) => (late = r));
  });
  const byUser = ask(b, 's', 't');
  void byRule.then((a) => settled.push(`rule:${a.outcome.outcome}`));
  void byUser.then((a) => settled.push(`user:${a.outcome.outcome}`));
  assert.equal(b.count('s'), 2, 'both are pending, the one a rule decides included');
  assert.equal(b.pending().length, 1, 'only the one waiting on the user is a card');
  const [card] = b.pending();
  // The turn's cancel, then the connection's end, then the user's click and the rule's late answer.
  assert.equal(b.cancelSession('s'), 2);
  b.cancelAll();
  assert.equal(b.respond(card!.requestId, 'a1'), false);
  late?.({ outcome: { outcome: 'selected', optionId: 'a1' } });
  await Promise.all([byRule, byUser]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(settled.sort(), ['rule:cancelled', 'user:cancelled']);
  assert.equal(deciderSignals[0]?.aborted, true, 'the decider is told it lost');
  assert.equal(b.count(), 0);
});

test('a connection ending cancels only the requests it registered', async () => {
  const b = new PermissionBroker();
  const oldLink = {};
  const newLink = {};
  const never = () => new Promise<PermissionAnswer>(() => undefined);
  const old = b.request('s', never, { owner: oldLink });
  const current = b.request('s', never, { owner: newLink });
  assert.equal(b.cancelOwner(oldLink), 1);
  assert.deepEqual(await outcomeOf(old), { outcome: 'cancelled' });
  assert.equal(b.count('s'), 1);
  b.cancelOwner(newLink);
  assert.deepEqual(await outcomeOf(current), { outcome: 'cancelled' });
});

test('a decider that fails rejects the request once and leaves nothing pending', async () => {
  const b = new PermissionBroker();
  await assert.rejects(
    b.request('s', () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(b.count(), 0);
  assert.equal(b.cancelSession('s'), 0);
});
