/**
 * Issue 38 items 3 and 7 in the extension host. A chat another window has (its lock names another live
 * window): opening it is refused in plain words; it opens read-only as a copy of what is saved; Take Over
 * asks the other window (a `<id>.handoff` file) and shows the chat once it let go. The other way round, a
 * window asked for a chat it has closes its tab and lets go. Select Agent in a chat nobody wrote in
 * replaces that chat instead of leaving it behind.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';

const demoPath = () => path.join(vscode.extensions.getExtension('acp-chat.acp-chat')!.extensionPath, 'dist', 'demo-agent.js');
/** The other window: this process (alive) with another token, as a second window's extension host would be. */
const other = () => JSON.stringify({ pid: process.pid, token: 'the-other-window', since: Date.now() });

async function chatWithTurn(a: AcpChatApi): Promise<{ id: string; keys: string[] }> {
  const panel = await a.service.newChat('demo');
  await panel.whenReady();
  const id = panel.chatId ?? assert.fail('the tab has a chat');
  const session = a.service.chat(id) ?? assert.fail('live');
  await session.start();
  session.prompt('a chat for two windows');
  await session.whenIdle();
  return { id, keys: session.entries().map((e) => e.key) };
}

suite('Chats of another window; Select Agent in an empty chat', () => {
  test('held elsewhere: refused without a process id, opened read-only as a copy, taken over once the other window lets go', async () => {
    const a = await api();
    const { id, keys } = await chatWithTurn(a);
    const dir = a.service.chatsDir() ?? assert.fail('the chats have a folder');
    const lock = path.join(dir, `${id}.lock`);
    a.service.closeChat(id);
    await until(() => !fs.existsSync(lock), 'the closed chat let go', 10_000);
    fs.writeFileSync(lock, other());

    await assert.rejects(a.service.openChat({ chatId: id }), (e: Error) => /another VS Code window/.test(e.message) && !/\d{3,}/.test(e.message));
    assert.strictEqual(a.service.tabOf(id), undefined, 'refused before any tab opened');
    assert.deepStrictEqual(a.service.chatsElsewhere().heldElsewhere(), [id]);

    const ro = await vscode.commands.executeCommand<{
      panel: { panel: vscode.WebviewPanel; dispose(): void };
      view: { snapshot(): { entries: readonly { key: string }[]; panel: { readOnly: boolean } } };
    }>('acpChat.chatsElsewhere', id, 'readOnly');
    assert.ok(ro, 'a read-only tab');
    assert.deepStrictEqual(
      ro.view.snapshot().entries.map((e) => e.key),
      keys,
      'the saved transcript, same keys',
    );
    assert.strictEqual(ro.view.snapshot().panel.readOnly, true);
    assert.match(ro.panel.panel.title, /\(read-only\)$/);
    assert.ok(fs.existsSync(lock) && fs.readFileSync(lock, 'utf8').includes('the-other-window'), 'reading a copy takes nothing');
    ro.panel.dispose();

    // The other window answers a request by letting go (here: the test, watching for it).
    const handoff = path.join(dir, `${id}.handoff`);
    const otherWindow = setInterval(() => fs.existsSync(handoff) && fs.existsSync(lock) && fs.readFileSync(lock, 'utf8').includes('the-other-window') && fs.rmSync(lock), 50);
    try {
      const taken = await vscode.commands.executeCommand<boolean>('acpChat.chatsElsewhere', id, 'takeOver');
      assert.strictEqual(taken, true);
    } finally {
      clearInterval(otherWindow);
    }
    assert.ok(a.service.tabOf(id), 'shown here in a tab');
    assert.ok(!fs.existsSync(handoff), 'the request is withdrawn');
    assert.deepStrictEqual(
      a.service
        .chat(id)
        ?.entries()
        .map((e) => e.key),
      keys,
      'every message, same keys',
    );
  });

  test('asked by another window, this one closes the chat’s tab and lets go of it', async () => {
    const a = await api();
    const { id } = await chatWithTurn(a);
    const dir = a.service.chatsDir() ?? assert.fail('the chats have a folder');
    const lock = path.join(dir, `${id}.lock`);
    assert.ok(fs.existsSync(lock), 'this window holds it');
    fs.writeFileSync(path.join(dir, `${id}.handoff`), other());
    try {
      await until(() => a.service.tabOf(id) === undefined && a.service.chat(id) === undefined, 'the tab closed and the chat stopped', 10_000);
      await until(() => !fs.existsSync(lock), 'the lock freed for the other window', 10_000);
      assert.ok(
        a.service.chatRecords().some((c) => c.id === id),
        'the chat is still listed',
      );
    } finally {
      fs.rmSync(path.join(dir, `${id}.handoff`), { force: true });
    }
  });

  test('Select Agent in a chat nobody wrote in replaces it with a chat of that agent, in its place', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('acpChat');
    const before = config.inspect('agents')?.globalValue;
    await config.update(
      'agents',
      [{ id: 'demo-b', name: 'Demo B', command: process.execPath, args: [demoPath()], env: { ELECTRON_RUN_AS_NODE: '1' } }],
      vscode.ConfigurationTarget.Global,
    );
    try {
      const empty = await a.service.newChat('demo');
      await empty.whenReady();
      const emptyId = empty.chatId ?? assert.fail('the tab has a chat');
      const column = empty.panel.viewColumn;
      const count = a.service.chatRecords().length;
      await vscode.commands.executeCommand('acpChat.selectAgent', 'demo-b');
      assert.ok(!a.service.chatRecords().some((c) => c.id === emptyId), 'the empty chat is not left behind');
      assert.strictEqual(a.service.chatRecords().length, count, 'one chat replaced by one');
      const now = a.service.focusedChat ?? assert.fail('a focused chat');
      assert.strictEqual(now.agent.id, 'demo-b');
      assert.strictEqual(a.service.activePanel()?.panel.viewColumn, column, 'in its place');
    } finally {
      await vscode.commands.executeCommand('acpChat.selectAgent', 'demo');
      await config.update('agents', before, vscode.ConfigurationTarget.Global);
    }
  });
});
