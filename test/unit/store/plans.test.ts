// Plans by id (unstable `plan_update` / `plan_removed`): several plans at once, each updated in its place,
// items, Markdown and file plans, one removed when told; the old single `plan` update untouched; what a
// malformed or unknown one does; and a save and restore keeping them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store';
import { connected, update } from './helpers';

const items = (planId: string, ...statuses: string[]) => ({
  sessionUpdate: 'plan_update',
  plan: { type: 'items', planId, entries: statuses.map((status, i) => ({ content: `step ${i}`, priority: 'medium', status })) },
});

test('plan_update keeps several plans by id, each updated in its place; plan_removed takes one away', () => {
  const store = connected();
  store.ingest('agent->client', update('s', items('a', 'pending')));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'b', content: '# Plan\n- **one**' } }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'c', uri: 'file:///ws/PLAN.md' } }));
  const changes = store.ingest('agent->client', update('s', items('a', 'completed', 'in_progress')));
  assert.ok(
    changes.some((c) => c.type === 'sessionChanged' && c.fields.includes('plans')),
    'the panel hears of it',
  );
  const plans = store.session('s')?.plans ?? [];
  assert.deepEqual(
    plans.map((p) => [p.planId, p.type]),
    [
      ['a', 'items'],
      ['b', 'markdown'],
      ['c', 'file'],
    ],
    'an updated plan keeps its place',
  );
  const a = plans[0];
  assert.ok(a?.type === 'items');
  assert.deepEqual(
    a.entries.map((e) => e.status),
    ['completed', 'in_progress'],
  );
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_removed', planId: 'b' }));
  assert.deepEqual(
    store.session('s')?.plans.map((p) => p.planId),
    ['a', 'c'],
  );
  assert.equal(store.session('s')?.plan, null, 'the single v1 plan is another field');
});

test('the old single plan update still replaces the one plan, beside the plans by id', () => {
  const store = connected();
  store.ingest('agent->client', update('s', items('a', 'pending')));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan', entries: [{ content: 'old', priority: 'high', status: 'pending' }] }));
  assert.deepEqual(
    store.session('s')?.plan?.map((e) => e.content),
    ['old'],
  );
  assert.equal(store.session('s')?.plans.length, 1);
});

test('an unknown planId or a missing field is said, an unknown plan type ignored; none changes the plans', () => {
  const store = connected();
  store.ingest('agent->client', update('s', items('a', 'pending')));
  const removed = store.ingest('agent->client', update('s', { sessionUpdate: 'plan_removed', planId: 'nope' }));
  assert.ok(!removed.some((c) => c.type === 'sessionChanged'));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_update', plan: { type: 'diagram', planId: 'd' } }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'e' } }));
  assert.deepEqual(
    store.session('s')?.plans.map((p) => p.planId),
    ['a'],
  );
  const said = store
    .diagnostics()
    .map((d) => d.message)
    .join('\n');
  assert.match(said, /plan_removed names plan 'nope'/);
  assert.match(said, /markdown without content/);
});

test('a planId such as __proto__ is data', () => {
  const store = connected();
  store.ingest('agent->client', update('s', items('__proto__', 'pending')));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_removed', planId: 'constructor' }));
  assert.deepEqual(
    store.session('s')?.plans.map((p) => p.planId),
    ['__proto__'],
  );
});

test('plans survive a save and restore', () => {
  const store = connected();
  store.ingest('agent->client', update('s', items('a', 'completed')));
  store.ingest('agent->client', update('s', { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'b', content: 'text' } }));
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON()))).store;
  assert.deepEqual(back.session('s')?.plans, store.session('s')?.plans);
});
