// Subagents on the client side: what `initialize` advertises, and the session boundary a child announced by
// `subagent_update` joins (its requests are served like its parent's; any other unknown session is refused).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpClient, type AcpClientOptions } from '../../../src/node/acp/client';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { FakeAgent, INIT_RESULT, type Json } from './fakeAgent';

function setup(o: Partial<AcpClientOptions> = {}, handlers: Partial<ClientHandlers> = {}) {
  const agent = new FakeAgent();
  const logs: string[] = [];
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 'test', version: '0' },
    handlers: { requestPermission: async (p) => ({ outcome: { outcome: 'selected', optionId: p.options[0]!.optionId } }), ...handlers },
    log: (level, m) => logs.push(`${level}: ${m}`),
    ...o,
  });
  const updates: { sessionId: string; kind: string }[] = [];
  client.onSessionUpdate((n) => updates.push({ sessionId: n.sessionId, kind: n.update.sessionUpdate }));
  return { agent, client, logs, updates };
}

async function initParams(o: Partial<AcpClientOptions>): Promise<Json> {
  const s = setup(o);
  const p = s.client.initialize();
  const req = await s.agent.expect('initialize');
  s.agent.reply(req.id, { ...INIT_RESULT, protocolVersion: o.protocolVersion ?? 1 });
  await p;
  s.client.dispose();
  return req.params as Json;
}

describe('subagents: initialize', () => {
  it('advertises clientCapabilities.subagents {} only when the caller serves subagents', async () => {
    const on = await initParams({ subagents: true });
    assert.deepEqual((on.clientCapabilities as Json).subagents, {});
    const off = await initParams({});
    assert.equal('subagents' in (off.clientCapabilities as Json), false);
  });

  it('asking for v2: the v1 fields carry it, the v2 capabilities do not (subagents are baseline in v2)', async () => {
    const p = await initParams({ subagents: true, protocolVersion: 2 });
    assert.deepEqual((p.clientCapabilities as Json).subagents, {});
    assert.equal('subagents' in (p.capabilities as Json), false);
  });
});
