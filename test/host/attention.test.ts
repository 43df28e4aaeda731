/**
 * Calling the user back: a chat whose turn ends while it is not in view gets a dot before its tab title
 * and a badge on the ACP Messages view (it counts the chats waiting; so does the activity bar); looking at
 * the chat clears both. `acpChat.notifyWhenUnseen` off: no dot, no badge.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import { UNSEEN_MARK } from '../../src/vscode/chats/chatAttention';

suite('Attention', () => {
  test('a turn that ends in a chat out of view marks its tab and badges the views until it is seen', async () => {
    const a = await api();
    // The test hosts turn it off (no notifications over other tests); on here.
    const config = vscode.workspace.getConfiguration('acpChat');
    const before = config.inspect('notifyWhenUnseen')?.globalValue;
    await config.update('notifyWhenUnseen', true, vscode.ConfigurationTarget.Global);
    const one = await a.service.newChat('demo', vscode.ViewColumn.One);
    await one.whenReady();
    const id = one.chatId;
    assert.ok(id);
    const session = a.service.chat(id);
    assert.ok(session);
    await session.start();
    // Another chat in the same column hides the first one.
    const two = await a.service.newChat('demo', vscode.ViewColumn.One);
    await two.whenReady();
    await until(() => !one.panel.visible, 'the first chat out of view', 10_000);
    try {
      session.prompt('hello while nobody looks');
      await session.whenIdle();
      await until(() => one.panel.title.startsWith(UNSEEN_MARK), `the dot on the tab (title: ${one.panel.title})`, 10_000);
      const badge = await until(() => a.service.treeView.badge, 'the badge on the Messages view', 10_000);
      assert.strictEqual(badge.value, 1);
      assert.match(badge.tooltip, /^1 chat you have not seen yet$/, 'not "waiting for you": most are turns that simply finished');

      // The side bar's chat view shows another chat: its badge is that chat's (none).
      assert.strictEqual(a.service.sideBar.badge, undefined);

      // Looking at the chat clears the dot and the badges.
      one.panel.reveal(vscode.ViewColumn.One);
      await until(() => !one.panel.title.startsWith(UNSEEN_MARK), 'the dot gone once seen', 10_000);
      await until(() => a.service.treeView.badge === undefined, 'the Messages badge gone', 10_000);

      // Turned off: nothing marks the chat.
      await config.update('notifyWhenUnseen', false, vscode.ConfigurationTarget.Global);
      two.panel.reveal(vscode.ViewColumn.One);
      await until(() => !one.panel.visible, 'the first chat out of view again', 10_000);
      session.prompt('and once more');
      await session.whenIdle();
      assert.ok(!one.panel.title.startsWith(UNSEEN_MARK));
      assert.strictEqual(a.service.treeView.badge, undefined);
    } finally {
      await config.update('notifyWhenUnseen', before, vscode.ConfigurationTarget.Global);
      await a.service.deleteChat(two.chatId!);
      await a.service.deleteChat(id);
    }
  });
});
