// A chat whose agent the settings do not name never runs another agent: it says the agent is not
// configured (the banner then offers Add Agent and the setting), and starts once the settings name it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import type { PanelDelta } from '../../../src/common/webview/panelDeltas';
import { dispatchWebviewMessage } from '../../../src/node/chat/webviewMessages';
import { inProcessDemoAgent, noUi, chatOptions } from './harness';
import { until } from '../../helpers/until.mjs';

test('a chat whose agent is not configured refuses to start, says which agent, and starts when the settings name it', async () => {
  const agent = inProcessDemoAgent();
  const changes: PanelDelta[] = [];
  const session = new ChatController(
    chatOptions({ agent: { id: 'claude', name: 'claude', command: '(not configured)', args: [], env: {} }, agentMissing: true, connect: agent.connect }),
  );
  session.onDidChange((c) => changes.push(...c));
  await session.start();
  assert.equal(session.turnState, 'error');
  assert.equal(agent.connections, 0, 'no agent was started, the demo agent least of all');
  const p = session.panelState();
  assert.equal(p.missingAgent, 'claude');
  assert.match(p.message ?? '', /Agent "claude" is not configured/);
  assert.match(p.message ?? '', /Add Agent/);
  // Restart cannot help: the refusal stands.
  await session.restart();
  assert.equal(agent.connections, 0);
  // Another agent being configured changes nothing.
  session.agentConfigured({ id: 'gemini', name: 'Gemini', command: 'gemini', args: [], env: {} });
  assert.equal(session.panelState().missingAgent, 'claude');
  assert.equal(agent.connections, 0);
  // The settings name it: the chat takes it, and starts.
  session.agentConfigured({ id: 'claude', name: 'Claude Code', command: 'claude-agent-acp', args: [], env: {} });
  await until(() => session.turnState === 'idle', 'the chat to start');
  assert.equal(agent.connections, 1);
  assert.equal(session.agent.name, 'Claude Code');
  const after = session.panelState();
  assert.deepEqual([after.missingAgent, after.agentName, after.message], [null, 'Claude Code', null]);
  assert.ok(changes.some((c) => c.type === 'panel' && c.fields.missingAgent === null && c.fields.agentName === 'Claude Code'));
  // Once configured, a later change of the settings does not swap the agent under a running chat.
  session.agentConfigured({ id: 'claude', name: 'Other', command: 'other', args: [], env: {} });
  assert.equal(session.agent.name, 'Claude Code');
  session.dispose();
});

test("the banner's Add Agent and Open Settings reach the UI", () => {
  const asked: string[] = [];
  const session = new ChatController(chatOptions({ agentMissing: true, connect: inProcessDemoAgent().connect }));
  const ui = { ...noUi, configureAgent: (how: 'add' | 'settings') => void asked.push(how) };
  dispatchWebviewMessage(session, ui, { type: 'configureAgent', how: 'add' }, () => undefined);
  dispatchWebviewMessage(session, ui, { type: 'configureAgent', how: 'settings' }, () => undefined);
  assert.deepEqual(asked, ['add', 'settings']);
  session.dispose();
});
