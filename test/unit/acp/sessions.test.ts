// Reattach falls back from resume to load; listing follows cursors; opening picks resume or load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { AcpClient } from '../../../src/node/acp/client';
import { listAllSessions, openSession, reattachSession } from '../../../src/node/acp/sessions';
import { createAcpConnection, onAcpRequest, rpcError } from '../../../src/node/transport/connection';
import { AgentMethods, ErrorCodes } from '../../../src/common/protocol/methods';

function pair(caps: Record<string, unknown>, calls: string[]) {
  const toAgent = new PassThrough();
  const toClient = new PassThrough();
  const agent = createAcpConnection({ input: toAgent, output: toClient });
  onAcpRequest(agent, AgentMethods.initialize, z.unknown(), () => ({ protocolVersion: 1, agentCapabilities: caps }));
  onAcpRequest(agent, AgentMethods.sessionResume, z.unknown(), () => {
    calls.push('resume');
    throw rpcError(ErrorCodes.resourceNotFound, 'no such session');
  });
  onAcpRequest(agent, AgentMethods.sessionLoad, z.unknown(), () => {
    calls.push('load');
    return {};
  });
  onAcpRequest(agent, AgentMethods.sessionList, z.object({ cursor: z.string().optional() }).loose(), (p) => {
    calls.push(`list ${p.cursor ?? '-'}`);
    return p.cursor ? { sessions: [{ sessionId: 'b', cwd: '/' }] } : { sessions: [{ sessionId: 'a', cwd: '/' }], nextCursor: 'c1' };
  });
  agent.connection.listen();
  const client = new AcpClient({
    input: toClient,
    output: toAgent,
    handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    clientInfo: { name: 't', version: '0' },
  });
  return { client, dispose: () => (client.dispose(), agent.connection.dispose()) };
}

const params = { cwd: '/ws', mcpServers: [] };

test('reattach tries resume, then load, and reports why resume failed', async () => {
  const calls: string[] = [];
  const { client, dispose } = pair({ loadSession: true, sessionCapabilities: { resume: {}, list: {} } }, calls);
  await client.initialize();
  const logs: string[] = [];
  assert.equal(await reattachSession(client, 's1', params, (m) => logs.push(m)), 'loaded');
  assert.deepEqual(calls, ['resume', 'load']);
  assert.match(logs.join('\n'), /session\/resume of s1 failed: .*no such session/, logs.join('\n'));
  dispose();
});

test('without a local transcript, reattach loads first (the history is replayed into the new chat)', async () => {
  const calls: string[] = [];
  const { client, dispose } = pair({ loadSession: true, sessionCapabilities: { resume: {}, list: {} } }, calls);
  await client.initialize();
  assert.equal(await reattachSession(client, 's1', params, () => undefined, undefined, false), 'loaded');
  assert.deepEqual(calls, ['load']);
  dispose();
});

test('reattach gives up (null) when the agent advertises neither', async () => {
  const calls: string[] = [];
  const { client, dispose } = pair({}, calls);
  await client.initialize();
  assert.equal(await reattachSession(client, 's1', params, () => undefined), null);
  assert.deepEqual(calls, []);
  await assert.rejects(openSession(client, 's1', params, false), /neither load nor resume/);
  dispose();
});

test('opening a session we have a transcript of resumes; without one it loads; listing follows cursors', async () => {
  const calls: string[] = [];
  const { client, dispose } = pair({ loadSession: true, sessionCapabilities: { resume: {}, list: {} } }, calls);
  await client.initialize();
  await openSession(client, 's2', params, false);
  assert.deepEqual(calls, ['load']);
  await assert.rejects(openSession(client, 's2', params, true), /no such session/);
  assert.deepEqual(
    (await listAllSessions(client, '/ws')).map((s) => s.sessionId),
    ['a', 'b'],
  );
  assert.deepEqual(calls.slice(-2), ['list -', 'list c1']);
  dispose();
});
