/**
 * A real two-folder workspace (the runner opens test.code-workspace: the test folder, then a second one):
 * the demo agent is told the second folder as `additionalDirectories` and says so (`/setup`), a file in the
 * second folder is inside the boundary and one outside both is not, and a folder added to the workspace is
 * said in the chat and reaches the next session.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { FileAccess } from '../../src/vscode/workspace/fsHandlers';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { Entry } from '../../src/common/store/model';

const answerText = (e: Entry | undefined) => (e && e.kind === 'agent_message' ? e.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '');

suite('Multi-root workspace', () => {
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const third = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-third-'));

  suiteTeardown(() => fs.rmSync(third, { recursive: true, force: true }));

  test('the second folder reaches the agent as an additional directory, and is inside the boundary', async () => {
    const [first, second] = folders();
    assert.ok(first && second, `the runner opens a two-folder workspace (${folders().join(', ')})`);
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    await a.sendPrompt('/setup');
    const said = answerText([...a.transcript()].reverse().find((e) => e.kind === 'agent_message'));
    assert.match(said, /Additional directories:/);
    assert.ok(said.includes(`\`${second}\``), `the agent got the second folder: ${said}`);
    assert.ok(said.includes(`Working directory: \`${first}\``), `the first folder is the cwd: ${said}`);
    assert.ok(!said.includes(`- \`${first}\``), 'the cwd is not repeated as an additional directory');

    const log = vscode.window.createOutputChannel('ACP Chat multi-root test', { log: true });
    const files = new FileAccess(
      log,
      undefined,
      () => 'deny',
      async () => undefined,
    );
    try {
      assert.strictEqual(await files.insideWorkspace(path.join(second, 'SECOND.md')), true, 'the second folder is inside the boundary');
      assert.strictEqual(await files.insideWorkspace(path.join(third, 'x.txt')), false, 'a folder outside the workspace stays outside');
    } finally {
      log.dispose();
    }
  });

  test('a folder added to the workspace is said in the chat and reaches the next session; removing it too', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const session = await a.service.activeChat();
    const n = folders().length;
    const notices = () => session.panelState().notices.map((x) => x.title);
    assert.ok(vscode.workspace.updateWorkspaceFolders(n, 0, { uri: vscode.Uri.file(third) }), 'the folder is added');
    await until(() => folders().includes(third), 'the third folder in the workspace', 20_000);
    await until(() => notices().find((t) => t.includes('added') && t.includes(third)), 'a notice that a folder was added', 20_000);
    await vscode.commands.executeCommand('acpChat.newSession');
    await a.sendPrompt('/setup');
    const said = answerText([...a.transcript()].reverse().find((e) => e.kind === 'agent_message'));
    assert.ok(said.includes(`\`${third}\``), `the next session got the added folder: ${said}`);

    assert.ok(vscode.workspace.updateWorkspaceFolders(n, 1), 'the folder is removed');
    await until(() => !folders().includes(third), 'the third folder gone', 20_000);
    await until(() => notices().find((t) => t.includes('removed') && t.includes(third)), 'a notice that a folder was removed', 20_000);
  });
});
