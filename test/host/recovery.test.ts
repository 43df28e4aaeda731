/**
 * Recovery through the real agent process: the demo agent told to crash (ACP_DEMO_FAULT) exits, and the
 * chat restarts it and reattaches the same session by itself, saying so; a prompt the agent died on before
 * taking it is offered back (Resend/Edit), never resent.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, until } from './util';
import type { AcpChatApi } from '../../src/vscode/api';
import type { ChatSession } from '../../src/vscode/chatSession';

const demoPath = () => path.join(vscode.extensions.getExtension('acp-chat.acp-chat')!.extensionPath, 'dist', 'demo-agent.js');

async function faultyChat(a: AcpChatApi, fault: string): Promise<{ id: string; session: ChatSession; done: () => Promise<void> }> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const before = config.inspect('agents')?.globalValue;
  const agentId = `demo-${fault}`;
  await config.update('agents', [{ id: agentId, name: `Demo (${fault})`, command: process.execPath, args: [demoPath()], env: { ELECTRON_RUN_AS_NODE: '1', ACP_DEMO_FAULT: fault } }], vscode.ConfigurationTarget.Global);
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

const notice = (s: ChatSession, key: string) => s.panelState().notices.find((n) => n.key === key);
const userTexts = (s: ChatSession) => s.entries().flatMap((e) => (e.kind === 'user_message' ? [e.content.map((b) => ('text' in b ? b.text : '')).join('')] : []));

suite('Recovery from agent crashes', () => {
  test('an agent that crashes mid-turn is restarted and the session reattached; the turn shows interrupted', async () => {
    const a = await api();
    const chat = await faultyChat(a, 'crash-mid-turn');
    try {
      await chat.session.start();
      const sid = chat.session.sessionId;
      assert.ok(sid);
      chat.session.prompt('hello before the crash');
      const n = await until(() => notice(chat.session, 'recovery'), 30_000, 'the restart notice');
      assert.match(n.title, /stopped unexpectedly and was restarted/);
      assert.match(n.description ?? '', /interrupted; it is not resumed/);
      await until(() => chat.session.turnState === 'idle', 30_000, `the chat back (turn ${chat.session.turnState}: ${chat.session.panelState().message ?? ''})`);
      assert.strictEqual(chat.session.sessionId, sid, 'the same session is reattached');
      assert.deepStrictEqual(userTexts(chat.session), ['hello before the crash'], 'nothing resent');
    } finally {
      await chat.done();
    }
  });

  test('a prompt the agent died on before taking it is offered back, not resent', async () => {
    const a = await api();
    const chat = await faultyChat(a, 'crash-on-prompt');
    try {
      await chat.session.start();
      chat.session.prompt('a prompt that never lands');
      const offer = await until(() => notice(chat.session, 'undelivered'), 30_000, 'the not-delivered offer');
      assert.deepStrictEqual(offer.actions?.map((x) => x.id), ['resend', 'edit']);
      assert.strictEqual(offer.fill, 'a prompt that never lands');
      await until(() => chat.session.turnState === 'idle', 30_000, 'the chat back');
      assert.deepStrictEqual(userTexts(chat.session), ['a prompt that never lands'], 'not resent by itself');
    } finally {
      await chat.done();
    }
  });
});
