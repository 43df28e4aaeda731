import { entryIdentity } from '../../../src/common/debug/treeModel';
// Session operations beyond the stable set (session/fork, set_title, archive/unarchive, delete, logout) and
// terminal-type authentication: the client's typed methods and capability gating, against the real demo
// agent in-process (v1 and the v2 draft, with and without the operations advertised), the store's view of
// a fork, and every request the client sends checked against the official unstable schema.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Message } from 'vscode-jsonrpc';
import { MessageStore } from '../../../src/common/store';
import { asTerminalAuthMethod, isRunnableAuthMethod, supportsOperation, zTerminalAuthMethod, type TerminalAuthMethod } from '../../../src/common/protocol/sessionOps';
import type { Direction } from '../../../src/node/acp/client';
import { AcpProtocolError, AcpRequestError } from '../../../src/node/acp/errors';
import type { DemoAgentOptions } from '../../../src/node/demoAgent/options';
import { runLogin } from '../../../src/node/demoAgent/auth';
import { demoPair } from '../helpers/demoPair';

const ws = mkdtempSync(path.join(tmpdir(), 'session-ops-'));
after(() => rmSync(ws, { recursive: true, force: true }));

/** The official unstable schemas as the SDK publishes them (identical to ../shared/acp/schema; the operations are not in the stable ones yet). */
function unstableSchema(version: 1 | 2) {
  const file = require.resolve(`@agentclientprotocol/sdk/schema/v${version}/schema.unstable.json`);
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { $defs: Record<string, { 'x-method'?: string; 'x-side'?: string }> };
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  ajv.addSchema(schema, 'acp');
  /** The request schema of `method` (a definition marked with it whose name ends in Request). */
  return (method: string) => {
    const name = Object.entries(schema.$defs).find(([n, d]) => d['x-method'] === method && d['x-side'] === 'agent' && n.endsWith('Request'))?.[0];
    assert.ok(name, `no request schema for ${method}`);
    const v = ajv.getSchema(`acp#/$defs/${name}`);
    assert.ok(v);
    return v;
  };
}

/** The requests among sent messages. */
function requests(sent: readonly Message[]): { method: string; params: unknown }[] {
  return sent.flatMap((m) => {
    const r = m as { method?: unknown; id?: unknown; params?: unknown };
    return typeof r.method === 'string' && r.id !== undefined ? [{ method: r.method, params: r.params }] : [];
  });
}

function connect(o: { version?: 1 | 2; agent?: DemoAgentOptions; terminalAuth?: boolean } = {}) {
  const store = new MessageStore();
  const sent: Message[] = [];
  const { client, dispose } = demoPair({
    ...(o.agent ? { agent: o.agent } : {}),
    client: {
      protocolVersion: o.version ?? 1,
      ...(o.terminalAuth ? { terminalAuth: true } : {}),
      tap: (dir: Direction, msg: Message) => {
        if (dir === 'client->agent') sent.push(msg);
        store.ingest(dir, msg);
      },
    },
  });
  const methodsSent = () => sent.flatMap((m) => ('method' in m ? [m.method] : []));
  return { client, store, sent, methodsSent, dispose };
}

describe('session operations', () => {
  it('v1: parses the advertised operations, forks with the shared history, retitles, archives, deletes, logs out', async () => {
    const c = connect();
    const init = await c.client.initialize();
    for (const op of ['fork', 'title', 'archive', 'close', 'delete', 'list', 'logout'] as const) assert.equal(supportsOperation(init.agentCapabilities, op), true, op);
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    await c.client.prompt(sessionId, [{ type: 'text', text: 'first question' }]);
    const source = c.store.session(sessionId);
    assert.ok(source && source.entries.length > 3);

    const fork = await c.client.forkSession({ sessionId, cwd: ws, mcpServers: [] });
    assert.notEqual(fork.sessionId, sessionId);
    assert.equal(fork.modes?.currentModeId, 'ask', 'the fork answers like session/new');
    // The store shows the shared history in the fork: the same entries, new keys, provenance "fork".
    const forked = c.store.session(fork.sessionId);
    assert.ok(forked);
    const forkedCount = forked.entries.length;
    assert.deepEqual(
      forked.entries.map((e) => e.kind),
      source.entries.map((e) => e.kind),
    );
    assert.deepEqual(forked.entries.map(entryIdentity), source.entries.map(entryIdentity));
    assert.ok(forked.entries.every((e) => e.provenance === 'fork'));
    const sourceKeys = new Set(source.entries.map((e) => e.key));
    assert.ok(
      forked.entries.every((e) => !sourceKeys.has(e.key)),
      'keys are never shared between sessions',
    );
    const forkedKeys = new Set(forked.entries.map((e) => e.key));
    for (const e of forked.entries) if (e.kind === 'tool_call' && e.parentKey !== null) assert.ok(forkedKeys.has(e.parentKey), 'a tool call points at its message in the fork');
    // The two sessions go on separately: a turn in the fork adds nothing to the source.
    const before = c.store.session(sessionId)?.entries.length;
    await c.client.prompt(fork.sessionId, [{ type: 'text', text: 'only in the fork' }]);
    assert.equal(c.store.session(sessionId)?.entries.length, before);
    assert.ok((c.store.session(fork.sessionId)?.entries.length ?? 0) > forkedCount);

    const titled = await c.client.setSessionTitle(fork.sessionId, '  My   fork  ');
    assert.equal(titled.title, 'My fork', 'the agent normalised it');
    assert.equal(c.store.session(fork.sessionId)?.title, 'My fork', 'the store takes the title the agent stored');
    await assert.rejects(c.client.setSessionTitle(fork.sessionId, '   '), (e: unknown) => e instanceof AcpRequestError && e.code === -32602);

    await c.client.archiveSession(fork.sessionId);
    const listed = async (archived?: string) => (await c.client.listSessions({ cwd: ws, ...(archived ? { archived } : {}) })).sessions.map((s) => s.sessionId);
    assert.deepEqual(await listed(), [sessionId], 'archived sessions leave the default list');
    assert.deepEqual(await listed('only'), [fork.sessionId]);
    await c.client.archiveSession(fork.sessionId, false);
    assert.deepEqual((await listed()).sort(), [sessionId, fork.sessionId].sort());

    await c.client.deleteSession(fork.sessionId);
    assert.deepEqual(await listed('include'), [sessionId]);
    await c.client.logout();

    // Every request sent validates against the official unstable v1 schema.
    const requestSchema = unstableSchema(1);
    for (const m of requests(c.sent)) {
      if (!['session/fork', 'session/set_title', 'session/archive', 'session/unarchive', 'session/delete', 'logout', 'session/list'].includes(m.method)) continue;
      const v = requestSchema(m.method);
      assert.ok(v(m.params), `${m.method} params ${JSON.stringify(m.params)}: ${JSON.stringify(v.errors)}`);
    }
    c.dispose();
  });

  it('an agent that does not advertise them: the client refuses before sending, and the agent would not answer', async () => {
    const c = connect({ agent: { sessionOps: false } });
    const init = await c.client.initialize();
    for (const op of ['fork', 'title', 'archive', 'delete', 'logout'] as const) assert.equal(supportsOperation(init.agentCapabilities, op), false, op);
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    const refused = (e: unknown) => e instanceof AcpProtocolError && /did not advertise/.test(e.message);
    await assert.rejects(c.client.forkSession({ sessionId, cwd: ws }), refused);
    await assert.rejects(c.client.setSessionTitle(sessionId, 'x'), refused);
    await assert.rejects(c.client.archiveSession(sessionId), refused);
    await assert.rejects(c.client.archiveSession(sessionId, false), refused);
    await assert.rejects(c.client.deleteSession(sessionId), refused);
    await assert.rejects(c.client.logout(), refused);
    assert.deepEqual(c.methodsSent(), ['initialize', 'session/new'], 'nothing unadvertised went out');
    await assert.rejects(c.client.probe('session/fork', { sessionId, cwd: ws }), (e: unknown) => e instanceof AcpRequestError && e.code === -32601);
    c.dispose();
  });

  it('v2 draft: the operations come from capabilities.session; logout is auth/logout', async () => {
    const authFile = path.join(ws, 'v2-cred');
    const c = connect({ version: 2, agent: { authFile }, terminalAuth: true });
    const init = await c.client.initialize();
    assert.equal(init.protocolVersion, 2);
    for (const op of ['fork', 'title', 'archive', 'delete', 'logout'] as const) assert.equal(supportsOperation(init.agentCapabilities, op), true, op);
    assert.deepEqual(
      c.client.authMethods.map((m) => [m.id, m.type ?? 'agent']),
      [
        ['demo-login', 'terminal'],
        ['demo-token', 'agent'],
      ],
      'v2 names the id methodId; read as id',
    );
    await c.client.authenticate('demo-token');
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    const fork = await c.client.forkSession({ sessionId, cwd: ws, mcpServers: [] });
    assert.notEqual(fork.sessionId, sessionId);
    assert.equal((await c.client.setSessionTitle(fork.sessionId, 'v2 fork')).title, 'v2 fork');
    await c.client.archiveSession(fork.sessionId);
    await c.client.deleteSession(fork.sessionId);
    await c.client.logout();
    assert.equal(existsSync(authFile), false, 'auth/logout signed out');
    assert.ok(c.methodsSent().includes('auth/logout') && !c.methodsSent().includes('logout'));
    const requestSchema = unstableSchema(2);
    for (const m of requests(c.sent)) {
      if (!['initialize', 'session/fork', 'session/set_title', 'session/archive', 'session/delete', 'auth/logout'].includes(m.method)) continue;
      const v = requestSchema(m.method);
      assert.ok(v(m.params), `${m.method} params ${JSON.stringify(m.params)}: ${JSON.stringify(v.errors)}`);
    }
    c.dispose();
  });
});

describe('terminal authentication', () => {
  it('offers the terminal method only to a client that advertises auth.terminal', async () => {
    const authFile = path.join(ws, 'offer-cred');
    const without = connect({ agent: { authFile } });
    await without.client.initialize();
    assert.deepEqual(
      without.client.authMethods.map((m) => m.id),
      ['demo-token'],
    );
    without.dispose();
    const withTerminal = connect({ agent: { authFile }, terminalAuth: true });
    await withTerminal.client.initialize();
    const init = withTerminal.sent[0];
    assert.ok(init && 'params' in init);
    assert.deepEqual((init.params as { clientCapabilities: unknown }).clientCapabilities, {
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      auth: { terminal: true },
      plan: {},
    });
    const terminal = withTerminal.client.authMethods.map(asTerminalAuthMethod).find((m) => m !== undefined);
    assert.deepEqual(terminal && { id: terminal.id, args: terminal.args, env: terminal.env }, { id: 'demo-login', args: ['--login'], env: { ACP_DEMO_LOGIN: '1' } });
    withTerminal.dispose();
  });

  it('auth_required → the chosen terminal method runs (never sent to authenticate) → the call is retried', async () => {
    const authFile = path.join(ws, 'terminal-cred');
    const c = connect({ agent: { authFile }, terminalAuth: true });
    await c.client.initialize();
    await assert.rejects(c.client.newSession({ cwd: ws, mcpServers: [] }), (e: unknown) => e instanceof AcpRequestError && e.code === -32000);
    const ran: TerminalAuthMethod[] = [];
    const out = new PassThrough();
    const r = await c.client.withAuthRetry(
      () => c.client.newSession({ cwd: ws, mcpServers: [] }),
      async (methods) => methods.find((m) => m.type === 'terminal')?.id,
      async (m) => {
        ran.push(m);
        // What the terminal would run: the demo agent's sign-in (here in-process, answering for the user).
        const input = new PassThrough();
        input.end('yes\n');
        return (await runLogin(authFile, false, input, out)) === 0;
      },
    );
    assert.ok(r.sessionId);
    assert.equal(ran.length, 1);
    assert.ok(existsSync(authFile));
    assert.ok(!c.methodsSent().includes('authenticate'), 'a terminal method is never passed to authenticate');
    assert.deepEqual(c.methodsSent().filter((m) => m === 'session/new').length, 3, 'failed, failed, then retried once after the terminal');
    // Logout signs out: the next session needs signing in again.
    await c.client.logout();
    await assert.rejects(c.client.newSession({ cwd: ws, mcpServers: [] }), (e: unknown) => e instanceof AcpRequestError && e.code === -32000);
    c.dispose();
  });

  it('a terminal sign-in that fails (or is declined) gives up with the auth_required error; the agent method authenticates', async () => {
    const authFile = path.join(ws, 'fail-cred');
    const c = connect({ agent: { authFile }, terminalAuth: true });
    await c.client.initialize();
    const declined = new PassThrough();
    declined.end('no\n');
    const out = new PassThrough();
    await assert.rejects(
      c.client.withAuthRetry(
        () => c.client.newSession({ cwd: ws, mcpServers: [] }),
        async () => 'demo-login',
        async () => (await runLogin(authFile, false, declined, out)) === 0,
      ),
      (e: unknown) => e instanceof AcpRequestError && e.code === -32000,
    );
    await assert.rejects(
      c.client.withAuthRetry(
        () => c.client.newSession({ cwd: ws, mcpServers: [] }),
        async () => 'demo-login',
      ),
      (e: unknown) => e instanceof AcpRequestError && e.code === -32000,
      'no terminal runner: nothing to retry with',
    );
    const r = await c.client.withAuthRetry(
      () => c.client.newSession({ cwd: ws, mcpServers: [] }),
      async () => 'demo-token',
    );
    assert.ok(r.sessionId);
    assert.deepEqual(c.methodsSent().filter((m) => m === 'authenticate').length, 1);
    c.dispose();
  });

  it('parses terminal methods as the schema says: null args/env mean none; malformed ones are not runnable', () => {
    assert.deepEqual(zTerminalAuthMethod.parse({ type: 'terminal', id: 't', name: 'T', args: null, env: null }), { type: 'terminal', id: 't', name: 'T', args: [], env: {} });
    assert.equal(asTerminalAuthMethod({ type: 'terminal', id: 't', name: 'T', args: 'rm -rf /' }), undefined);
    assert.equal(asTerminalAuthMethod({ type: 'terminal', id: 't', name: 'T', env: { A: 1 } }), undefined);
    assert.equal(isRunnableAuthMethod({ type: 'terminal', id: 't', name: 'T', args: [1] }), false);
    assert.equal(isRunnableAuthMethod({ id: 'a', name: 'A' }), true);
    assert.equal(isRunnableAuthMethod({ type: 'env_var', id: 'e', name: 'E' }), false);
  });
});
