import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CreateElicitationResult } from '../../../src/common/protocol/elicitation';
import type { RequestPermissionResult } from '../../../src/common/protocol/requests';
import { AcpClient } from '../../../src/node/acp/client';
import type { ElicitationAsk, ElicitationHost } from '../../../src/node/acp/handlers';
import { FakeAgent, INIT_RESULT, openSession, type Json } from './fakeAgent';
import { until } from '../../helpers/until.mjs';

const never = <T>() => new Promise<T>(() => undefined);
const SCHEMA = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 }, s: { type: 'string', title: 'Line' } } };

function setup(host: Partial<ElicitationHost> | null, logs: string[] = [], protocolVersion: 1 | 2 = 1) {
  const agent = new FakeAgent();
  const elicitation: ElicitationHost | undefined = host ? { modes: { form: true, url: true }, create: () => never<CreateElicitationResult>(), ...host } : undefined;
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 'test', version: '0' },
    handlers: { requestPermission: () => never<RequestPermissionResult>(), ...(elicitation ? { elicitation } : {}) },
    log: (level, msg) => logs.push(`${level}: ${msg}`),
    protocolVersion,
  });
  return { agent, client, logs };
}

async function initialized(host: Parameters<typeof setup>[0], logs?: string[]) {
  const s = setup(host, logs);
  const p = s.client.initialize();
  const req = await s.agent.expect('initialize');
  s.agent.reply(req.id, INIT_RESULT);
  await p;
  // Session-scoped questions must name a session of the connection.
  if (host) for (const sid of ['s1', 's2']) await openSession(s.agent, s.client, sid);
  return { ...s, init: req };
}

const form = (id: number, extra: Json = {}) => ({
  id,
  method: 'elicitation/create',
  params: { sessionId: 's1', mode: 'form', message: 'How many?', requestedSchema: SCHEMA, ...extra },
});

describe('elicitation in the client', () => {
  it('advertises the modes its host serves, and nothing without a host (v1 and v2 shapes)', async () => {
    const a = await initialized({});
    assert.deepEqual((a.init.params as Json).clientCapabilities, {
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      elicitation: { form: {}, url: {} },
      plan: {},
    });
    a.client.dispose();
    const b = await initialized({ modes: { form: true, url: false } });
    assert.deepEqual(((b.init.params as Json).clientCapabilities as Json).elicitation, { form: {} });
    b.client.dispose();
    const c = await initialized(null);
    assert.equal(((c.init.params as Json).clientCapabilities as Json).elicitation, undefined);
    c.client.dispose();
    const v2 = setup({ modes: { form: true, url: false } }, [], 2);
    void v2.client.initialize().catch(() => undefined);
    const req = await v2.agent.expect('initialize');
    assert.deepEqual(((req.params as Json).capabilities as Json).elicitation, { form: {} }, 'the v2 draft capabilities carry it too');
    v2.client.dispose();
  });

  it('hands a form to the host with its parsed model, and sends validated content', async () => {
    const asks: ElicitationAsk[] = [];
    const s = await initialized({ create: async (ask) => (asks.push(ask), { action: 'accept', content: { n: 2, s: 'hi' } }) });
    s.agent.send(form(0, { toolCallId: 'tc1' }));
    const r = await s.agent.next();
    assert.equal(r.id, 0);
    assert.deepEqual(r.result, { action: 'accept', content: { n: 2, s: 'hi' } });
    assert.equal(asks[0]?.params.toolCallId, 'tc1');
    assert.deepEqual(
      asks[0]?.form?.fields.map((f) => f.label),
      ['n', 'Line'],
    );
    s.client.dispose();
  });

  it('never sends an answer that fails the schema: it declines and logs why', async () => {
    const logs: string[] = [];
    const s = await initialized({ create: async () => ({ action: 'accept', content: { n: 0 } }) }, logs);
    s.agent.send(form(1));
    assert.deepEqual((await s.agent.next()).result, { action: 'decline' });
    assert.ok(
      logs.some((l) => /answering decline: n: n must be at least 1/.test(l)),
      logs.join('\n'),
    );
    s.client.dispose();
  });

  it('refuses a mode it did not advertise and a schema outside the subset with -32602, naming the problem', async () => {
    const s = await initialized({ modes: { form: true, url: false } });
    s.agent.send({ id: 2, method: 'elicitation/create', params: { sessionId: 's1', mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://x.test' } });
    const a = await s.agent.next();
    assert.equal((a.error as Json).code, -32602);
    assert.match(String((a.error as Json).message), /mode "url" was not advertised/);
    s.agent.send(form(3, { requestedSchema: { type: 'object', properties: { o: { type: 'object' } } } }));
    const b = await s.agent.next();
    assert.equal((b.error as Json).code, -32602);
    assert.match(String((b.error as Json).message), /restricted JSON Schema subset: property 'o' has type "object"/);
    s.agent.send({ id: 4, method: 'elicitation/create', params: { mode: 'form', message: 'no scope', requestedSchema: SCHEMA } });
    assert.match(String(((await s.agent.next()).error as Json).message), /needs a scope/);
    s.client.dispose();
  });

  it('serves request-scoped elicitations (no session yet) and URL mode; accept in URL mode carries no content', async () => {
    const asks: ElicitationAsk[] = [];
    const s = await initialized({ create: async (ask) => (asks.push(ask), { action: 'accept', content: { stray: 1 } }) });
    s.agent.send({ id: 5, method: 'elicitation/create', params: { requestId: 7, mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://x.test/a' } });
    assert.deepEqual((await s.agent.next()).result, { action: 'accept' });
    assert.equal(asks[0]?.form, null);
    assert.equal(asks[0]?.params.requestId, 7);
    s.client.dispose();
  });

  it('session/cancel answers the session\'s pending elicitations "cancel" and aborts the host; other sessions wait', async () => {
    const signals: AbortSignal[] = [];
    const s = await initialized({ create: (_a, signal) => (signals.push(signal), never<CreateElicitationResult>()) });
    s.agent.send(form(6));
    s.agent.send(form(7, { sessionId: 's2' }));
    await until(() => signals.length === 2, 'both elicitations to reach the host');
    assert.equal(s.client.pendingElicitationCount('s1'), 1);
    s.client.cancel('s1');
    const sent = [await s.agent.next(), await s.agent.next()];
    assert.deepEqual(sent.find((m) => m.id === 6)?.result, { action: 'cancel' });
    assert.ok(sent.some((m) => m.method === 'session/cancel'));
    assert.equal(signals[0]?.aborted, true);
    assert.equal(signals[1]?.aborted, false);
    assert.equal(s.client.pendingElicitationCount(), 1);
    s.client.dispose();
    assert.equal(signals[1]?.aborted, true, 'the connection ending withdraws the rest');
  });

  it('$/cancel_request answers "cancel"; elicitation/complete reaches the host', async () => {
    const completed: string[] = [];
    let arrived = false;
    const s = await initialized({ create: () => ((arrived = true), never<CreateElicitationResult>()), complete: (id) => completed.push(id) });
    s.agent.send({ id: 8, method: 'elicitation/create', params: { sessionId: 's1', mode: 'url', message: 'Sign in', elicitationId: 'e9', url: 'https://x.test' } });
    await until(() => arrived, 'the request to reach the host');
    s.agent.send({ method: '$/cancel_request', params: { requestId: 8 } });
    assert.deepEqual((await s.agent.next()).result, { action: 'cancel' });
    s.agent.send({ method: 'elicitation/complete', params: { elicitationId: 'e9' } });
    await until(() => completed.length === 1, 'elicitation/complete to reach the host');
    assert.deepEqual(completed, ['e9']);
    s.client.dispose();
  });
});
