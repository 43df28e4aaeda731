/**
 * Several chats at once: two chats with different agents streaming side by side share nothing (entries,
 * permission requests, terminals, the tree); the tree follows the focused chat; closing a tab keeps the
 * chat in history (transcript and terminal views) and deleting removes it (asking the agent to close its session); the side bar view
 * shows a chat that is open in a tab too, both kept current.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';
import type { ChatPanel } from '../../src/vscode/panel/chatPanel';
import type { ChatController } from '../../src/node/chat/chatController';
import type { PermissionView } from '../../src/common/webview/contract';

const demoPath = () => path.join(vscode.extensions.getExtension('acp-chat.acp-chat')!.extensionPath, 'dist', 'demo-agent.js');

/** A second agent: the demo agent streaming more slowly, so the two turns overlap. */
async function withSecondAgent<T>(run: () => Promise<T>): Promise<T> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const before = config.inspect('agents')?.globalValue;
  await config.update(
    'agents',
    [{ id: 'demo-b', name: 'Demo B', command: process.execPath, args: [demoPath()], env: { ELECTRON_RUN_AS_NODE: '1', ACP_DEMO_DELAY_MS: '15' } }],
    vscode.ConfigurationTarget.Global,
  );
  try {
    return await run();
  } finally {
    await config.update('agents', before, vscode.ConfigurationTarget.Global);
  }
}

function chatOf(a: AcpChatApi, panel: ChatPanel): { id: string; session: ChatController } {
  const id = panel.chatId;
  assert.ok(id);
  const session = a.service.chat(id);
  assert.ok(session, `chat ${id} is live`);
  return { id, session };
}

function answerPermission(session: ChatController, request: PermissionView, kind: 'allow_once' | 'reject_once'): void {
  const option = request.options.find((o) => o.kind === kind);
  assert.ok(option && session.broker.respond(request.requestId, option.optionId));
}

suite('Several chats at once', () => {
  test('two chats with different agents stream at once with no cross-talk; the tree follows focus', async () => {
    const a = await api();
    await withSecondAgent(async () => {
      const one = await a.service.newChat('demo', vscode.ViewColumn.One);
      const two = await a.service.newChat('demo-b', vscode.ViewColumn.Two);
      assert.notStrictEqual(one.chatId, two.chatId);
      await Promise.all([one.whenReady(), two.whenReady()]);
      const c1 = chatOf(a, one);
      const c2 = chatOf(a, two);
      assert.strictEqual(c1.session.agent.id, 'demo');
      assert.strictEqual(c2.session.agent.id, 'demo-b');
      await Promise.all([c1.session.start(), c2.session.start()]);
      assert.ok(c1.session.sessionId && c2.session.sessionId);

      // Both turns run at once; each asks for a permission, edits and runs a terminal.
      c1.session.prompt('chat one: please edit the file and run a terminal command');
      c2.session.prompt('chat two: please edit the file and run a terminal command');
      await until(() => c1.session.turnState === 'busy' && c2.session.turnState === 'busy', 'both turns running', 30_000);
      // Each chat's permission request is its own: one card each, on a tool call of its own transcript.
      const r1 = await until(() => c1.session.broker.pending()[0], 'a permission request in chat one', 30_000);
      const r2 = await until(() => c2.session.broker.pending()[0], 'a permission request in chat two', 30_000);
      assert.strictEqual(c1.session.broker.pending().length, 1);
      assert.strictEqual(c2.session.broker.pending().length, 1);
      assert.ok(r1.toolCallKey && c1.session.entries().some((e) => e.key === r1.toolCallKey) && !c2.session.entries().some((e) => e.key === r1.toolCallKey));
      assert.ok(r2.toolCallKey && c2.session.entries().some((e) => e.key === r2.toolCallKey) && !c1.session.entries().some((e) => e.key === r2.toolCallKey));
      assert.deepStrictEqual(
        c1.session.panelState().permissions.map((p) => p.toolCallKey),
        [r1.toolCallKey],
      );
      // Chat one allows its edit, chat two refuses: each answer reaches only its own agent (and the two
      // agents never race on the one workspace file they both edit).
      answerPermission(c1.session, r1, 'allow_once');
      await until(() => c1.session.entries().some((e) => e.kind === 'tool_call' && e.toolKind === 'edit' && e.status === 'completed'), "chat one's edit", 30_000);
      assert.strictEqual(c2.session.broker.pending().length, 1, 'chat two still waits for its own answer');
      answerPermission(c2.session, r2, 'reject_once');
      await Promise.all([c1.session.whenIdle(), c2.session.whenIdle()]);

      // Entries: each chat holds only its own turn, in its own store, with its own keys.
      const e1 = c1.session.entries();
      const e2 = c2.session.entries();
      const users = (es: typeof e1) => es.filter((e) => e.kind === 'user_message').map((e) => JSON.stringify(e));
      assert.ok(users(e1).every((u) => u.includes('chat one')) && users(e1).length === 1, 'chat one shows only its prompt');
      assert.ok(users(e2).every((u) => u.includes('chat two')) && users(e2).length === 1, 'chat two shows only its prompt');
      const keys1 = new Set(e1.map((e) => e.key));
      assert.ok(!e2.some((e) => keys1.has(e.key)), 'no entry key is shared');
      assert.notStrictEqual(c1.session.store, c2.session.store);
      // The demo agent numbers tool calls per session: the same ids in both chats, each with its own outcome
      // (chat two refused the edit: it stays Rejected though the agent reports it failed).
      const tools = (es: typeof e1) => es.flatMap((e) => (e.kind === 'tool_call' ? [`${e.toolCallId}:${e.status}`] : []));
      assert.deepStrictEqual(tools(e1), ['tool-1-read:completed', 'tool-1-edit:completed', 'tool-1-run:completed']);
      assert.deepStrictEqual(tools(e2), ['tool-1-read:completed', 'tool-1-edit:rejected', 'tool-1-run:completed']);
      // Permissions: nothing pending anywhere; terminals: each panel lists the terminals its own tool calls name.
      assert.deepStrictEqual([c1.session.broker.pending(), c2.session.broker.pending()], [[], []]);
      for (const { session } of [c1, c2]) {
        const own = session.entries().flatMap((e) => (e.kind === 'tool_call' ? e.content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : [])) : []));
        const shown = Object.keys(session.panelState().terminals);
        assert.ok(own.length >= 1, 'the execute tool call names a terminal');
        assert.deepStrictEqual(shown.sort(), [...new Set(own)].sort());
        assert.ok(Object.values(session.panelState().terminals).every((t) => t.output.includes('Hello from the demo terminal')));
      }

      // The tree shows the focused chat only, and follows focus (the last active tab).
      const roots = () => a.service.tree.getChildren().flatMap((n) => (n.type === 'session' ? [n.sessionId] : []));
      // Each reveal waits for VS Code's own view state first (the tab active, the other not): focus follows its
      // events, and a reveal of a tab this host still holds for active would change nothing it is told about
      // (CI once waited 30 s for chat two's focus after the two reveals).
      one.panel.reveal(vscode.ViewColumn.One, false);
      await until(() => one.panel.active && !two.panel.active, 'chat one the active tab', 30_000);
      await until(() => a.service.focusedChatId === c1.id, 'chat one focused', 30_000);
      assert.deepStrictEqual(roots(), [c1.session.sessionId]);
      two.panel.reveal(vscode.ViewColumn.Two, false);
      await until(() => two.panel.active && !one.panel.active, 'chat two the active tab', 30_000);
      await until(() => a.service.focusedChatId === c2.id, 'chat two focused', 30_000);
      assert.deepStrictEqual(roots(), [c2.session.sessionId]);
      assert.strictEqual(a.service.treeView.description, a.service.titleOf(c2.id));
      // Open Chat reveals the focused chat's tab; the tab title is the agent's session title.
      assert.strictEqual((await a.service.openChat()).chatId, c2.id);
      const title = c2.session.current()?.title;
      assert.ok(title, 'the demo agent sent a session title');
      await until(() => two.panel.title === a.service.titleOf(c2.id) && two.panel.title.includes(title.slice(0, 20)), 'the tab title', 30_000);
      // Leave the chats the other suites use as they were.
      await a.service.deleteChat(c1.id);
      await a.service.deleteChat(c2.id);
    });
  });

  test('closing a tab keeps the chat in history; deleting it removes its state and closes its session', async () => {
    const a = await api();
    const panel = await a.service.newChat('demo');
    await panel.whenReady();
    const { id, session } = chatOf(a, panel);
    await session.start();
    session.prompt('a chat to close and delete; run a terminal');
    await session.whenIdle();
    const keys = session.entries().map((e) => e.key);
    const terminals = session.panelState().terminals;
    assert.ok(
      Object.values(terminals).some((t) => t.exited && t.output.includes('Hello from the demo terminal')),
      'a terminal ran',
    );
    const sid = session.sessionId;
    assert.ok(sid && keys.length >= 2);

    a.service.closeChat(id);
    await until(() => a.service.tabOf(id) === undefined, 'the tab closed', 30_000);
    const record = a.service.chatRecords().find((c) => c.id === id);
    assert.ok(record, 'the closed chat is in history');
    assert.strictEqual(a.service.tabOf(id), undefined, 'and has no tab');
    assert.strictEqual(record.sessionId, sid);
    assert.strictEqual(a.service.chat(id), undefined, 'its agent stopped');

    // Reopened from history: the same transcript, same keys, same session.
    const again = await a.service.openChat({ chatId: id });
    await again.whenReady();
    const reopened = chatOf(a, again).session;
    assert.deepStrictEqual(
      reopened.entries().map((e) => e.key),
      keys,
    );
    assert.deepStrictEqual(reopened.panelState().terminals, terminals, 'and the same terminal views');
    await reopened.start();
    assert.strictEqual(reopened.sessionId, sid);

    const sessionsDir = a.service.chatsDir() ?? assert.fail('the chats have a folder');
    await until(() => fs.readdirSync(sessionsDir).some((f) => f.startsWith(`${id}.`)), 'the chat journal on disk', 30_000);
    // The terminal output is in the chat's journal (no side file), and in its capture: opened read-only, it shows it too.
    const saved = () =>
      fs
        .readdirSync(sessionsDir)
        .filter((f) => f.startsWith(`${id}.`))
        .map((f) => fs.readFileSync(path.join(sessionsDir, f), 'utf8'))
        .join('\n');
    await until(() => saved().includes('Hello from the demo terminal'), 'its terminal output on disk', 30_000);
    assert.ok(!fs.existsSync(path.join(sessionsDir, `${id}.terminals.json`)), 'no side file');
    const file = session.captureFile() ?? assert.fail('the chat was captured');
    const opened = await a.service.openCapture(file, 'full');
    assert.ok(opened);
    const shown = opened.capture.snapshot().panel.terminals;
    for (const [tid, view] of Object.entries(terminals)) assert.strictEqual(shown[tid]?.output, view.output, `the capture shows terminal ${tid}'s output`);
    opened.panel.dispose();
    await a.service.deleteChat(id);
    assert.ok(!a.service.chatRecords().some((c) => c.id === id), 'gone from history');
    assert.strictEqual(a.service.tabOf(id), undefined, 'its tab closed');
    assert.ok(!fs.readdirSync(sessionsDir).some((f) => f.startsWith(`${id}.`)), 'its journal and snapshots are deleted');
    assert.ok(
      a.service.logTail().some((l) => l.includes(`session/close ${sid}`)),
      `the demo agent (sessionCapabilities.close) was asked to close the session; log: ${a.service.logTail().slice(-8).join('\n')}`,
    );
    assert.ok(
      a.service.logTail().some((l) => l.includes(`session/delete ${sid}`)),
      'and (sessionCapabilities.delete) to delete it',
    );
  });

  test('opening an agent session reveals the chat that shows it, else attaches it in a new chat', async () => {
    const a = await api();
    const panel = await a.service.newChat('demo');
    await panel.whenReady();
    const { id, session } = chatOf(a, panel);
    await session.start();
    const sid = session.sessionId;
    assert.ok(sid);
    assert.strictEqual((await a.service.openChat({ agentId: 'demo', sessionId: sid })).chatId, id, 'the chat showing it');
    // A session this window never showed (the demo agent adopts an unknown id on resume after load fails).
    const other = await a.service.openChat({ agentId: 'demo', sessionId: 'demo-from-elsewhere' });
    assert.notStrictEqual(other.chatId, id);
    await other.whenReady();
    const attached = chatOf(a, other).session;
    await attached.start();
    assert.strictEqual(attached.sessionId, 'demo-from-elsewhere');
    assert.strictEqual(a.service.chatRecords().find((c) => c.id === other.chatId)?.sessionId, 'demo-from-elsewhere');
    await a.service.deleteChat(chatOf(a, other).id);
    await a.service.deleteChat(id);
  });

  test('the side bar view shows a chat; with its tab open too, both get every change', async () => {
    const a = await api();
    const panel = await a.service.newChat('demo');
    await panel.whenReady();
    const { id, session } = chatOf(a, panel);
    await vscode.commands.executeCommand('acpChat.showChatInSideBar', id);
    const side = await until(() => a.service.sideBar.chatWebview, 'the side bar webview', 20_000);
    await side.whenReady();
    assert.strictEqual(a.service.sideBar.chatId, id);
    assert.strictEqual(side.shown, session, 'the side bar shows that chat');
    const before = [panel.postedBytes, side.postedBytes];
    await a.sendPrompt('shown in two places');
    // Both webviews were sent the turn (each its own snapshot and patches) while both were visible.
    await until(() => side.postedBytes > (before[1] ?? 0), 'patches to the side bar', 30_000);
    assert.ok(panel.postedBytes > (before[0] ?? 0) || !panel.panel.visible, 'patches to the tab');
    assert.ok(side.readyCount >= 1);
    panel.dispose();
    assert.ok(a.service.chat(id), 'still live: the side bar shows it');
    await a.service.deleteChat(id);
    assert.strictEqual(a.service.sideBar.chatId, undefined, 'a deleted chat leaves the side bar');
  });
});
