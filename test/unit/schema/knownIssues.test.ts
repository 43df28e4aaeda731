// The schema findings of issue 10, one readable test each (the generated tests find them too, but
// these say what broke): v2 permission requests, v2 ids (configId/methodId), v2 outgoing shapes, and
// v1 requests with `"id": null`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpClient } from '../../../src/node/acp/client';
import type { RequestPermissionParams } from '../../../src/common/protocol/requests';
import { FakeAgent, openSession, type Json } from '../acp/fakeAgent';

async function connected(version: 1 | 2, seen: RequestPermissionParams[] = []) {
  const agent = new FakeAgent();
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 't', version: '0' },
    protocolVersion: version,
    handlers: {
      requestPermission: async (p) => {
        seen.push(p);
        return { outcome: { outcome: 'selected', optionId: p.options[0]?.optionId ?? '' } };
      },
    },
  });
  const init = client.initialize();
  const req = await agent.expect('initialize');
  agent.reply(
    req.id,
    version === 2
      ? { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} }, authMethods: [{ type: 'agent', methodId: 'login', name: 'Log in' }] }
      : { protocolVersion: 1, agentCapabilities: {} },
  );
  await init;
  return { agent, client };
}

describe('issue 10 findings', () => {
  it('v2 session/request_permission (title + subject) is answered, with the title shown', async () => {
    const seen: RequestPermissionParams[] = [];
    const { agent, client } = await connected(2, seen);
    await openSession(agent, client);
    const options = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
    agent.send({
      id: 7,
      method: 'session/request_permission',
      params: { sessionId: 's', title: 'Run ls?', subject: { type: 'command', command: 'ls', cwd: '/ws', toolCallId: 't1' }, options },
    });
    assert.deepEqual((await agent.next()).result, { outcome: { outcome: 'selected', optionId: 'ok' } });
    agent.send({
      id: 8,
      method: 'session/request_permission',
      params: { sessionId: 's', title: 'Edit?', subject: { type: 'tool_call', toolCall: { toolCallId: 't2', kind: 'edit' } }, options },
    });
    assert.ok('result' in (await agent.next()));
    assert.deepEqual(
      seen.map((p) => [p.toolCall.toolCallId, p.toolCall.title, p.toolCall.kind]),
      [
        ['t1', 'Run ls?', 'execute'],
        ['t2', 'Edit?', 'edit'],
      ],
    );
    client.dispose();
  });

  it('v2 auth methods (methodId) and config options (configId) are read', async () => {
    const { agent, client } = await connected(2);
    assert.deepEqual(
      client.authMethods.map((m) => m.id),
      ['login'],
    );
    const p = client.newSession({ cwd: '/ws', mcpServers: [{ name: 'files', command: '/bin/mcp', args: [], env: [] }] });
    const req = await agent.expect('session/new');
    // The v2 draft tags stdio MCP servers.
    assert.equal(((req.params as Json).mcpServers as Json[])[0]?.type, 'stdio');
    agent.reply(req.id, { sessionId: 's', configOptions: [{ configId: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }] });
    assert.deepEqual(
      (await p).configOptions?.map((o) => o.id),
      ['model'],
    );
    client.dispose();
  });

  it('v2: set_config_option is tagged and session/set_mode is not sent', async () => {
    const { agent, client } = await connected(2);
    const p = client.setConfigOption('s', 'model', 'a');
    const req = await agent.expect('session/set_config_option');
    assert.deepEqual(req.params, { sessionId: 's', configId: 'model', type: 'id', value: 'a' });
    agent.reply(req.id, { configOptions: [] });
    await p;
    await assert.rejects(client.setMode('s', 'code'), /does not exist in protocol 2/);
    client.dispose();
  });

  it('v1: a request with "id": null is answered with "id": null', async () => {
    const { agent, client } = await connected(1);
    await openSession(agent, client);
    agent.send({
      id: null,
      method: 'session/request_permission',
      params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
    });
    const answer = await agent.next();
    assert.equal(answer.id, null);
    assert.deepEqual(answer.result, { outcome: { outcome: 'selected', optionId: 'ok' } });
    client.dispose();
  });
});
