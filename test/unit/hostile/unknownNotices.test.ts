/**
 * Issue 39 class 4: completion and cancellation notices for ids never announced change nothing and say so
 * (a diagnostic in the store, a log line in the client); the host is not told of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store/store';
import { AcpClient } from '../../../src/node/acp/client';
import type { CreateElicitationResult } from '../../../src/common/protocol/elicitation';
import { FakeAgent, INIT_RESULT, openSession } from '../acp/fakeAgent';
import { until } from '../../helpers/until.mjs';

test('store: elicitation/complete for an id no question announced is a diagnostic and changes nothing', () => {
  const store = new MessageStore();
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } });
  store.ingest('agent->client', {
    jsonrpc: '2.0',
    id: 5,
    method: 'elicitation/create',
    params: { sessionId: 's', mode: 'url', message: 'Sign in', elicitationId: 'real', url: 'https://x.test' },
  });
  const before = store.session('s')?.entries;
  const changes = store.ingest('agent->client', { jsonrpc: '2.0', method: 'elicitation/complete', params: { elicitationId: 'forged' } });
  assert.equal(store.session('s')?.entries, before);
  assert.ok(!changes.some((c) => c.type !== 'diagnostic'), JSON.stringify(changes));
  assert.match(
    store
      .diagnostics()
      .map((d) => d.message)
      .join('\n'),
    /elicitation\/complete.*'forged'.*ignored/,
  );
  store.ingest('agent->client', { jsonrpc: '2.0', method: 'elicitation/complete', params: { elicitationId: 'real' } });
  const e = store.session('s')?.entries.at(-1);
  assert.ok(e?.kind === 'elicitation' && e.completed);
});

test('client: elicitation/complete reaches the host only for a URL question the agent asked; $/cancel_request for an unknown id is logged', async () => {
  const agent = new FakeAgent();
  const completed: string[] = [];
  const logs: string[] = [];
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 't', version: '0' },
    handlers: {
      requestPermission: () => new Promise(() => undefined),
      elicitation: { modes: { form: true, url: true }, create: async (): Promise<CreateElicitationResult> => ({ action: 'decline' }), complete: (id) => completed.push(id) },
    },
    log: (level, msg) => logs.push(`${level}: ${msg}`),
  });
  const init = client.initialize();
  agent.reply((await agent.expect('initialize')).id, INIT_RESULT);
  await init;
  await openSession(agent, client, 's1');
  agent.send({ method: 'elicitation/complete', params: { elicitationId: 'forged' } });
  agent.send({ method: '$/cancel_request', params: { requestId: 'never-sent' } });
  agent.send({ id: 8, method: 'elicitation/create', params: { sessionId: 's1', mode: 'url', message: 'Sign in', elicitationId: 'e9', url: 'https://x.test' } });
  assert.deepEqual((await agent.next()).result, { action: 'decline' });
  agent.send({ method: 'elicitation/complete', params: { elicitationId: 'e9' } });
  await until(() => completed.includes('e9'), 'the real completion to reach the host');
  assert.deepEqual(completed, ['e9']);
  assert.match(logs.join('\n'), /elicitation\/complete for "forged"/);
  assert.match(logs.join('\n'), /\$\/cancel_request for "never-sent"/);
  client.dispose();
});
