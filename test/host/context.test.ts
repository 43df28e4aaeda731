/**
 * "Add Selection / File / Problems to Chat": each command attaches a chip to the active chat, and the next
 * prompt carries it as the ACP content block the demo agent (which advertises embeddedContext) receives.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { ContentBlock } from '../../src/common/protocol/content';
import type { AcpChatApi } from '../../src/vscode/extension';

async function lastUserBlocks(a: AcpChatApi): Promise<readonly ContentBlock[]> {
  const users = a.transcript().filter((e) => e.kind === 'user_message');
  const last = users[users.length - 1];
  assert.ok(last && last.kind === 'user_message', 'a user message in the transcript');
  return last.content;
}

async function workspaceFile(name: string, text: string): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host opens a workspace folder');
  const uri = vscode.Uri.file(path.join(folder.uri.fsPath, name));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

const chips = (a: AcpChatApi) => a.service.activeSession().panelState().context;

suite('Editor context in the chat', () => {
  test('Add Selection to Chat sends the selected lines as an embedded resource with the range in the URI', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const uri = await workspaceFile('context-selection.ts', 'line one\nline two\nline three\nline four\n');
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(1, 0, 2, 10);
    await vscode.commands.executeCommand('acpChat.addSelectionToChat');
    const [chip] = await until(() => chips(a).length === 1 && chips(a), 'the selection chip', 10_000);
    assert.strictEqual(chip?.label, 'context-selection.ts:2-3');

    await a.sendPrompt('explain this');
    const blocks = await lastUserBlocks(a);
    assert.deepStrictEqual(blocks[0], { type: 'text', text: 'explain this' });
    const res = blocks.find((b) => b.type === 'resource');
    assert.ok(res && res.type === 'resource', `a resource block (${JSON.stringify(blocks)})`);
    assert.strictEqual(res.resource.uri, `file://${uri.fsPath}#L2-3`);
    assert.ok('text' in res.resource && res.resource.text === 'line two\nline three');
    assert.deepStrictEqual(chips(a), [], 'the chips are gone once the prompt was sent');
  });

  test('Add Selection to Chat keeps the editor it came from in view (the chat gets a tab beside it; none is moved)', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const panel = a.service.activePanel();
    assert.ok(panel?.chatId !== undefined);
    const chatId = panel.chatId;
    const uri = await workspaceFile('context-keep.ts', 'alpha\nbeta\n');
    // The editor opens over the chat, in the chat's group.
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: panel.panel.viewColumn });
    editor.selection = new vscode.Selection(0, 0, 1, 2);
    await vscode.commands.executeCommand('acpChat.addSelectionToChat');
    const chip = await until(() => chips(a).find((c) => c.label === 'context-keep.ts:1-2'), 'the selection chip', 10_000);
    const shown = await until(
      () => a.service.tabsOf(chatId).find((t) => t.panel.visible && t.panel.viewColumn !== editor.viewColumn),
      'the chat in view beside the editor',
      10_000,
    );
    assert.ok(!panel.disposed, 'the first tab of the chat is still there');
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === uri.fsPath),
      'the editor is still in view',
    );
    a.service.activeSession().handleWebviewMessage({ type: 'removeContext', id: chip.id });
    await until(() => chips(a).length === 0, 'the chip removed', 10_000);
    if (shown !== panel) shown.dispose();
  });

  test('Add File to Chat (from the explorer) sends the file; a removed chip is not sent', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const kept = await workspaceFile('context-kept.md', '# kept\n');
    const dropped = await workspaceFile('context-dropped.md', '# dropped\n');
    // The explorer passes the clicked resource and the whole selection.
    await vscode.commands.executeCommand('acpChat.addFileToChat', kept, [kept, dropped]);
    await until(() => chips(a).length === 2, 'two file chips', 10_000);
    const drop = chips(a).find((c) => c.label === 'context-dropped.md');
    assert.ok(drop);
    a.service.activeSession().handleWebviewMessage({ type: 'removeContext', id: drop.id });
    assert.deepStrictEqual(
      chips(a).map((c) => c.label),
      ['context-kept.md'],
    );

    await a.sendPrompt('read this');
    const resources = (await lastUserBlocks(a)).filter((b) => b.type === 'resource');
    assert.deepStrictEqual(
      resources.map((b) => (b.type === 'resource' && 'text' in b.resource ? [b.resource.uri.endsWith('/context-kept.md'), b.resource.text] : null)),
      [[true, '# kept\n']],
    );
  });

  test("Add Problems to Chat sends the active file's diagnostics", async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const uri = await workspaceFile('context-problems.ts', 'let x: number = "a";\n');
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One });
    const diags = vscode.languages.createDiagnosticCollection('acp-chat-test');
    try {
      const d = new vscode.Diagnostic(new vscode.Range(0, 4, 0, 5), "Type 'string' is not assignable to type 'number'.", vscode.DiagnosticSeverity.Error);
      d.source = 'ts';
      d.code = 2322;
      diags.set(uri, [d]);
      await vscode.commands.executeCommand('acpChat.addProblemsToChat');
      await until(() => chips(a).some((c) => c.kind === 'problems'), 'the problems chip', 10_000);
      await a.sendPrompt('fix these');
      const res = (await lastUserBlocks(a)).find((b) => b.type === 'resource');
      assert.ok(res && res.type === 'resource' && 'text' in res.resource, 'a resource block');
      assert.match(res.resource.uri, /context-problems\.ts#problems$/);
      assert.strictEqual(res.resource.text, "context-problems.ts:1:5 error [ts 2322]: Type 'string' is not assignable to type 'number'.");
    } finally {
      diags.dispose();
    }
  });
});
