/**
 * A code block's Insert at Cursor and Apply to File, as the chat panel asks for them (the webview's
 * `insertCode` / `applyCode` messages), against real editors: Insert goes to the editor the user last had
 * (the chat has the focus), Apply shows a diff preview, writes only after the user's Apply, can be undone,
 * and refuses a path outside the workspace or one that configures VS Code.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';

async function workspaceFile(name: string, text: string): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host opens a workspace folder');
  const uri = vscode.Uri.file(path.join(folder.uri.fsPath, name));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

type Answer = (message: string, items: string[]) => string | undefined | Promise<string | undefined>;

/** Answers the information and warning messages (Apply's question, its refusals) and records them. */
async function withMessages<T>(answer: Answer, run: (shown: string[]) => Promise<T>): Promise<T> {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = { info: w['showInformationMessage'], warning: w['showWarningMessage'], error: w['showErrorMessage'] };
  const shown: string[] = [];
  const fake = async (message: string, ...rest: unknown[]) => {
    shown.push(message);
    return answer(
      message,
      rest.filter((r): r is string => typeof r === 'string'),
    );
  };
  w['showInformationMessage'] = fake;
  w['showWarningMessage'] = fake;
  w['showErrorMessage'] = fake;
  try {
    return await run(shown);
  } finally {
    w['showInformationMessage'] = saved.info;
    w['showWarningMessage'] = saved.warning;
    w['showErrorMessage'] = saved.error;
  }
}

/**
 * How long a fact may take to come on a loaded machine (an upper bound, not a wait): Apply waits for its diff
 * preview to open before it writes, which took over 30 s on the shared 2-core machine, so 10 s bounds failed.
 */
const HOST_BOUND = 90_000;

const diffTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);

suite('Code blocks: Insert at Cursor and Apply to File', function () {
  this.timeout(4 * HOST_BOUND);
  test('Insert at Cursor replaces the selection of the editor the user last had, even with the chat focused', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const uri = await workspaceFile('code-insert.ts', 'const a = 1;\nconst b = 2;\n');
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(1, 6, 1, 7); // the `b`
    // The extension must have seen the editor active (its event comes from the main thread), with the selection.
    await until(
      () => vscode.window.activeTextEditor?.document.uri.fsPath === uri.fsPath && vscode.window.activeTextEditor.selection.start.character === 6,
      'the editor active',
      HOST_BOUND,
    );
    // The chat panel takes the focus, as a click on its button does.
    const chat = a.service.activePanel()?.panel;
    chat?.reveal(undefined, false);
    await until(() => chat?.active === true, 'the chat active', HOST_BOUND);
    const doc = await withMessages(
      () => undefined,
      async (shown) => {
        a.service.activeSession().handleWebviewMessage({ type: 'insertCode', text: 'renamed\n' });
        const inserted = await until(
          () => shown.length > 0 || vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath && d.getText().includes('renamed')),
          'the code inserted',
          HOST_BOUND,
        );
        assert.deepStrictEqual(shown, [], 'no message: the code went in');
        assert.ok(inserted !== true);
        return inserted;
      },
    );
    assert.strictEqual(doc.getText(), 'const a = 1;\nconst renamed = 2;\n', 'the block without its closing line end, in place of the selection');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('Apply shows the diff, writes only on Apply, and Undo takes it back', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const uri = await workspaceFile('code-apply.ts', 'export const v = 1;\n');
    const block = 'export const v = 2;\nexport const w = 3;\n';
    // Cancel first: the preview was shown, nothing was written.
    await withMessages(
      () => 'Cancel',
      async (shown) => {
        a.service.activeSession().handleWebviewMessage({ type: 'applyCode', path: 'code-apply.ts', text: block });
        await until(() => shown.some((m) => m.startsWith('Apply the code block to code-apply.ts')), 'the Apply question', HOST_BOUND).catch((e: unknown) =>
          assert.fail(`${String(e)}; shown: ${shown.join(' | ')}`),
        );
      },
    );
    await until(() => diffTabs().length === 0, 'the preview closed after Cancel', HOST_BOUND);
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), 'export const v = 1;\n');

    let previewSeen = false;
    await withMessages(
      async (m) => {
        if (!m.startsWith('Apply the code block')) return undefined;
        // While the question is open, the preview shows the block against the file.
        previewSeen = await until(
          () => diffTabs().some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.fsPath === uri.fsPath),
          'the preview',
          HOST_BOUND,
        ).then(
          () => true,
          () => false,
        );
        return 'Apply';
      },
      async (shown) => {
        a.service.activeSession().handleWebviewMessage({ type: 'applyCode', path: 'code-apply.ts', text: block });
        await until(() => shown.some((m) => m.startsWith('Applied the code block')), 'applied', HOST_BOUND).catch((e: unknown) =>
          assert.fail(`${String(e)}; shown: ${shown.join(' | ')}`),
        );
      },
    );
    assert.ok(previewSeen, 'a diff of the file against the block was open when the user was asked');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), block);
    assert.ok(doc.isDirty, 'left unsaved, for the user to keep or undo');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await until(() => doc.getText() === 'export const v = 1;\n', 'Undo restored the file text', HOST_BOUND);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('Apply to a new file creates it; a path outside the workspace or in .vscode is refused before any preview', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    await withMessages(
      (m) => (m.startsWith('Apply the code block') ? 'Apply' : undefined),
      async (shown) => {
        a.service.activeSession().handleWebviewMessage({ type: 'applyCode', path: 'code-new/fresh.md', text: '# fresh\n' });
        await until(() => shown.some((m) => m.startsWith('Applied the code block')), 'the new file applied', HOST_BOUND).catch((e: unknown) =>
          assert.fail(`${String(e)}; shown: ${shown.join(' | ')}`),
        );
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, 'code-new/fresh.md')));
        assert.strictEqual(doc.getText(), '# fresh\n');
        await doc.save();
        for (const bad of ['../outside.txt', '/etc/hostname', '.vscode/settings.json', '//server/share/x.ts']) {
          const before = shown.length;
          a.service.activeSession().handleWebviewMessage({ type: 'applyCode', path: bad, text: '{}' });
          const refusal = await until(() => shown.slice(before).find((m) => m.startsWith('ACP Chat did not apply')), `${bad} refused`, HOST_BOUND);
          assert.ok(!shown.slice(before).some((m) => m.startsWith('Apply the code block')), `${bad}: never asked (${refusal})`);
        }
      },
    );
    assert.strictEqual(diffTabs().length, 0);
  });
});

suite('Inline ask', () => {
  test('Ctrl+Alt+K asks about the selection: the chat gets the question with the selection as context, beside the editor', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const uri = await workspaceFile('inline-ask.ts', 'function add(a, b) {\n  return a - b;\n}\n');
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(1, 0, 1, 15);
    const w = vscode.window as unknown as Record<string, unknown>;
    const saved = w['showInputBox'];
    let asked = '';
    w['showInputBox'] = async (o: { title?: string }) => {
      asked = o.title ?? '';
      return 'why does this subtract?';
    };
    try {
      await vscode.commands.executeCommand('acpChat.inlineAsk');
    } finally {
      w['showInputBox'] = saved;
    }
    assert.strictEqual(asked, 'Ask the chat about inline-ask.ts:2');
    const user = await until(
      () => a.transcript().find((e) => e.kind === 'user_message' && e.content.some((b) => b.type === 'text' && b.text === 'why does this subtract?')),
      'the question in the chat',
      10_000,
    );
    assert.ok(user.kind === 'user_message');
    const res = user.content.find((b) => b.type === 'resource');
    assert.ok(res && res.type === 'resource' && 'text' in res.resource && res.resource.text === '  return a - b;', `the selection went with it (${JSON.stringify(user.content)})`);
    // Where the answer is: the chat is visible, and the editor the question came from is still in view.
    const chatId = a.service.activePanel()?.chatId;
    assert.ok(chatId !== undefined && a.service.tabsOf(chatId).some((t) => t.panel.visible));
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === uri.fsPath));
    await a.service.activeSession().whenIdle();
  });

  test('its key is bound to nothing else by default (VS Code keeps Ctrl+I for its own inline chat)', async () => {
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await until(() => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'vscode' && /keybindings/.test(d.uri.path)), 'the default keybindings', 10_000);
    const lines = doc.getText().split('\n');
    assert.ok(
      lines.some((l) => /"key":\s*"ctrl\+alt\+k"/.test(l) && l.includes('acpChat.inlineAsk')),
      'ours is listed',
    );
    const others = lines.filter((l) => /"key":\s*"ctrl\+alt\+k"/.test(l) && !l.includes('acpChat.'));
    assert.deepStrictEqual(others, [], 'ctrl+alt+k has another default binding');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
