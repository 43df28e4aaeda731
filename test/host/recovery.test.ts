/**
 * Recovery through the real agent process: the demo agent told to crash (ACP_DEMO_FAULT) exits, and the
 * chat restarts it and reattaches the same session by itself, saying so, and resends nothing. (Whether the
 * turn is called interrupted or its prompt offered back depends on whether the agent's last output was read
 * before its exit was seen: the unit tests (test/unit/session/recovery.test.ts) cover each case.)
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';
import type { ChatController } from '../../src/node/chat/chatController';

const demoPath = () => path.join(vscode.extensions.getExtension('acp-chat.acp-chat')!.extensionPath, 'dist', 'demo-agent.js');

async function faultyChat(a: AcpChatApi, fault: string): Promise<{ id: string; session: ChatController; done: () => Promise<void> }> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const before = config.inspect('agents')?.globalValue;
  const agentId = `demo-${fault}`;
  await config.update(
    'agents',
    [{ id: agentId, name: `Demo (${fault})`, command: process.execPath, args: [demoPath()], env: { ELECTRON_RUN_AS_NODE: '1', ACP_DEMO_FAULT: fault } }],
    vscode.ConfigurationTarget.Global,
  );
  const panel = await a.service.newChat(agentId, vscode.ViewColumn.One);
  await panel.whenReady();
  const id = panel.chatId;
  assert.ok(id);
  const session = a.service.chat(id);
  assert.ok(session);
  return {
    id,
    session,
    done: async () => {
      await a.service.deleteChat(id);
      await config.update('agents', before, vscode.ConfigurationTarget.Global);
    },
  };
}

const notice = (s: ChatController, key: string) => s.panelState().notices.find((n) => n.key === key);
const userTexts = (s: ChatController) => s.entries().flatMap((e) => (e.kind === 'user_message' ? [e.content.map((b) => ('text' in b ? b.text : '')).join('')] : []));

suite('Recovery from agent crashes', () => {
  test('an agent that crashes mid-turn is restarted and the session reattached; nothing is resent', async () => {
    const a = await api();
    const chat = await faultyChat(a, 'crash-mid-turn');
    try {
      await chat.session.start();
      const sid = chat.session.sessionId;
      assert.ok(sid);
      chat.session.prompt('hello before the crash');
      const n = await until(() => notice(chat.session, 'recovery'), 'the restart notice', 30_000);
      assert.match(n.title, /stopped unexpectedly and was restarted/);
      await until(() => chat.session.turnState === 'idle', `the chat back (turn ${chat.session.turnState}: ${chat.session.panelState().message ?? ''})`, 30_000);
      assert.strictEqual(chat.session.sessionId, sid, 'the same session is reattached');
      assert.deepStrictEqual(userTexts(chat.session), ['hello before the crash'], 'nothing resent');
    } finally {
      await chat.done();
    }
  });
});
