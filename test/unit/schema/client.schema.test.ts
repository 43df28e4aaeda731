// AcpClient against traffic generated from the official schemas (v1 and the v2 draft), over a fake
// agent: every schema-valid agent->client message is accepted (requests answered with a result, not
// -32602; results of the client's own requests parsed, their data kept), and every message the client
// sends validates against its version's schema (whole message, and params/result per method).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpClient } from '../../../src/node/acp/client';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { FakeAgent, type Json as FakeJson } from '../acp/fakeAgent';
import type { Json } from './generate';
import { corpus, type Corpus } from './messages';

type Obj = { [k: string]: Json };
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const handlers: ClientHandlers = {
  requestPermission: async (p) => {
    const first = p.options[0];
    return first ? { outcome: { outcome: 'selected', optionId: first.optionId } } : { outcome: { outcome: 'cancelled' } };
  },
  readTextFile: async () => ({ content: 'text' }),
  writeTextFile: async () => undefined,
  terminals: {
    create: async () => ({ terminalId: 't1' }),
    output: async () => ({ output: 'out', truncated: false, exitStatus: { exitCode: 0, signal: null } }),
    waitForExit: async () => ({ exitCode: 0, signal: null }),
    kill: async () => undefined,
    release: async () => undefined,
  },
};

function setup(version: 1 | 2) {
  const agent = new FakeAgent();
  const client = new AcpClient({ input: agent.toClient, output: agent.toAgent, clientInfo: { name: 'test', version: '0' }, handlers, protocolVersion: version });
  return { agent, client };
}

/** Validates what the client sent: the whole message, then params (requests, notifications) or result (responses). */
function checkSent(c: Corpus, msg: FakeJson, answers: string | undefined): string | undefined {
  if (!c.v.message(msg)) return `invalid message ${JSON.stringify(msg)}: ${JSON.stringify(c.v.message.errors?.slice(0, 2))}`;
  const m = c.methods.find((x) => x.method === (answers ?? msg.method));
  if (!m) return `method ${String(answers ?? msg.method)} is not in the v${c.version} schema: ${JSON.stringify(msg)}`;
  const def = answers === undefined ? m.params : 'result' in msg ? m.result : undefined;
  if (def === undefined) return undefined; // an error response: the envelope check covers it
  const check = c.v.def(def);
  const value = answers === undefined ? msg.params : msg.result;
  return check(value) ? undefined : `${def} invalid: ${JSON.stringify(value)}: ${JSON.stringify(check.errors?.slice(0, 2))}`;
}

async function run(version: 1 | 2, rounds: number) {
  const c = corpus(version, 77 + version);
  const { agent, client } = setup(version);
  const problems: string[] = [];
  const sent: { msg: FakeJson; answers?: string }[] = [];
  const instance = (def: string): Obj => {
    c.stats.generated++;
    for (;;) {
      const x = c.gen.def(def);
      if (isObj(x) && c.v.def(def)(x)) return x;
      c.stats.rejected++;
    }
  };
  const def = (method: string, part: 'params' | 'result'): string => {
    const m = c.methods.find((x) => x.method === method);
    const name = part === 'params' ? m?.params : m?.result;
    if (!name) throw new Error(`no ${part} for ${method}`);
    return name;
  };

  /** Runs one client call; answers its request with a generated result (after `shape`), records what was sent. */
  async function call<T>(method: string, start: () => Promise<T>, shape: (r: Obj) => Obj = (r) => r): Promise<{ value?: T; result: Obj; error?: unknown }> {
    const p = start().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const req = await agent.next();
    sent.push({ msg: req });
    if (req.method !== method) throw new Error(`expected ${method}, got ${JSON.stringify(req)}`);
    const result = shape(instance(def(method, 'result')));
    agent.reply(req.id, result);
    return { ...(await p), result };
  }

  // initialize, with every optional capability on so each call below is allowed.
  const init = await call(
    'initialize',
    () => client.initialize(),
    (r) => {
      const caps: Obj =
        version === 1
          ? { agentCapabilities: { ...(isObj(r.agentCapabilities) ? r.agentCapabilities : {}), loadSession: true, sessionCapabilities: { list: {}, resume: {}, close: {} } } }
          : { capabilities: { session: {} } };
      return { ...r, protocolVersion: version, ...caps };
    },
  );
  if (init.error) throw init.error;
  const authMethods = init.result.authMethods;
  if (Array.isArray(authMethods) && client.authMethods.length !== authMethods.length)
    problems.push(`initialize: auth methods lost (${client.authMethods.length} of ${authMethods.length}): ${JSON.stringify(authMethods)}`);

  const mcpServers: never[] = [
    { name: 'files', command: '/usr/bin/mcp-files', args: [], env: [] },
    { type: 'http', name: 'web', url: 'https://example.test/mcp', headers: [] },
  ] as never[];
  for (let n = 0; n < rounds; n++) {
    const configCheck = (what: string, r: Obj, got: readonly unknown[] | undefined | null) => {
      if (Array.isArray(r.configOptions) && (got ?? []).length !== r.configOptions.length)
        problems.push(`${what}: config options lost (${(got ?? []).length} of ${r.configOptions.length})`);
    };
    const results = [
      await call('session/new', () => client.newSession({ cwd: '/ws', mcpServers })),
      version === 1 ? await call('session/load', () => client.loadSession({ sessionId: 's', cwd: '/ws', mcpServers })) : undefined,
      await call('session/resume', () => client.resumeSession({ sessionId: 's', cwd: '/ws', mcpServers })),
      await call('session/list', () => client.listSessions({})),
      await call('session/close', () => client.closeSession('s')),
      version === 1 ? await call('session/set_mode', () => client.setMode('s', 'ask')) : undefined,
      await call('session/set_config_option', () => client.setConfigOption('s', 'model', 'fast')),
      await call('session/set_config_option', () => client.setConfigOption('s', 'brave', true)),
      await call(version === 1 ? 'authenticate' : 'auth/login', () => client.authenticate('key')),
    ];
    for (const r of results) {
      if (!r) continue;
      if (r.error) problems.push(`a valid result was refused: ${String(r.error)}\n  ${JSON.stringify(r.result)}`);
      else if (isObj(r.value) && 'configOptions' in r.value) configCheck('result', r.result, r.value.configOptions as unknown[] | null);
    }
    const list = results[3];
    if (list?.value && Array.isArray(list.result.sessions) && (list.value as { sessions: unknown[] }).sessions.length !== list.result.sessions.length)
      problems.push('session/list: sessions lost');

    // A prompt: v1 ends with the response; v2 with the response (an ack) and an idle state_update.
    const prompt = client.prompt('s', [{ type: 'text', text: 'hi' }]).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const preq = await agent.next();
    sent.push({ msg: preq });
    agent.reply(preq.id, instance(def('session/prompt', 'result')));
    if (version === 2) agent.update('s', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
    const pr = await prompt;
    if ('error' in pr) problems.push(`prompt refused: ${String(pr.error)}`);
    client.cancel('s');
    sent.push({ msg: await agent.next() });

    // Agent->client requests of every kind this version has, answered by the client.
    for (const m of c.methods.filter((x) => x.from === 'agent->client' && x.kind === 'request')) {
      const id = version === 1 && n % 7 === 0 ? null : `a${n}-${m.method}`;
      const params = { ...instance(m.params), ...('sessionId' in instance(m.params) ? { sessionId: 's' } : {}) };
      agent.send({ id, method: m.method, params });
      // A sentinel request behind it: an unanswered request then shows as the sentinel's answer
      // arriving first, instead of as a hang (the handlers here all answer at once, in order).
      const sentinelId = `sentinel-${n}-${m.method}`;
      agent.send({ id: sentinelId, method: 'fs/unknown_method', params: {} });
      const answer = await agent.next();
      if (answer.id === sentinelId) {
        problems.push(`${m.method} with id ${JSON.stringify(id)} was never answered`);
        continue;
      }
      const sentinel = await agent.next();
      if (sentinel.id !== sentinelId) problems.push(`expected the sentinel answer, got ${JSON.stringify(sentinel)}`);
      sent.push({ msg: answer, answers: m.method });
      if (answer.id !== id) problems.push(`${m.method}: answered id ${JSON.stringify(answer.id)}, sent ${JSON.stringify(id)}`);
      const implemented = m.method !== 'elicitation/create';
      if (implemented && 'error' in answer) problems.push(`${m.method} answered with an error: ${JSON.stringify(answer.error)}\n  params ${JSON.stringify(params)}`);
    }
  }
  for (const s of sent) {
    const p = checkSent(c, s.msg, s.answers);
    if (p) problems.push(`client sent: ${p}`);
  }
  client.dispose();
  return { problems, sent: sent.length };
}

for (const version of [1, 2] as const) {
  describe(`AcpClient vs the v${version} schema`, () => {
    it('accepts every generated message and sends only schema-valid messages', async () => {
      const r = await run(version, 25);
      assert.ok(r.sent > (version === 1 ? 400 : 250), `only ${r.sent} client messages`);
      const byKind = new Map<string, string>();
      for (const p of r.problems) {
        const k = p.slice(0, 40);
        if (!byKind.has(k)) byKind.set(k, p);
      }
      assert.deepEqual([...byKind.values()].slice(0, 12), [], `${r.problems.length} problems in ${r.sent} client messages`);
    });
  });
}
