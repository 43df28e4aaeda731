// Subagents on the client side: what `initialize` advertises, and the session boundary a child announced by
// `subagent_update` joins (its requests are served like its parent's; any other unknown session is refused).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpClient, type AcpClientOptions } from '../../../src/node/acp/client';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { FakeAgent, INIT_RESULT, openSession, stubTerminals, type Json } from './fakeAgent';

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

const OPTIONS = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
const served = (): Partial<ClientHandlers> => ({
  readTextFile: async (p) => ({ content: `read ${p.path}` }),
  terminals: stubTerminals,
  elicitation: { modes: { form: true, url: false }, create: async () => ({ action: 'decline' }) },
});

async function connected(handlers: Partial<ClientHandlers> = served()) {
  const s = setup({ subagents: true }, handlers);
  const p = s.client.initialize();
  s.agent.reply((await s.agent.expect('initialize')).id, INIT_RESULT);
  await p;
  await openSession(s.agent, s.client, 'parent');
  let id = 500;
  /** The agent's answer to each request it sends for `sessionId`: fs, terminal, permission, question. */
  const answers = async (sessionId: string): Promise<Json[]> => {
    const asks: Json[] = [
      { method: 'fs/read_text_file', params: { sessionId, path: '/a' } },
      { method: 'terminal/create', params: { sessionId, command: 'ls' } },
      { method: 'session/request_permission', params: { sessionId, toolCall: { toolCallId: 'x' }, options: OPTIONS } },
      { method: 'elicitation/create', params: { sessionId, mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } } },
    ];
    const out: Json[] = [];
    for (const m of asks) {
      s.agent.send({ id: ++id, ...m });
      out.push(await s.agent.next());
    }
    return out;
  };
  const announce = (parent: string, child: string) =>
    s.agent.update(parent, { sessionUpdate: 'subagent_update', sessionId: child, title: `Sub ${child}`, state: { state: 'running' } });
  return { ...s, answers, announce };
}

/** Waits until the client handled every update sent so far: a request's answer comes after them (wire order). */
async function settled(s: Awaited<ReturnType<typeof connected>>): Promise<void> {
  s.agent.send({ id: 'probe', method: 'fs/read_text_file', params: { sessionId: 'parent', path: '/probe' } });
  assert.ok((await s.agent.next()).result !== undefined);
}

const refusedAll = (answers: readonly Json[], sessionId: string) => {
  for (const a of answers) {
    assert.equal((a.error as Json | undefined)?.code, -32602, JSON.stringify(a));
    assert.match((a.error as Json).message as string, new RegExp(`unknown session "${sessionId}"`));
  }
};

describe('subagents: the session boundary', () => {
  it('a child announced on a session of the connection (and its own child) is served like its parent', async () => {
    const s = await connected();
    s.announce('parent', 'child');
    s.announce('child', 'grandchild');
    s.agent.update('grandchild', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi from below' } });
    for (const sid of ['parent', 'child', 'grandchild']) for (const a of await s.answers(sid)) assert.ok(a.result !== undefined, `${sid}: ${JSON.stringify(a)}`);
    assert.deepEqual(s.updates, [
      { sessionId: 'parent', kind: 'subagent_update' },
      { sessionId: 'child', kind: 'subagent_update' },
      { sessionId: 'grandchild', kind: 'agent_message_chunk' },
    ]);
    s.client.dispose();
  });

  it('a hostile agent: requests for a made-up session are refused, its updates are not delivered, and it cannot announce children', async () => {
    const s = await connected();
    refusedAll(await s.answers('made-up'), 'made-up');
    // An update on the made-up session, including a subagent_update naming a child: dropped, the child not adopted.
    s.announce('made-up', 'smuggled');
    s.agent.update('made-up', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'injected' } });
    await settled(s);
    assert.deepEqual(s.updates, []);
    assert.equal(s.logs.filter((l) => /warn: session\/update .*"made-up".*not delivered/.test(l)).length, 2, s.logs.join('\n'));
    refusedAll(await s.answers('smuggled'), 'smuggled');
    s.client.dispose();
  });

  it('an announcement that names the session itself or its parent adopts nothing (no cycle); the update still goes out', async () => {
    const s = await connected();
    s.announce('parent', 'child');
    s.announce('child', 'parent');
    s.announce('child', 'child');
    await settled(s);
    assert.equal(s.updates.length, 3);
    assert.equal(s.logs.filter((l) => /warn: subagent_update on 'child' names/.test(l)).length, 2, s.logs.join('\n'));
    s.client.dispose();
  });

  it('updates for a session not known yet pass while a session/new is in flight, not after', async () => {
    const s = await connected();
    const opened = s.client.newSession({ cwd: '/', mcpServers: [] });
    const req = await s.agent.expect('session/new');
    s.agent.update('fresh', { sessionUpdate: 'available_commands_update', availableCommands: [] });
    s.agent.reply(req.id, { sessionId: 'fresh' });
    await opened;
    s.agent.update('stranger', { sessionUpdate: 'available_commands_update', availableCommands: [] });
    s.agent.update('fresh', { sessionUpdate: 'usage_update', used: 1, size: 2 });
    await settled(s);
    assert.deepEqual(
      s.updates.map((u) => `${u.sessionId} ${u.kind}`),
      ['fresh available_commands_update', 'fresh usage_update'],
    );
    s.client.dispose();
  });

  it("cancelling the parent answers its subagents' pending permission requests cancelled", async () => {
    const asked: string[] = [];
    const s = await connected({
      ...served(),
      requestPermission: (p, signal) =>
        new Promise((resolve) => {
          asked.push(p.sessionId);
          signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }));
        }),
    });
    s.announce('parent', 'child');
    s.agent.send({ id: 900, method: 'session/request_permission', params: { sessionId: 'child', toolCall: { toolCallId: 'x' }, options: OPTIONS } });
    await settled(s);
    assert.equal(s.client.pendingPermissionCount('child'), 1);
    s.client.cancel('parent');
    const sent = [await s.agent.next(), await s.agent.next()];
    assert.deepEqual(sent.find((m) => m.id === 900)?.result, { outcome: { outcome: 'cancelled' } }, JSON.stringify(sent));
    assert.deepEqual(sent.find((m) => m.method === 'session/cancel')?.params, { sessionId: 'parent' });
    assert.deepEqual(asked, ['child']);
    s.client.dispose();
  });
});
