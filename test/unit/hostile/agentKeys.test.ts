/**
 * Issue 39 class 3: what the agent names (form fields, ids, `_meta` keys) is data, never an object member.
 * A field named `constructor` or `toString` is answered like any other; `__proto__`, which JSON tools
 * (zod included) drop or turn into a prototype, is refused as a field name with a clear problem, so what the
 * transcript says is what was sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeAnswers, initialAnswers, parseForm, validateAnswers, type FormModel } from '../../../src/common/elicitation/form';
import { patchMeta } from '../../../src/common/store/toolCallRules';
import { cliElicitation } from '../../../src/node/cli/elicit';
import { AgentBehaviour } from '../../../src/common/debug/agentBehaviour';
import { ownValue } from '../../../src/common/util/guards';

const MEMBER_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];

function memberForm(required: string[] = []): FormModel {
  const properties = Object.fromEntries(MEMBER_NAMES.map((n) => [n, { type: 'string' }]));
  const r = parseForm({ type: 'object', properties, required });
  assert.ok(r.ok, r.ok ? '' : r.problems.join('; '));
  return r.form;
}

test('fields named like object members: unanswered is unanswered, answered is sent as typed', () => {
  const form = memberForm();
  assert.deepEqual(validateAnswers(form, JSON.parse('{}')), { ok: true, content: {} });
  const answers = Object.fromEntries(MEMBER_NAMES.map((n, i) => [n, `v${i}`]));
  const r = validateAnswers(form, answers);
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual(JSON.parse(JSON.stringify(r.content)), answers);
  assert.deepEqual(describeAnswers(form, {}), []);
  assert.deepEqual(initialAnswers(memberForm()), {});
  const req = memberForm(['toString']);
  assert.equal(validateAnswers(req, {}).ok, false, 'a required toString with no answer is missing, not the function');
});

test('a field named __proto__ is refused with a clear problem (it cannot survive JSON tools)', () => {
  const r = parseForm(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"string"}}}'));
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.problems.join(';'), /__proto__/);
});

test('the CLI answers file: a field named constructor is answered from the file, not from Object', async () => {
  const host = cliElicitation({ ask: null, answers: { constructor: 'built' }, fallback: 'decline' } as never, () => undefined);
  const form = memberForm(['constructor']);
  const res = await host.create({ params: { sessionId: 's', mode: 'form', message: 'q' } as never, form, rpcId: 1 }, new AbortController().signal);
  assert.deepEqual(res, { action: 'accept', content: { constructor: 'built' } });
});

test('_meta keys are data: __proto__ in a patch does not become a prototype', () => {
  const out = patchMeta({ a: 1 }, JSON.parse('{"__proto__":{"polluted":true},"constructor":null}'));
  assert.ok(out);
  assert.equal((out as Record<string, unknown>)['polluted'], undefined);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out), ['a', '__proto__']);
});

test('the behaviour report: update kinds named like members are counted as kinds, and nothing global changes', () => {
  const b = new AgentBehaviour();
  for (const kind of ['__proto__', 'constructor', 'toString', '__proto__'])
    b.observe('agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: kind } } });
  assert.equal(({} as Record<string, unknown>)['count'], undefined, 'Object.prototype untouched');
  const kinds = b.report().updateKinds;
  assert.deepEqual(Object.keys(kinds).sort(), ['__proto__', 'constructor', 'toString']);
  assert.equal(ownValue(kinds, '__proto__')?.count, 2);
  assert.equal(ownValue(kinds, 'toString')?.count, 1);
});
