// ACP v2 (draft) end to end through a ChatController: the negotiated version drives the store. A v2 agent
// acknowledges the prompt with the user message's id, echoes it as a `user_message` upsert, streams and
// then patches its answer (meta, then a redaction), upserts a tool call with content chunks, and ends the
// turn with an idle `state_update`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ChatController } from '../../../src/node/chat/chatController';
import { parseSettings } from '../../../src/common/config/settings';
import { AgentMethods, ClientMethods } from '../../../src/common/protocol/methods';
import { onAcpRequest, type AcpConnection } from '../../../src/node/transport/connection';
import { inProcessDemoAgent, chatOptions } from './harness';

function v2Agent(acp: AcpConnection): void {
  const update = (u: Record<string, unknown>) => acp.connection.sendNotification(ClientMethods.sessionUpdate, { sessionId: 'v2s', update: u });
  onAcpRequest(acp, AgentMethods.initialize, z.unknown(), () => ({ protocolVersion: 2, info: { name: 'v2-agent', version: '0' }, capabilities: { session: { prompt: {} } } }));
  onAcpRequest(acp, AgentMethods.sessionNew, z.unknown(), () => ({ sessionId: 'v2s' }));
  onAcpRequest(acp, AgentMethods.sessionPrompt, z.object({ prompt: z.array(z.object({ type: z.string(), text: z.string() }).loose()) }).loose(), (p) => {
    setTimeout(async () => {
      await update({ sessionUpdate: 'state_update', state: 'running' });
      await update({ sessionUpdate: 'user_message', messageId: 'u-1', content: p.prompt });
      await update({ sessionUpdate: 'agent_message_chunk', messageId: 'a-1', content: { type: 'text', text: 'Hel' } });
      await update({ sessionUpdate: 'agent_message_chunk', messageId: 'a-1', content: { type: 'text', text: 'lo secret' } });
      await update({ sessionUpdate: 'agent_message', messageId: 'a-1', _meta: { reviewed: true } });
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Look around', kind: 'read', status: 'in_progress' });
      await update({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't1', content: { type: 'content', content: { type: 'text', text: 'found it' } } });
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', rawOutput: null });
      await update({ sessionUpdate: 'agent_message', messageId: 'a-1', content: [{ type: 'text', text: 'Hello [redacted]' }] });
      await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
    }, 5);
    return { messageId: 'u-1' };
  });
}

test('a v2 turn: prompt ack, user_message echo, upserts and redaction, idle state ends the turn', async () => {
  const agent = inProcessDemoAgent(v2Agent);
  const settings = parseSettings((k) => (k === 'protocolVersion' ? 2 : undefined)).settings;
  const session = new ChatController(chatOptions({ agent: { id: 'v2', name: 'V2', command: 'x', args: [], env: {} }, connect: agent.connect, settings: () => settings }));
  await session.start();
  assert.equal(session.door.facts()?.protocolVersion, 2);
  session.prompt('Find the thing');
  await session.whenIdle();
  const s = session.current();
  assert.ok(s);
  assert.equal(s.protocolVersion, 2, 'the negotiated version drives the store');
  const users = s.entries.filter((e) => e.kind === 'user_message');
  assert.equal(users.length, 1, 'the echo merged into the local prompt');
  assert.equal(users[0]?.kind === 'user_message' && users[0].messageId, 'u-1', 'it took the agent id');
  const answer = s.entries.find((e) => e.kind === 'agent_message');
  assert.ok(answer && answer.kind === 'agent_message');
  assert.deepEqual(answer.content, [{ type: 'text', text: 'Hello [redacted]' }], 'the whole-message update replaced the streamed text');
  assert.deepEqual(answer.meta, { reviewed: true }, 'a content-less upsert patched only _meta');
  assert.equal(answer.stats.upserts, 2);
  const tool = s.entries.find((e) => e.kind === 'tool_call');
  assert.ok(tool && tool.kind === 'tool_call');
  assert.equal(tool.status, 'completed');
  assert.equal(tool.rawOutput, null);
  assert.deepEqual(tool.content, [{ type: 'content', content: { type: 'text', text: 'found it' } }]);
  assert.equal(session.turnState, 'idle');
  session.dispose();
});

test('v2 agent-owned terminals stream into the tool card terminal view like v1 terminals', async () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const agent = inProcessDemoAgent((acp: AcpConnection) => {
    const update = (u: Record<string, unknown>) => acp.connection.sendNotification(ClientMethods.sessionUpdate, { sessionId: 'v2s', update: u });
    onAcpRequest(acp, AgentMethods.initialize, z.unknown(), () => ({ protocolVersion: 2, info: { name: 'v2-agent', version: '0' }, capabilities: { session: { prompt: {} } } }));
    onAcpRequest(acp, AgentMethods.sessionNew, z.unknown(), () => ({ sessionId: 'v2s' }));
    onAcpRequest(acp, AgentMethods.sessionPrompt, z.unknown(), () => {
      setTimeout(async () => {
        await update({ sessionUpdate: 'state_update', state: 'running' });
        await update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 't1',
          title: 'Run',
          kind: 'execute',
          status: 'in_progress',
          content: [{ type: 'terminal', terminalId: 'term-1' }],
        });
        await update({ sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'make', cwd: '/w' });
        await update({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64('building\n') });
        await update({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: b64('done\n') });
        await update({ sessionUpdate: 'terminal_update', terminalId: 'term-1', exitStatus: { exitCode: 0, signal: null } });
        // Another session's terminal must not land in this panel.
        await acp.connection.sendNotification(ClientMethods.sessionUpdate, {
          sessionId: 'other',
          update: { sessionUpdate: 'terminal_output_chunk', terminalId: 'term-9', data: b64('x') },
        });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
        await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
      }, 5);
      return { messageId: 'u-1' };
    });
  });
  const settings = parseSettings((k) => (k === 'protocolVersion' ? 2 : undefined)).settings;
  const session = new ChatController(chatOptions({ agent: { id: 'v2', name: 'V2', command: 'x', args: [], env: {} }, connect: agent.connect, settings: () => settings }));
  const terminalOps: unknown[] = [];
  session.onDidChange((cs) => terminalOps.push(...cs.filter((c) => c.type === 'terminal')));
  await session.start();
  session.prompt('build');
  await session.whenIdle();
  const tool = session.current()?.entries.find((e) => e.kind === 'tool_call');
  assert.ok(tool && tool.kind === 'tool_call');
  assert.deepEqual(tool.content, [{ type: 'terminal', terminalId: 'term-1' }], 'the tool call keeps its terminal reference');
  assert.deepEqual(session.panelState().terminals, { 'term-1': { output: 'building\ndone\n', exited: true, exitCode: 0, signal: null, owner: 'agent' } });
  assert.deepEqual(
    terminalOps,
    [
      { type: 'terminal', sessionId: 'v2s', terminalId: 'term-1', append: '' },
      { type: 'terminal', sessionId: 'v2s', terminalId: 'term-1', append: 'building\n' },
      { type: 'terminal', sessionId: 'v2s', terminalId: 'term-1', append: 'done\n' },
      { type: 'terminal', sessionId: 'v2s', terminalId: 'term-1', append: '', exit: { exitCode: 0, signal: null } },
    ],
    'streamed as it arrived, not once at the end',
  );
  session.dispose();
});
