import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import type { RequestPermissionParams, RequestPermissionResult } from '../../../src/common/protocol/requests';
import { AcpClient } from '../../../src/node/acp/client';
import type { Direction } from '../../../src/node/acp/client';
import { AcpClosedError, AcpRequestError, errorDataText } from '../../../src/node/acp/errors';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { FakeAgent, INIT_RESULT, openSession, stubTerminals } from './fakeAgent';
import { until } from '../../helpers/until.mjs';
import type { Json } from './fakeAgent';

const never = () => new Promise<RequestPermissionResult>(() => undefined);

function setup(handlers: Partial<ClientHandlers> = {}) {
  const agent = new FakeAgent();
  const taps: { dir: Direction; msg: Message }[] = [];
  const invalid: string[] = [];
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 'test', version: '0' },
    handlers: { requestPermission: never, ...handlers },
    tap: (dir, msg) => taps.push({ dir, msg }),
    onInvalidLine: (l) => invalid.push(l.text),
    describeClose: () => 'exit code 3',
  });
  const updates: string[] = [];
  client.onSessionUpdate((n) => updates.push(n.update.sessionUpdate));
  return { agent, client, taps, updates, invalid };
}

async function initialized(handlers: Partial<ClientHandlers> = {}) {
  const s = setup(handlers);
  const p = s.client.initialize();
  const req = await s.agent.expect('initialize');
  s.agent.reply(req.id, INIT_RESULT);
  await p;
  return s;
}

const params = (m: Json) => m.params as Json;

describe('AcpClient', () => {
  it('initialize advertises exactly the handlers it has and keeps the agent capabilities', async () => {
    const s = setup({ readTextFile: async () => ({ content: '' }) });
    const p = s.client.initialize();
    const req = await s.agent.expect('initialize');
    assert.deepEqual(params(req).clientCapabilities, { fs: { readTextFile: true, writeTextFile: false }, terminal: false, plan: {} });
    assert.equal(params(req).protocolVersion, 1);
    s.agent.reply(req.id, INIT_RESULT);
    const r = await p;
    assert.equal(r.protocolVersion, 1);
    assert.equal(s.client.agentCapabilities?.loadSession, true);
    // The malformed auth method is dropped, the unknown type is kept.
    assert.deepEqual(
      s.client.authMethods.map((m) => m.id),
      ['key', 'env'],
    );
    s.client.dispose();
  });

  it('refuses a protocol version it cannot speak', async () => {
    const s = setup();
    const p = s.client.initialize();
    const req = await s.agent.expect('initialize');
    s.agent.reply(req.id, { ...INIT_RESULT, protocolVersion: 7 });
    await assert.rejects(p, /protocol version 7/);
    assert.equal(s.client.isClosed, true);
  });

  it('delivers updates that arrive before session/new answers and after session/prompt answers, in order', async () => {
    const s = await initialized();
    const np = s.client.newSession({ cwd: '/w', mcpServers: [] });
    const nreq = await s.agent.expect('session/new');
    s.agent.update('s1', { sessionUpdate: 'available_commands_update', availableCommands: [] });
    s.agent.reply(nreq.id, { sessionId: 's1', modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] } });
    const ns = await np;
    assert.equal(ns.sessionId, 's1');
    assert.deepEqual(s.updates, ['available_commands_update']);

    const pp = s.client.prompt('s1', [{ type: 'text', text: 'hi' }]);
    const preq = await s.agent.expect('session/prompt');
    assert.deepEqual(params(preq).prompt, [{ type: 'text', text: 'hi' }]);
    s.agent.update('s1', { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'yo' } });
    s.agent.reply(preq.id, { stopReason: 'end_turn' });
    s.agent.update('s1', { sessionUpdate: 'usage_update', used: 1, size: 2 });
    assert.equal((await pp).stopReason, 'end_turn');
    await until(() => s.updates.length === 3, 'the late usage_update');
    assert.deepEqual(s.updates, ['available_commands_update', 'agent_message_chunk', 'usage_update']);
    // The tap saw every message, both directions, in wire order.
    const methods = s.taps.map((t) => `${t.dir === 'client->agent' ? '>' : '<'}${(t.msg as Json).method ?? 'result'}`);
    assert.deepEqual(methods, ['>initialize', '<result', '>session/new', '<session/update', '<result', '>session/prompt', '<session/update', '<result', '<session/update']);
    s.client.dispose();
  });

  it('keeps the id spaces apart: agent request id 2 while our prompt id 2 is pending, and string ids', async () => {
    const written: string[] = [];
    const s = await initialized({
      writeTextFile: async (p) => {
        written.push(p.path);
      },
      readTextFile: async (p) => ({ content: `content of ${p.path}` }),
    });
    const np = s.client.newSession({ cwd: '/w', mcpServers: [] });
    s.agent.reply((await s.agent.expect('session/new')).id, { sessionId: 's1' });
    await np;
    const pp = s.client.prompt('s1', [{ type: 'text', text: 'go' }]);
    const preq = await s.agent.expect('session/prompt');
    assert.equal(preq.id, 2);
    s.agent.send({ id: 2, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/w/a.txt', content: 'x' } });
    const wres = await s.agent.next();
    assert.deepEqual(wres, { jsonrpc: '2.0', id: 2, result: {} });
    s.agent.send({ id: '2', method: 'fs/read_text_file', params: { sessionId: 's1', path: '/w/b.txt' } });
    const rres = await s.agent.next();
    assert.deepEqual(rres, { jsonrpc: '2.0', id: '2', result: { content: 'content of /w/b.txt' } });
    s.agent.send({ id: 'a1b2-uuid', method: 'fs/read_text_file', params: { sessionId: 's1', path: '/w/c.txt' } });
    assert.equal((await s.agent.next()).id, 'a1b2-uuid');
    s.agent.reply(2, { stopReason: 'end_turn' });
    assert.equal((await pp).stopReason, 'end_turn');
    assert.deepEqual(written, ['/w/a.txt']);
    s.client.dispose();
  });

  it('cancel sends session/cancel, answers pending permission requests "cancelled" and accepts an error reply', async () => {
    let seen: RequestPermissionParams | undefined;
    let aborted = false;
    const s = await initialized({
      requestPermission: (p, signal) => {
        seen = p;
        signal.addEventListener('abort', () => (aborted = true));
        return never();
      },
    });
    const pp = s.client.prompt('s1', [{ type: 'text', text: 'delete it' }]);
    const preq = await s.agent.expect('session/prompt');
    s.agent.send({
      id: 6,
      method: 'session/request_permission',
      params: {
        sessionId: 's1',
        toolCall: { toolCallId: 't1', title: 'rm', kind: 'delete' },
        options: [
          { optionId: 'y', name: 'Yes', kind: 'allow_once' },
          { optionId: 'n', name: 'No', kind: 'reject_once' },
        ],
      },
    });
    await until(() => seen, 'the permission request to reach the handler');
    assert.equal(s.client.pendingPermissionCount('s1'), 1);
    s.client.cancel('s1');
    const msgs = [await s.agent.next(), await s.agent.next()];
    const cancelMsg = msgs.find((m) => m.method === 'session/cancel');
    const answer = msgs.find((m) => m.id === 6);
    assert.deepEqual(cancelMsg?.params, { sessionId: 's1' });
    assert.deepEqual(answer?.result, { outcome: { outcome: 'cancelled' } });
    assert.equal(aborted, true);
    assert.equal(s.client.pendingPermissionCount(), 0);
    // Updates after cancel still flow; then the agent (wrongly) answers with an error.
    s.agent.update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' });
    s.agent.send({ id: preq.id, error: { code: -32603, message: 'aborted' } });
    assert.equal((await pp).stopReason, 'cancelled');
    assert.deepEqual(s.updates, ['tool_call_update']);
    s.client.dispose();
  });

  it('answers a permission request with the handler choice, and "cancelled" on $/cancel_request', async () => {
    let slowArrived = false;
    const s = await initialized({
      requestPermission: async (p, signal) => {
        if (p.toolCall.toolCallId === 'slow') {
          slowArrived = true;
          return never();
        }
        void signal;
        const opt = p.options.find((o) => o.kind === 'allow_once');
        return { outcome: { outcome: 'selected', optionId: opt!.optionId } };
      },
    });
    await openSession(s.agent, s.client);
    const options = [{ optionId: 'ok-1', name: 'Allow', kind: 'allow_once' }];
    s.agent.send({ id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'fast' }, options } });
    assert.deepEqual((await s.agent.next()).result, { outcome: { outcome: 'selected', optionId: 'ok-1' } });
    s.agent.send({ id: 2, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'slow' }, options } });
    await until(() => slowArrived, 'the slow request to reach the handler');
    s.agent.send({ method: '$/cancel_request', params: { requestId: 2 } });
    const r = await s.agent.next();
    assert.equal(r.id, 2);
    assert.deepEqual(r.result, { outcome: { outcome: 'cancelled' } });
    s.client.dispose();
  });

  it('answers unknown requests with -32601, invalid params with -32602, and ignores unknown notifications and junk lines', async () => {
    const s = await initialized();
    s.agent.send({ method: '_vendor/ping', params: {} });
    s.agent.sendRaw('Visit http://127.0.0.1:9999 to log in\n');
    s.agent.send({ id: 10, method: '_vendor/do', params: {} });
    assert.equal(((await s.agent.next()).error as Json).code, -32601);
    // No fs capability was advertised, so fs requests are unknown methods too.
    s.agent.send({ id: 11, method: 'fs/read_text_file', params: { sessionId: 's', path: '/x' } });
    assert.equal(((await s.agent.next()).error as Json).code, -32601);
    s.agent.send({ id: 12, method: 'session/request_permission', params: { sessionId: 's' } });
    const bad = await s.agent.next();
    assert.equal((bad.error as Json).code, -32602);
    assert.deepEqual(s.invalid, ['Visit http://127.0.0.1:9999 to log in']);
    assert.equal(s.client.isClosed, false);
    s.client.dispose();
  });

  it('fails a pending prompt with a clear error when the agent dies mid-turn', async () => {
    const s = await initialized();
    let closeReason = '';
    s.client.onDidClose((r) => (closeReason = r));
    const pp = s.client.prompt('s1', [{ type: 'text', text: 'hi' }]);
    await s.agent.expect('session/prompt');
    s.agent.update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'par' } });
    s.agent.crash();
    await assert.rejects(pp, (e: unknown) => e instanceof AcpClosedError && /session\/prompt/.test(e.message) && /exit code 3/.test(e.message));
    assert.deepEqual(s.updates, ['agent_message_chunk']);
    assert.match(closeReason, /closed the connection/);
    await assert.rejects(s.client.newSession({ cwd: '/', mcpServers: [] }), AcpClosedError);
    s.client.dispose();
  });

  it('retries a call after auth_required once the caller authenticated', async () => {
    const s = await initialized();
    const offered: string[] = [];
    const p = s.client.withAuthRetry(
      () => s.client.newSession({ cwd: '/w', mcpServers: [] }),
      async (methods) => {
        offered.push(...methods.map((m) => m.id));
        return 'key';
      },
    );
    const first = await s.agent.expect('session/new');
    s.agent.send({ id: first.id, error: { code: -32000, message: 'Authentication required' } });
    const auth = await s.agent.expect('authenticate');
    assert.deepEqual(auth.params, { methodId: 'key' });
    s.agent.reply(auth.id, null); // some agents answer null: accepted as {}
    const second = await s.agent.expect('session/new');
    s.agent.reply(second.id, { sessionId: 's9' });
    assert.equal((await p).sessionId, 's9');
    assert.deepEqual(offered, ['key', 'env']);
    s.client.dispose();
  });

  it('covers load, resume, list, close, set_mode and set_config_option', async () => {
    const s = await initialized();
    const answer = async (method: string, result: unknown) => {
      const m = await s.agent.expect(method);
      s.agent.reply(m.id, result);
      return m;
    };
    const load = s.client.loadSession({ sessionId: 's1', cwd: '/w', mcpServers: [] });
    const lm = await s.agent.expect('session/load');
    s.agent.update('s1', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'old' } });
    s.agent.reply(lm.id, null);
    assert.deepEqual(await load, {});
    assert.deepEqual(s.updates, ['user_message_chunk']);

    const resume = s.client.resumeSession({ sessionId: 's1', cwd: '/w' });
    await answer('session/resume', { configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [] }, { broken: 1 }] });
    assert.equal((await resume).configOptions?.length, 1);

    const list = s.client.listSessions({ cwd: '/w' });
    await answer('session/list', { sessions: [{ sessionId: 's1', cwd: '/w', title: 'T' }], nextCursor: null });
    assert.equal((await list).sessions[0]?.title, 'T');

    const mode = s.client.setMode('s1', 'code');
    assert.deepEqual((await answer('session/set_mode', {})).params, { sessionId: 's1', modeId: 'code' });
    await mode;

    const cfg = s.client.setConfigOption('s1', 'fast', true);
    const cm = await answer('session/set_config_option', { configOptions: [] });
    assert.deepEqual(cm.params, { sessionId: 's1', configId: 'fast', type: 'boolean', value: true });
    assert.deepEqual((await cfg).configOptions, []);

    const close = s.client.closeSession('s1');
    await answer('session/close', {});
    await close;

    const err = s.client.setMode('s1', 'x');
    const em = await s.agent.expect('session/set_mode');
    s.agent.send({ id: em.id, error: { code: -32002, message: 'no such session' } });
    await assert.rejects(err, (e: unknown) => e instanceof AcpRequestError && e.code === -32002);

    // A result that breaks the schema is a protocol error, not silently accepted.
    const bad = s.client.newSession({ cwd: '/w', mcpServers: [] });
    await answer('session/new', { nope: true });
    await assert.rejects(bad, /invalid session\/new result/);
    s.client.dispose();
  });

  it("puts an error's data in its message: Internal error alone does not say why session/new failed", async () => {
    const s = await initialized();
    const fail = s.client.newSession({ cwd: '/w', mcpServers: [] });
    const m = await s.agent.expect('session/new');
    s.agent.send({ id: m.id, error: { code: -32603, message: 'Internal error', data: { details: 'Query closed before response received' } } });
    await assert.rejects(fail, (e: unknown) => {
      assert.ok(e instanceof AcpRequestError);
      assert.equal(e.message, 'session/new failed (-32603): Internal error (Query closed before response received)');
      assert.deepEqual(e.data, { details: 'Query closed before response received' });
      return true;
    });
    s.client.dispose();
  });

  it('formats the usual error data shapes as one bounded line', () => {
    assert.equal(errorDataText('plain\nreason'), 'plain reason');
    assert.equal(errorDataText({ message: 'from message' }), 'from message');
    assert.equal(errorDataText({ code: 'E1', path: '/x' }), '{"code":"E1","path":"/x"}');
    assert.equal(errorDataText(undefined), '');
    assert.equal(errorDataText({}), '');
    assert.equal(errorDataText('x'.repeat(2000)).length, 501);
    // Data the message already says is not repeated.
    assert.equal(new AcpRequestError('m', 1, 'boom: disk full', 'disk full').message, 'm failed (1): boom: disk full');
  });

  it('routes terminal requests to the terminal host', async () => {
    const calls: string[] = [];
    const s = await initialized({
      terminals: {
        create: async (p) => (calls.push(`create ${p.command}`), { terminalId: 'term-1' }),
        output: async () => (calls.push('output'), { output: 'hi\n', truncated: false, exitStatus: { exitCode: 0 } }),
        waitForExit: async () => (calls.push('wait'), { exitCode: 0, signal: null }),
        kill: async () => void calls.push('kill'),
        release: async () => void calls.push('release'),
      },
    });
    await openSession(s.agent, s.client);
    const t = { sessionId: 's', terminalId: 'term-1' };
    s.agent.send({ id: 1, method: 'terminal/create', params: { sessionId: 's', command: 'echo hi' } });
    assert.deepEqual((await s.agent.next()).result, { terminalId: 'term-1' });
    s.agent.send({ id: 2, method: 'terminal/output', params: t });
    assert.equal(((await s.agent.next()).result as Json).output, 'hi\n');
    s.agent.send({ id: 3, method: 'terminal/wait_for_exit', params: t });
    assert.deepEqual((await s.agent.next()).result, { exitCode: 0, signal: null });
    s.agent.send({ id: 4, method: 'terminal/kill', params: t });
    assert.deepEqual((await s.agent.next()).result, {});
    s.agent.send({ id: 5, method: 'terminal/release', params: t });
    assert.deepEqual((await s.agent.next()).result, {});
    assert.deepEqual(calls, ['create echo hi', 'output', 'wait', 'kill', 'release']);
    s.client.dispose();
  });

  it('speaks the v2 draft when asked and the agent agrees: ack by messageId, turn ends on idle state_update', async () => {
    const agent = new FakeAgent();
    const client = new AcpClient({
      input: agent.toClient,
      output: agent.toAgent,
      clientInfo: { name: 'test', version: '0' },
      protocolVersion: 2,
      handlers: { requestPermission: never },
    });
    const ip = client.initialize();
    const init = await agent.expect('initialize');
    assert.equal(params(init).protocolVersion, 2);
    assert.deepEqual(params(init).info, { name: 'test', version: '0' });
    agent.reply(init.id, { protocolVersion: 2, info: { name: 'v2agent', version: '2' }, capabilities: { session: { prompt: { image: {} } } } });
    await ip;
    assert.equal(client.protocolVersion, 2);
    assert.equal(client.agentInfo?.name, 'v2agent');
    assert.equal(client.agentCapabilities?.promptCapabilities?.image, true);
    assert.ok(client.agentCapabilities?.sessionCapabilities?.resume);
    // Another session of the connection, whose updates must not end s1's turn.
    await openSession(agent, client, 's2');
    let settled = false;
    const pp = client.prompt('s1', [{ type: 'text', text: 'hi' }]).finally(() => (settled = true));
    const preq = await agent.expect('session/prompt');
    agent.update('s1', { sessionUpdate: 'state_update', state: 'running' });
    agent.reply(preq.id, { messageId: 'u1' });
    // Messages are handled in order: once the update sent after the response is delivered, the response
    // has been handled too, and so has everything it resolved.
    const seen: string[] = [];
    client.onSessionUpdate((n) => seen.push(n.sessionId));
    agent.update('s2', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'refusal' });
    await until(() => seen.includes('s2'), 'the update sent after the response');
    assert.equal(settled, false, 'the v2 response alone (and another session going idle) does not end the turn');
    agent.update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
    assert.deepEqual(await pp, { stopReason: 'end_turn', messageId: 'u1' });
    // v2 renames authenticate.
    const ap = client.authenticate('key');
    agent.reply((await agent.expect('auth/login')).id, {});
    await ap;
    client.dispose();
  });

  it('falls back to v1 when asked for v2 and the agent answers 1', async () => {
    const agent = new FakeAgent();
    const client = new AcpClient({
      input: agent.toClient,
      output: agent.toAgent,
      clientInfo: { name: 't', version: '0' },
      protocolVersion: 2,
      handlers: { requestPermission: never },
    });
    const ip = client.initialize();
    agent.reply((await agent.expect('initialize')).id, INIT_RESULT);
    await ip;
    assert.equal(client.protocolVersion, 1);
    const pp = client.prompt('s1', [{ type: 'text', text: 'hi' }]);
    agent.reply((await agent.expect('session/prompt')).id, { stopReason: 'max_tokens' });
    assert.equal((await pp).stopReason, 'max_tokens');
    client.dispose();
  });

  it('refuses fs, terminal and permission requests for a session this connection never had; sessions it opened or named are served', async () => {
    const s = await initialized({
      requestPermission: async (p) => ({ outcome: { outcome: 'selected', optionId: p.options[0]!.optionId } }),
      readTextFile: async (p) => ({ content: `read ${p.path}` }),
      terminals: stubTerminals,
    });
    const options = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
    const asks = (sessionId: string): Json[] => [
      { method: 'fs/read_text_file', params: { sessionId, path: '/a' } },
      { method: 'terminal/create', params: { sessionId, command: 'ls' } },
      { method: 'terminal/output', params: { sessionId, terminalId: 't' } },
      { method: 'session/request_permission', params: { sessionId, toolCall: { toolCallId: 'x' }, options } },
    ];
    let id = 100;
    const answers = async (sessionId: string) => {
      const out: Json[] = [];
      for (const m of asks(sessionId)) {
        s.agent.send({ id: ++id, ...m });
        out.push(await s.agent.next());
      }
      return out;
    };
    for (const a of await answers('never-opened')) {
      assert.equal((a.error as Json | undefined)?.code, -32602, JSON.stringify(a));
      assert.match((a.error as Json).message as string, /unknown session "never-opened"/);
    }
    await openSession(s.agent, s.client, 'opened');
    // Named by the client (session/load): the agent may send requests for it, even while it loads.
    const load = s.client.loadSession({ sessionId: 'loaded', cwd: '/w', mcpServers: [] });
    const loadReq = await s.agent.expect('session/load');
    for (const sid of ['opened', 'loaded']) for (const a of await answers(sid)) assert.ok(a.result !== undefined, JSON.stringify(a));
    s.agent.reply(loadReq.id, {});
    await load;
    s.client.dispose();
  });
});
