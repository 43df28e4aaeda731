import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it, test } from 'node:test';
import type { SessionNotification } from '../../src/common/protocol/requests';
import type { ClientHandlers } from '../../src/node/acp/handlers';
import { nodeWriteTextFile, policyPermission } from '../../src/node/acp/nodeHandlers';
import { DEMO_SENTENCE } from '../../src/node/demoAgent/content';
import { sendUpdate } from '../../src/node/demoAgent/send';
import { NodeTerminalHost } from '../../src/node/terminals';
import { createAcpConnection } from '../../src/node/transport/connection';
import { demoPair } from './helpers/demoPair';
import { until } from '../helpers/until.mjs';

const ws = mkdtempSync(path.join(tmpdir(), 'demo-agent-'));
writeFileSync(path.join(ws, 'notes.txt'), 'hello\n');
after(() => rmSync(ws, { recursive: true, force: true }));

/** The demo agent and our client, in one process, with every session update collected. */
function connect(handlers: Partial<ClientHandlers> = {}) {
  const { client, dispose } = demoPair({ client: { handlers: { requestPermission: policyPermission('all'), ...handlers } } });
  const updates: SessionNotification[] = [];
  client.onSessionUpdate((n) => updates.push(n));
  return { client, updates, dispose };
}

const textOf = (updates: SessionNotification[], kind: string, messageId?: string) =>
  updates
    .filter((u) => u.update.sessionUpdate === kind && (messageId === undefined || u.update.messageId === messageId))
    .map((u) => (u.update.content as { text?: string }).text ?? '')
    .join('');

describe('demo agent', () => {
  it('runs a full turn: thought, plan, markdown with the exact sentence, a read tool call, a second message', async () => {
    const c = connect();
    const init = await c.client.initialize();
    assert.equal(init.agentInfo?.name, 'acp-chat-demo');
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, audio: false, embeddedContext: true });
    const s = await c.client.newSession({ cwd: ws, mcpServers: [] });
    assert.equal(s.modes?.currentModeId, 'ask');
    assert.ok(s.configOptions?.some((o) => o.category === 'model'));
    const r = await c.client.prompt(s.sessionId, [{ type: 'text', text: 'hi there' }]);
    assert.equal(r.stopReason, 'end_turn');
    const kinds = new Set(c.updates.map((u) => u.update.sessionUpdate));
    for (const k of ['available_commands_update', 'agent_thought_chunk', 'plan', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'usage_update']) {
      assert.ok(kinds.has(k), `missing ${k}`);
    }
    const ids = new Set(c.updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk').map((u) => u.update.messageId));
    assert.deepEqual([...ids], ['msg-1-a', 'msg-1-b']);
    assert.ok(c.updates.filter((u) => u.update.sessionUpdate === 'agent_thought_chunk').every((u) => String(u.update.messageId).startsWith('th-')));
    const answer = textOf(c.updates, 'agent_message_chunk', 'msg-1-a');
    assert.ok(answer.includes(DEMO_SENTENCE));
    for (const needle of ['## ', '\n- ', '```ts', '| --- |']) assert.ok(answer.includes(needle), `answer lacks ${needle}`);
    // Streamed in small pieces.
    const sizes = c.updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk').map((u) => Array.from((u.update.content as { text: string }).text).length);
    assert.ok(Math.max(...sizes) <= 8);
    const read = c.updates.find((u) => u.update.sessionUpdate === 'tool_call');
    assert.equal(read?.update.kind, 'read');
    assert.deepEqual(read?.update.locations, [{ path: path.join(ws, 'notes.txt'), line: 1 }]);
    const statuses = c.updates.filter((u) => u.update.toolCallId === read?.update.toolCallId).map((u) => u.update.status);
    assert.deepEqual(statuses, ['pending', 'in_progress', 'completed']);
    c.dispose();
  });

  it('asks permission with all four kinds, writes the file on allow, and runs a terminal', async () => {
    const seenKinds: string[] = [];
    const c = connect({
      requestPermission: async (p) => {
        seenKinds.push(...p.options.map((o) => o.kind));
        return policyPermission('all')(p);
      },
      writeTextFile: (p) => nodeWriteTextFile(p),
      terminals: new NodeTerminalHost({ defaultCwd: ws }),
    });
    await c.client.initialize();
    const s = await c.client.newSession({ cwd: ws, mcpServers: [] });
    const r = await c.client.prompt(s.sessionId, [{ type: 'text', text: 'please edit a file and run a command' }]);
    assert.equal(r.stopReason, 'end_turn');
    assert.deepEqual(seenKinds.sort(), ['allow_always', 'allow_once', 'reject_always', 'reject_once']);
    assert.match(readFileSync(path.join(ws, 'demo-edit.txt'), 'utf8'), /Edited by the ACP Chat demo agent/);
    const edit = c.updates.find((u) => u.update.sessionUpdate === 'tool_call' && u.update.kind === 'edit');
    assert.equal((edit?.update.content as { type: string }[])[0]?.type, 'diff');
    const run = c.updates.filter((u) => String(u.update.toolCallId).endsWith('-run'));
    assert.equal(run.at(-1)?.update.status, 'completed');
    assert.match(JSON.stringify(run.at(-1)?.update.rawOutput), /Hello from the demo terminal/);
    c.dispose();
  });

  it('stops a turn on session/cancel with stopReason "cancelled" (pending permission answered)', async () => {
    const c = connect({ requestPermission: () => new Promise(() => undefined) });
    await c.client.initialize();
    const s = await c.client.newSession({ cwd: ws, mcpServers: [] });
    const turn = c.client.prompt(s.sessionId, [{ type: 'text', text: 'edit please' }]);
    await until(() => c.client.pendingPermissionCount(s.sessionId) > 0, 'the permission request');
    c.client.cancel(s.sessionId);
    assert.equal((await turn).stopReason, 'cancelled');
    c.dispose();
  });

  it('replays a session on session/load with the same messageIds, lists, resumes, switches mode and model, and closes', async () => {
    const c = connect();
    await c.client.initialize();
    const s = await c.client.newSession({ cwd: ws, mcpServers: [] });
    await c.client.prompt(s.sessionId, [{ type: 'text', text: 'first' }]);
    const liveIds = [...new Set(c.updates.map((u) => u.update.messageId).filter(Boolean))];
    c.updates.length = 0;
    await c.client.loadSession({ sessionId: s.sessionId, cwd: ws, mcpServers: [] });
    const replayIds = [...new Set(c.updates.map((u) => u.update.messageId).filter(Boolean))];
    assert.deepEqual(replayIds, ['user-1', ...liveIds]);
    assert.equal(textOf(c.updates, 'user_message_chunk'), 'first');
    const list = await c.client.listSessions({ cwd: ws });
    assert.deepEqual(
      list.sessions.map((x) => x.sessionId),
      [s.sessionId],
    );
    assert.equal(list.sessions[0]?.title, 'first');
    const resumed = await c.client.resumeSession({ sessionId: s.sessionId, cwd: ws });
    assert.equal(resumed.modes?.currentModeId, 'ask');
    await c.client.setMode(s.sessionId, 'code');
    const cfg = await c.client.setConfigOption(s.sessionId, 'model', 'demo-smart');
    assert.equal(cfg.configOptions.find((o) => o.id === 'model')?.currentValue, 'demo-smart');
    assert.equal(cfg.configOptions.find((o) => o.id === 'mode')?.currentValue, 'code');
    await c.client.closeSession(s.sessionId);
    await assert.rejects(c.client.loadSession({ sessionId: s.sessionId, cwd: ws, mcpServers: [] }), /-32002/);
    // A restarted demo agent has no memory; resume adopts the id so the client can reattach.
    const adopted = await c.client.resumeSession({ sessionId: 'from-before-restart', cwd: ws });
    assert.equal(adopted.modes?.currentModeId, 'ask');
    assert.deepEqual(
      (await c.client.listSessions({ cwd: ws })).sessions.map((x) => x.sessionId),
      ['from-before-restart'],
    );
    c.dispose();
  });
});

test('an update sent after the client hung up is dropped, not thrown from a timer', () => {
  const acp = createAcpConnection({ input: new PassThrough(), output: new PassThrough() });
  acp.connection.listen();
  acp.connection.dispose();
  assert.throws(() => void acp.connection.sendNotification('session/update', {}), /disposed/i, 'vscode-jsonrpc throws synchronously');
  assert.doesNotThrow(() => sendUpdate(acp, 's', { sessionUpdate: 'available_commands_update', availableCommands: [] }));
});
