/**
 * Session operations in the real extension host, against the demo agent: Fork Chat Here (session/fork; the
 * chat shows the shared history), Rename Chat (session/set_title; the tab title follows), Archive/Unarchive
 * Chat, an agent that lacks them (each command says so), terminal sign-in (consent, a terminal running the
 * agent's own command with the method's args, the session retried when it closes) and Log Out.
 * VS Code's dialogs are answered by replacing the window's message functions for the test's duration.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, ensureDemoTurn } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';

type Answer = (message: string, items: readonly string[]) => string | undefined;
type Shown = { kind: 'info' | 'warning' | 'error'; message: string };

/** Replaces the message dialogs (and the quick pick) while `run` runs; returns what was shown. */
async function withDialogs(answer: Answer, pick: (items: readonly { label: string; id?: string }[]) => unknown, run: (shown: Shown[]) => Promise<void>): Promise<Shown[]> {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = { info: w['showInformationMessage'], warning: w['showWarningMessage'], error: w['showErrorMessage'], pick: w['showQuickPick'] };
  const shown: Shown[] = [];
  const fake =
    (kind: Shown['kind']) =>
    (message: string, ...rest: unknown[]) => {
      shown.push({ kind, message });
      const items = rest.filter((x): x is string => typeof x === 'string');
      return Promise.resolve(answer(message, items));
    };
  w['showInformationMessage'] = fake('info');
  w['showWarningMessage'] = fake('warning');
  w['showErrorMessage'] = fake('error');
  w['showQuickPick'] = async (items: readonly { label: string; id?: string }[] | Promise<readonly { label: string; id?: string }[]>) => pick(await items);
  try {
    await run(shown);
  } finally {
    w['showInformationMessage'] = saved.info;
    w['showWarningMessage'] = saved.warning;
    w['showErrorMessage'] = saved.error;
    w['showQuickPick'] = saved.pick;
  }
  return shown;
}

const demoScript = () => {
  const ext = vscode.extensions.getExtension('acp-chat.acp-chat');
  assert.ok(ext);
  return path.join(ext.extensionPath, 'dist', 'demo-agent.js');
};

/** Adds demo-agent variants to acpChat.agents for the test, selects `id`, and restores everything after. */
async function withAgent(a: AcpChatApi, id: string, name: string, env: Record<string, string>, run: () => Promise<void>): Promise<void> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const before = config.inspect('agents')?.globalValue;
  await config.update('agents', [{ id, name, command: process.execPath, args: [demoScript()], env: { ELECTRON_RUN_AS_NODE: '1', ...env } }], vscode.ConfigurationTarget.Global);
  try {
    await vscode.commands.executeCommand('acpChat.selectAgent', id);
    assert.strictEqual(a.service.activeSession().agent.id, id);
    await run();
  } finally {
    await vscode.commands.executeCommand('acpChat.selectAgent', 'demo');
    await config.update('agents', before, vscode.ConfigurationTarget.Global);
  }
}

suite('Session operations', () => {
  // Later suites expect a chat whose transcript they built: leave a fresh session, not a fork or an unarchived one.
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('acpChat.newSession');
  });

  test('Fork Chat Here (from a user message in the tree) opens a new chat showing the shared history', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    await ensureDemoTurn(a);
    const chat = a.service.activeSession();
    if (Object.keys(chat.panelState().terminals).length === 0) await a.sendPrompt('run a terminal');
    const source = chat.sessionId;
    assert.ok(source);
    const before = [...a.transcript()];
    const user = [...before].reverse().find((e) => e.kind === 'user_message');
    assert.ok(user);
    const tabs = a.service.chatRecords().filter((r) => a.service.tabOf(r.id) !== undefined).length;
    // The tree's context menu passes its entry node.
    await vscode.commands.executeCommand('acpChat.forkChat', { type: 'entry', id: `e/${source}/${user.key}`, sessionId: source, key: user.key, entryKind: 'user_message' });
    const fork = await until(() => a.service.activeSession() !== chat && a.service.activeSession(), 'a new chat showing the fork', 30_000);
    assert.ok(fork.sessionId && fork.sessionId !== source);
    assert.strictEqual(chat.sessionId, source, 'the source chat keeps its session');
    assert.strictEqual(a.service.chatRecords().filter((r) => a.service.tabOf(r.id) !== undefined).length, tabs + 1, 'the fork has a tab of its own');
    const forked = fork.entries();
    assert.deepStrictEqual(
      forked.map((e) => e.kind),
      before.map((e) => e.kind),
      'the fork shows the shared history',
    );
    assert.ok(forked.every((e) => e.provenance === 'fork'));
    // It shows what the source showed: terminal output, plan, usage, title (also in the tab and the tree).
    const shown = chat.panelState().terminals;
    assert.ok(Object.keys(shown).length > 0, 'the source shows a terminal');
    for (const [tid, view] of Object.entries(shown)) assert.deepStrictEqual(fork.panelState().terminals[tid]?.output, view.output, `terminal ${tid} keeps its output`);
    assert.deepStrictEqual(fork.current()?.plan ?? null, chat.current()?.plan ?? null, 'the plan');
    assert.deepStrictEqual(fork.current()?.usage ?? null, chat.current()?.usage ?? null, 'the usage');
    const forkId = a.service.chatIdOf(fork);
    const sourceId = a.service.chatIdOf(chat);
    assert.ok(forkId && sourceId);
    // The source's title, told apart from it (issue 38, item 4).
    const sourceTitle = chat.current()?.title;
    if (sourceTitle) assert.strictEqual(a.service.titleOf(forkId), `${sourceTitle} (fork)`, 'the tab title');
    assert.notStrictEqual(a.service.titleOf(forkId), a.service.titleOf(sourceId), 'the tab titles differ');
    // The fork goes on by itself, on its own agent, after reattaching the forked session.
    await until(() => fork.turnState === 'idle', 'the fork chat to attach its session', 30_000);
    await a.sendPrompt('only in the fork');
    assert.ok(fork.entries().length > before.length);
    assert.strictEqual(chat.entries().length, before.length, 'nothing reached the source chat');
  });

  test('Rename Chat sets the title with session/set_title; the tab title follows', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    await ensureDemoTurn(a);
    await vscode.commands.executeCommand('acpChat.renameChat', '  Renamed   by the test ');
    const chat = a.service.activeSession();
    await until(() => chat.current()?.title === 'Renamed by the test', 'the title the agent stored', 20_000);
    await until(() => a.service.activePanel()?.panel.title.startsWith('Renamed by the test'), 'the tab title', 20_000);
    // One owner (the store), one path: the chat list, the tree and the index's cache say the same.
    const id = a.service.chatIdOf(chat);
    assert.ok(id);
    assert.strictEqual(a.service.titleOf(id), 'Renamed by the test', 'the chat list (Open Session…)');
    assert.strictEqual(a.service.treeView.description?.endsWith('Renamed by the test'), true, 'the tree');
    assert.strictEqual(a.service.chatRecords().find((c) => c.id === id)?.title, 'Renamed by the test', 'the cache for when the chat is not loaded');
  });

  test("Archive Chat puts the chat away (its tab closes, the agent archives the session); Unarchive Chat… lists it from the client's own records and opens it again", async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    await ensureDemoTurn(a);
    const chat = a.service.activeSession();
    const id = a.service.chatIdOf(chat);
    const archived = chat.sessionId;
    assert.ok(id && archived);
    assert.ok(chat.door.running, 'the agent runs');
    await withDialogs(
      () => undefined,
      () => undefined,
      async (shown) => {
        await vscode.commands.executeCommand('acpChat.archiveChat');
        await until(() => a.service.tabOf(id) === undefined, "the archived chat's tab closed", 20_000);
        assert.ok(
          shown.some((s) => s.message.startsWith('Archived')),
          JSON.stringify(shown),
        );
      },
    );
    assert.ok(!a.service.chatRecords().some((c) => c.id === id), 'out of the chat list');
    // Listed from the client's records: the agent is not asked to remember it.
    let listed: string[] = [];
    await withDialogs(
      () => undefined,
      (items) => {
        listed = items.map((i) => i.label);
        return items.find((i) => i.label.length > 0);
      },
      async () => {
        await vscode.commands.executeCommand('acpChat.unarchiveChat');
        await until(() => a.service.tabOf(id) !== undefined, 'the chat open again', 20_000);
      },
    );
    assert.ok(listed.length > 0, 'the archived chat was offered');
    assert.ok(
      a.service.chatRecords().some((c) => c.id === id),
      'back in the chat list',
    );
    await until(() => a.service.chat(id)?.sessionId === archived, 'its session shown again', 20_000);
  });

  test('an agent that does not offer them: each command says so, naming the agent', async () => {
    const a = await api();
    await withAgent(a, 'demo-no-ops', 'Demo [no ops](command:x)', { ACP_DEMO_SESSION_OPS: 'off' }, async () => {
      await a.openChat();
      await a.whenPanelReady();
      await ensureDemoTurn(a);
      const shown = await withDialogs(
        () => undefined,
        () => undefined,
        async () => {
          for (const c of ['acpChat.forkChat', 'acpChat.logout']) await vscode.commands.executeCommand(c);
        },
      );
      const texts = shown.filter((s) => s.kind === 'info').map((s) => s.message);
      for (const method of ['session/fork', 'logout']) {
        assert.ok(
          texts.some((t) => t.includes(`it did not advertise ${method}`)),
          `${method}: ${JSON.stringify(texts)}`,
        );
      }
      // The agent's name is shown inert: no markdown link survives.
      assert.ok(
        texts.every((t) => t.startsWith('Demo [no ops] (command:x) does not support')),
        JSON.stringify(texts),
      );
      // Renaming and archiving are the client's own: they work without session/set_title and session/archive.
      await vscode.commands.executeCommand('acpChat.renameChat', 'Named here');
      await until(() => a.service.activeSession().current()?.title === 'Named here', "the user's title without the agent", 20_000);
      const archived = await withDialogs(
        () => undefined,
        () => undefined,
        async () => {
          await vscode.commands.executeCommand('acpChat.archiveChat');
        },
      );
      assert.ok(
        archived.some((s) => s.message.startsWith('Archived "Named here"')),
        JSON.stringify(archived),
      );
    });
  });

  test('terminal sign-in: consent, a terminal runs the agent with --login, the session starts when it closes; Log Out signs out', async () => {
    const a = await api();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-auth-'));
    const credential = path.join(dir, 'credential');
    const opened: vscode.Terminal[] = [];
    const sub = vscode.window.onDidOpenTerminal((t) => opened.push(t));
    try {
      // Selecting the agent starts it: the dialogs are answered from before that.
      const shown = await withDialogs(
        (_message, items) => (items.includes('Run in Terminal') ? 'Run in Terminal' : undefined),
        (items) => items.find((i) => i.id === 'demo-login'),
        async (soFar) =>
          withAgent(a, 'demo-auth', 'Demo auth', { ACP_DEMO_AUTH_FILE: credential, ACP_DEMO_LOGIN_AUTO: '1' }, async () => {
            await a.openChat();
            const chat = a.service.activeSession();
            await until(() => chat.sessionId !== null && chat.turnState === 'idle', 'a session after signing in', 60_000);
            await check(soFar);
          }),
      );
      assert.ok(shown.length > 0);
      async function check(shown: Shown[]): Promise<void> {
        const consent = shown.find((s) => s.message.includes('needs you to sign in'));
        assert.ok(consent, JSON.stringify(shown));
        const terminal = opened.find((t) => t.name.startsWith('Sign in'));
        assert.ok(terminal, `a sign-in terminal (${opened.map((t) => t.name).join(', ')})`);
        const options = terminal.creationOptions as vscode.TerminalOptions;
        assert.strictEqual(options.shellPath, process.execPath, 'the agent’s own command, not a shell');
        assert.deepStrictEqual(options.shellArgs, [demoScript(), '--login']);
        assert.ok(fs.existsSync(credential), 'the sign-in ran');

        const out = await withDialogs(
          () => undefined,
          () => undefined,
          async () => {
            await vscode.commands.executeCommand('acpChat.logout');
          },
        );
        assert.ok(
          out.some((s) => s.message.startsWith('Logged out of Demo auth')),
          JSON.stringify(out),
        );
        assert.strictEqual(fs.existsSync(credential), false, 'logout signed out');
      }
    } finally {
      sub.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
