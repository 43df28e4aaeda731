/**
 * A whole demo-agent turn through the real VS Code APIs: the permission request is shown and answered,
 * the edit lands through a workspace edit (open in an editor, saved to disk), and a terminal command runs.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { Entry } from '../../src/common/store/model';

const text = (e: Entry) => (e.kind === 'tool_call' ? e.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('') : '');

suite('A demo-agent turn through VS Code', () => {
  test('permission answered in the panel, file written, terminal run', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a workspace folder');
    const target = path.join(folder.uri.fsPath, 'demo-edit.txt');

    const turn = a.sendPrompt('please edit the file and run a terminal command');
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    assert.strictEqual(request.title, 'Edit demo-edit.txt');
    assert.deepStrictEqual(request.options.map((o) => o.kind).sort(), ['allow_always', 'allow_once', 'reject_always', 'reject_once']);
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow);
    assert.ok(a.respondPermission(request.requestId, allow.optionId));
    await turn;

    // This turn's edit: other suites may have edited the file earlier in the same chat.
    const edit = [...a.transcript()].reverse().find((e) => e.kind === 'tool_call' && e.title === 'Edit demo-edit.txt');
    assert.ok(edit && edit.kind === 'tool_call');
    assert.strictEqual(
      edit.status,
      'completed',
      `the edit did not complete; notices: ${JSON.stringify(a.service.activeSession().panelState().notices)}; log: ${a.service.logTail().slice(-10).join('\n')}`,
    );
    const diff = edit.content.find((c) => c.type === 'diff');
    assert.ok(diff && diff.type === 'diff');
    // Written through the checked handle (fileAccess.test.ts covers editors open on the file); it is not
    // shown in an editor unless the user opted in (acpChat.openEditedFiles). A document VS Code still holds
    // from an earlier test shows the new text, clean.
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === target), 'not shown uninvited');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === target);
    if (doc) {
      await until(() => doc.getText() === diff.newText, 'the open document to show the new text', 10_000);
      assert.strictEqual(doc.isDirty, false);
    }
    const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(target)));
    assert.strictEqual(onDisk, diff.newText);

    const run = a.transcript().find((e) => e.kind === 'tool_call' && e.toolKind === 'execute');
    assert.ok(
      run && run.kind === 'tool_call',
      `no execute tool call (${a
        .transcript()
        .map((e) => e.kind)
        .join(', ')})`,
    );
    assert.strictEqual(run.status, 'completed');
    assert.match(text(run) + JSON.stringify(run.rawOutput ?? ''), /Hello from the demo terminal/);
  });

  test('with acpChat.openEditedFiles on, an edited file is shown beside the chat, never over it', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const config = vscode.workspace.getConfiguration('acpChat');
    await config.update('openEditedFiles', true, vscode.ConfigurationTarget.Global);
    try {
      const panel = a.service.activePanel();
      assert.ok(panel);
      const chatColumn = panel.panel.viewColumn;
      const turn = a.sendPrompt('please edit the file');
      const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
      const allow = request.options.find((o) => o.kind === 'allow_once');
      assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
      await turn;
      const editor = await until(() => vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath.endsWith('demo-edit.txt')), 'the edited file in an editor', 10_000);
      assert.notStrictEqual(editor.viewColumn, chatColumn, 'in another editor group than the chat');
      assert.ok(panel.panel.visible, 'the chat stays visible');
      const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === editor.document.uri.fsPath);
      if (tab) await vscode.window.tabGroups.close(tab);
    } finally {
      await config.update('openEditedFiles', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('Open diff opens the diff editor beside the chat, never over it', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const turn = a.sendPrompt('please edit the file');
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
    await turn;
    const edit = [...a.transcript()].reverse().find((e) => e.kind === 'tool_call' && e.content.some((c) => c.type === 'diff'));
    assert.ok(edit, 'the turn left an edit with a diff');
    const panel = a.service.activePanel();
    assert.ok(panel);
    const chatColumn = panel.panel.viewColumn;
    a.service.activeSession().handleWebviewMessage({ type: 'openDiff', key: edit.key, index: edit.kind === 'tool_call' ? edit.content.findIndex((c) => c.type === 'diff') : 0 });
    const tab = await until(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.startsWith('Edit demo-edit.txt')),
      'a diff editor tab',
      10_000,
    );
    assert.notStrictEqual(tab.group.viewColumn, chatColumn, 'the diff is in another editor group than the chat');
    assert.ok(panel.panel.visible, 'the chat stays visible');
    await vscode.window.tabGroups.close(tab);
  });

  test('a rejected permission leaves the file alone', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const target = vscode.Uri.file(path.join(folder.uri.fsPath, 'demo-edit.txt'));
    const before = await vscode.workspace.fs.readFile(target).then(
      (b) => new TextDecoder().decode(b),
      () => null,
    );
    const turn = a.sendPrompt('edit it again');
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    assert.ok(a.respondPermission(request.requestId, null), 'Esc rejects');
    await turn;
    const after = await vscode.workspace.fs.readFile(target).then(
      (b) => new TextDecoder().decode(b),
      () => null,
    );
    assert.strictEqual(after, before);
  });
});

suite('@-mentions', () => {
  test('an @-mentioned file goes to the agent as embedded context and completes from the workspace', async () => {
    const a = await api();
    const { findWorkspaceFiles } = await import('../../src/vscode/context/promptBuilder');
    assert.ok((await findWorkspaceFiles('READ')).includes('README.md'), 'README.md completes from "READ"');
    await a.sendPrompt('Summarize @README.md please');
    const user = [...a.transcript()].reverse().find((e) => e.kind === 'user_message');
    assert.ok(user && user.kind === 'user_message');
    const resource = user.content.find((b) => b.type === 'resource');
    assert.ok(resource && resource.type === 'resource', `no resource block (${user.content.map((b) => b.type).join(', ')})`);
    assert.ok(resource.resource.uri.endsWith('/README.md'));
    const text = (resource.resource as { text?: unknown }).text;
    assert.ok(typeof text === 'string' && text.includes('test workspace'), 'the file text is embedded');
  });
});
