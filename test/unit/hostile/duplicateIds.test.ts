/**
 * Issue 39 class 6: a request reusing the id of one still being handled is answered with an error at once
 * (nothing is held for it), and the first request still gets its own answer.
 */
import { test } from 'node:test';
import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import type { RequestPermissionResult } from '../../../src/common/protocol/requests';
import { AcpClient } from '../../../src/node/acp/client';
import { until } from '../../helpers/until.mjs';
import { FakeAgent, INIT_RESULT, openSession, type Json } from '../acp/fakeAgent';

test('duplicate pending ids: each duplicate gets an error at once, the first its own answer', async () => {
  const agent = new FakeAgent();
  let answer: (r: RequestPermissionResult) => void = () => undefined;
  let asked = false;
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 't', version: '0' },
    handlers: { requestPermission: () => new Promise<RequestPermissionResult>((r) => ((asked = true), (answer = r))), readTextFile: async () => ({ content: 'x' }) },
  });
  const init = client.initialize();
  agent.reply((await agent.expect('initialize')).id, INIT_RESULT);
  await init;
  await openSession(agent, client, 's');
  const options = [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }];
  agent.send({ id: 7, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options } });
  const N = 2000;
  const lines: string[] = [];
  for (let i = 0; i < N; i++) lines.push(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } }));
  agent.sendRaw(lines.join('\n') + '\n');
  for (let i = 0; i < N; i++) {
    const m = await agent.next();
    assert.equal(m.id, 7);
    assert.equal((m.error as Json | undefined)?.code, -32600, JSON.stringify(m));
    assert.match((m.error as Json).message as string, /id 7 .*still being handled/);
  }
  await until(() => asked, 'the first request to reach its handler');
  answer({ outcome: { outcome: 'selected', optionId: 'ok' } });
  const first = await agent.next();
  assert.deepEqual(first, { jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'selected', optionId: 'ok' } } });
  // The id is free again: a new request with it is served.
  agent.send({ id: 7, method: 'fs/read_text_file', params: { sessionId: 's', path: '/b' } });
  assert.deepEqual((await agent.next()).result, { content: 'x' });
  client.dispose();
});

test('refusals we write count towards backpressure: an agent that floods duplicates and never reads is read no further', async () => {
  const agent = new FakeAgent();
  const stuck = new PassThrough({ highWaterMark: 1024 }); // the agent's stdin, never read
  const client = new AcpClient({
    input: agent.toClient,
    output: stuck,
    clientInfo: { name: 't', version: '0' },
    handlers: {
      requestPermission: () => new Promise<RequestPermissionResult>(() => undefined),
      elicitation: { modes: { form: true, url: false }, create: () => new Promise(() => undefined) },
    },
    limits: { maxQueued: 64 },
  });
  void client.initialize().catch(() => undefined);
  // A question before any session that the user never answers keeps id 1 in use; every later id 1 is a duplicate.
  const ask = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: { mode: 'form', message: 'q', requestedSchema: { type: 'object', properties: {} } } });
  agent.toClient.write(ask + '\n');
  const dup = ask;
  const N = 20_000;
  for (let i = 0; i < N; i++) agent.toClient.write(dup + '\n');
  await until(() => agent.toClient.isPaused(), 'the client to stop reading the agent');
  assert.ok(agent.toClient.readableLength > 0, 'unread input is left in the pipe, not turned into replies in our memory');
  client.dispose();
});
