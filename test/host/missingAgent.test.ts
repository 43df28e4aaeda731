/**
 * A chat whose agent the settings no longer name (reopened after the entry was removed) says so and
 * waits; it starts on its own once the settings name its agent again, with no reload.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';

suite('A chat whose agent is missing', () => {
  const config = () => vscode.workspace.getConfiguration('acpChat');
  let before: unknown;
  suiteSetup(() => {
    before = config().inspect('agents')?.globalValue;
  });
  suiteTeardown(async () => {
    await config().update('agents', before, vscode.ConfigurationTarget.Global);
  });

  /** A demo agent added to the settings as `id`, and a new chat of it, started. */
  async function chatOfAddedAgent(id: string, name: string) {
    const a = await api();
    const ext = vscode.extensions.getExtension('acp-chat.acp-chat');
    assert.ok(ext);
    const agent = { id, name, command: process.execPath, args: [path.join(ext.extensionPath, 'dist', 'demo-agent.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
    const others: unknown[] = Array.isArray(before) ? before : [];
    await config().update('agents', [...others, agent], vscode.ConfigurationTarget.Global);
    const first = await a.service.openChat({ agentId: id, newChat: true });
    const chatId = first.chatId;
    assert.ok(chatId);
    await until(() => a.service.chat(chatId)?.turnState === 'idle', 'the chat started with its agent', 30_000);
    return { a, agent, others, first, chatId };
  }

  test('waits for the settings to name its agent, then starts', async () => {
    const { a, agent: later, others, first, chatId } = await chatOfAddedAgent('later', 'Later Agent');

    // Closed (its session stops), the entry removed, then reopened: the chat has no agent to run.
    first.panel.dispose();
    await until(() => a.service.chat(chatId) === undefined, 'the closed chat stopped', 10_000);
    await config().update('agents', others, vscode.ConfigurationTarget.Global);
    const reopened = await a.service.openChat({ chatId });
    const session = a.service.chat(chatId);
    assert.ok(session);
    await until(() => session.panelState().missingAgent === 'later', 'the chat says its agent is missing', 10_000);
    assert.notStrictEqual(session.turnState, 'idle');

    await config().update('agents', [...others, later], vscode.ConfigurationTarget.Global);
    await until(() => session.turnState === 'idle' && session.panelState().missingAgent === null, 'the chat started once the settings named its agent', 30_000);
    assert.strictEqual(session.agent.name, 'Later Agent');
    reopened.panel.dispose();
  });

  test("New Chat after the focused chat's agent was removed starts the default agent", async () => {
    const { a, others, chatId } = await chatOfAddedAgent('gone', 'Gone Agent');
    await config().update('agents', others, vscode.ConfigurationTarget.Global);
    await a.service.deleteChat(chatId);
    // The deleted chat was the last focused one, so "gone" was the picked agent; it must not be used.
    const next = await a.service.newChat();
    await next.whenReady();
    const nextId = next.chatId;
    assert.ok(nextId);
    assert.strictEqual(a.service.chat(nextId)?.agent.id, a.service.settings.defaultAgent);
    await a.service.deleteChat(nextId);
  });
});
