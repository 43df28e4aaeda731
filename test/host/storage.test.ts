/**
 * Where chats are kept and which tab shows which, in the real extension host: a window that VS Code gave
 * another storage folder of this workspace (`<hash>-1`, as when the usual one was locked) finds the same
 * chats, and chats an older version left there are moved in; a chat this window has is refused to another
 * window; a tab VS Code restores shows the chat it showed, in its group, and never a chat that already
 * has a tab; and the chat list another window writes is followed here.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import { chatHome } from '../../src/node/persistence/chatHome';
import { currentWorkspace } from '../../src/vscode/chats/chatHomeLocation';
import { FilePersistence } from '../../src/node/chat/filePersistence';
import { sessionToAttach } from '../../src/node/chat/chatPersistence';
import { CHAT_VIEW_TYPE } from '../../src/vscode/panel/chatPanel';

suite('Chat storage and tabs', () => {
  test('another storage folder of this workspace finds the same chats; an open chat is refused to the other window', async () => {
    const a = await api();
    const panel = await a.service.newChat('demo');
    await panel.whenReady();
    const id = panel.chatId;
    assert.ok(id);
    const home = a.service.chatsDir();
    assert.ok(home, 'chats are kept on disk');
    const storage = path.dirname(a.service.capturesDir()); // <user>/workspaceStorage/<hash>/<extension id>
    const sibling = path.join(path.dirname(path.dirname(storage)), `${path.basename(path.dirname(storage))}-1`, path.basename(storage));
    // An older version in a window that got the sibling folder left a chat there.
    const old = await FilePersistence.create(path.join(sibling, 'sessions'), () => undefined, { pid: process.pid, token: 'old-version' });
    const oldStore = old.restore('chat-old-sibling', () => undefined).store;
    const msgs: ['client->agent' | 'agent->client', unknown][] = [
      ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
      ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 'sess_sibling' } }],
    ];
    msgs.forEach(([d, m], i) => old.append('chat-old-sibling', d, m, oldStore.ingest(d, m, i + 1), i + 1));
    old.writeIndex({
      version: 1,
      chats: [{ id: 'chat-old-sibling', agentId: 'demo', title: 'left in the sibling', sessionId: 'sess_sibling', createdAt: 1, updatedAt: 1 }],
      focused: [],
    });
    await old.close();

    const globalStorage = path.dirname(path.dirname(path.dirname(home))); // <global>/workspaces/<key>/sessions
    const other = await chatHome({ globalStorage, storage: sibling, location: await currentWorkspace(), platform: process.platform }, () => undefined);
    assert.strictEqual(other.dir, home, 'the window with the sibling folder keeps its chats in the same place');
    assert.strictEqual(other.moved, 1, 'and the chat an older version left in its storage folder is moved in');

    const otherWindow = await FilePersistence.create(other.dir, () => undefined, { pid: process.pid, token: 'other-window' });
    assert.ok(otherWindow.savedIds().includes('chat-old-sibling'));
    assert.ok(
      (otherWindow.readIndex() as { chats: { id: string }[] }).chats.some((c) => c.id === id),
      'the other window lists this window’s chat',
    );
    const claim = await otherWindow.prepare(id);
    assert.strictEqual(claim.ok, false, 'a chat open here is refused there');
    assert.deepStrictEqual(await otherWindow.prepare('chat-old-sibling'), { ok: true });
    // Saved before attach records: the reload reattaches its last session.
    assert.strictEqual(
      sessionToAttach(
        otherWindow.restore('chat-old-sibling', () => undefined),
        null,
      ),
      'sess_sibling',
    );
    await otherWindow.close();
    fs.rmSync(path.dirname(sibling), { recursive: true, force: true });
    for (const f of fs.readdirSync(home)) if (f.startsWith('chat-old-sibling.')) fs.rmSync(path.join(home, f), { force: true });
    a.service.closeChat(id);
  });

  test('a chat another window of the workspace makes is followed here: listed, named by its title, and gone when deleted there', async () => {
    const a = await api();
    await a.service.ready();
    const home = a.service.chatsDir();
    assert.ok(home, 'chats are kept on disk');
    const other = await FilePersistence.create(home, () => undefined, { pid: process.pid, token: 'following-window' });
    const id = 'chat-follow-abc123';
    const record = (title: string | null) => ({ id, agentId: 'demo', title, sessionId: null, createdAt: Date.now(), updatedAt: Date.now() });
    try {
      other.writeIndex({ version: 1, chats: [record(null)], focused: [] });
      const onDisk = () => `chats.json ${fs.readFileSync(path.join(home, 'chats.json'), 'utf8').includes(id) ? 'lists' : 'does not list'} it`;
      await until(
        () => a.service.chatIndex.has(id),
        () => `this window taking in the chat the other one made (${onDisk()})`,
        10_000,
      );
      other.writeIndex({ version: 1, chats: [record('Named in the other window')], focused: [] });
      await until(
        () => a.service.titleOf(id) === 'Named in the other window',
        () => `the title here is still "${a.service.titleOf(id)}"`,
        10_000,
      );
      await other.remove(id);
      other.writeIndex({ version: 1, chats: [], focused: [] });
      await until(() => !a.service.chatIndex.has(id), 'this window dropping the chat the other one deleted', 10_000);
    } finally {
      await other.close();
    }
  });

  test("a restored tab shows the chat it showed, in its group; a restored split shows it again beside; a deleted chat's tab closes", async () => {
    const a = await api();
    const one = await a.service.newChat('demo', vscode.ViewColumn.One);
    const two = await a.service.newChat('demo', vscode.ViewColumn.Two);
    await Promise.all([one.whenReady(), two.whenReady()]);
    const [idOne, idTwo] = [one.chatId, two.chatId];
    assert.ok(idOne && idTwo && idOne !== idTwo);
    a.service.closeChat(idOne);
    a.service.closeChat(idTwo);
    await until(() => !a.service.tabOf(idOne) && !a.service.tabOf(idTwo), 'both tabs closed', 10_000);

    // VS Code restores the tabs in its own order, each with the state its webview saved.
    const restore = (column: vscode.ViewColumn) =>
      vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'ACP Chat', { viewColumn: column, preserveFocus: true }, { enableScripts: true });
    const tabTwo = restore(vscode.ViewColumn.Two);
    const tabOne = restore(vscode.ViewColumn.One);
    const [shownTwo, shownOne] = await Promise.all([a.service.restorePanel(tabTwo, idTwo), a.service.restorePanel(tabOne, idOne)]);
    assert.strictEqual(shownOne?.chatId, idOne);
    assert.strictEqual(shownTwo?.chatId, idTwo);
    assert.strictEqual(a.service.tabOf(idOne)?.panel.viewColumn, vscode.ViewColumn.One, 'chat one in its group');
    assert.strictEqual(a.service.tabOf(idTwo)?.panel.viewColumn, vscode.ViewColumn.Two, 'chat two in its group');

    // A second restored tab naming chat one (it was a split of it before the reload): it shows chat one
    // again, where it was, as another tab of it; never another chat.
    const split = restore(vscode.ViewColumn.Two);
    const shownSplit = await a.service.restorePanel(split, idOne);
    assert.strictEqual(shownSplit?.chatId, idOne);
    assert.strictEqual(a.service.tabOf(idOne), shownOne, 'chat one keeps its first tab');
    assert.deepStrictEqual(
      a.service.tabsOf(idOne).map((t) => t.panel.viewColumn),
      [vscode.ViewColumn.One, vscode.ViewColumn.Two],
      'both tabs where they were',
    );
    assert.deepStrictEqual(a.service.tabsOf(idTwo), [shownTwo], 'chat two keeps its one tab');

    // A tab of a deleted chat closes too.
    await a.service.deleteChat(idTwo);
    const stale = restore(vscode.ViewColumn.Two);
    assert.strictEqual(await a.service.restorePanel(stale, idTwo), undefined);
    a.service.closeChat(idOne);
  });
});
