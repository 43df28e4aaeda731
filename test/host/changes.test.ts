/**
 * The Changes summary through the real VS Code APIs, driven by the messages the panel's buttons post:
 * a demo-agent edit (fs/write_text_file) undone back to the previous text; the conflict case (the file
 * changed after the agent wrote it: Undo explains and does not overwrite); an edit the agent made on
 * disk itself and reported only as a fragment diff, undone too (and redone with Ctrl+Z in the editor);
 * Keep All.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';
import type { ChangeSetView } from '../../src/common/changes/view';

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host opens a workspace folder');
  return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

const onDisk = (uri: vscode.Uri) => vscode.workspace.fs.readFile(uri).then(decode, () => null);

function summaries(a: AcpChatApi): readonly ChangeSetView[] {
  return a.service.activeSession().panelState().changeSets;
}

/** Runs a prompt, allowing every permission request, and returns the turn's Changes summary. */
async function turnWithChanges(a: AcpChatApi, prompt: string): Promise<ChangeSetView> {
  const before = new Set(summaries(a).map((s) => s.id));
  const turn = a.sendPrompt(prompt);
  if (/edit/.test(prompt)) {
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
  }
  await turn;
  const set = summaries(a).find((s) => !before.has(s.id));
  assert.ok(set, `the turn "${prompt}" left a Changes summary`);
  const last = a.transcript().at(-1);
  assert.strictEqual(set.afterKey, last?.key, "the summary follows the turn's last entry");
  return set;
}

function click(a: AcpChatApi, setId: string, index: number | null, action: 'openDiff' | 'keep' | 'undo'): void {
  a.service.activeSession().handleWebviewMessage({ type: 'changes', setId, index, action });
}

const fileState = (a: AcpChatApi, setId: string, index: number) => summaries(a).find((s) => s.id === setId)?.files[index];

suite('Changes summary: keep and undo agent edits', () => {
  test('Undo puts back the text the file held before the agent wrote it, through a saved workspace edit', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const target = workspaceFile('demo-edit.txt');
    const before = await onDisk(target);
    const set = await turnWithChanges(a, 'please edit the file');
    const index = set.files.findIndex((f) => f.path.endsWith('demo-edit.txt'));
    const file = set.files[index];
    assert.ok(file, `demo-edit.txt is listed (${set.files.map((f) => f.path).join(', ')})`);
    assert.strictEqual(file.source, 'write');
    assert.strictEqual(file.state, 'pending');
    assert.strictEqual(file.canUndo, true);
    assert.notStrictEqual(await onDisk(target), before, 'the agent changed the file');

    click(a, set.id, index, 'openDiff');
    const tab = await until(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.startsWith('demo-edit.txt: before')),
      'the diff editor',
      10_000,
    );
    await vscode.window.tabGroups.close(tab);

    click(a, set.id, index, 'undo');
    await until(() => fileState(a, set.id, index)?.state === 'undone', 'the file shown undone', 10_000);
    if (before === null) assert.strictEqual(await onDisk(target), null, 'a file the agent created is deleted');
    else {
      assert.strictEqual(await onDisk(target), before);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === target.fsPath);
      if (doc) {
        assert.strictEqual(doc.getText(), before, 'the open editor shows the previous text');
        assert.strictEqual(doc.isDirty, false, 'and it is saved');
      }
    }
    assert.strictEqual(fileState(a, set.id, index)?.canUndo, false);
  });

  test('a file changed after the agent wrote it is left alone, and the summary says why', async () => {
    const a = await api();
    const target = workspaceFile('demo-edit.txt');
    const set = await turnWithChanges(a, 'edit the file again');
    const index = set.files.findIndex((f) => f.path.endsWith('demo-edit.txt'));
    assert.ok(index >= 0);
    // The user edits the file after the agent (through the editor, saved).
    const doc = await vscode.workspace.openTextDocument(target);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(target, new vscode.Position(0, 0), 'my own line\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    const mine = doc.getText();

    click(a, set.id, index, 'undo');
    const row = await until(() => (fileState(a, set.id, index)?.state === 'conflict' ? fileState(a, set.id, index) : undefined), 'the conflict shown', 10_000);
    assert.match(row.note ?? '', /demo-edit\.txt changed after .*'s edit, so Undo left it alone/);
    assert.strictEqual(await onDisk(target), mine, "the user's text is not overwritten");
    assert.strictEqual(doc.getText(), mine);
    // Keep accepts the file as it is.
    click(a, set.id, index, 'keep');
    await until(() => fileState(a, set.id, index)?.state === 'kept', 'the file kept', 10_000);
    assert.strictEqual(await onDisk(target), mine);
  });

  test('an edit the agent made itself and reported as a fragment diff is undone too', async () => {
    const a = await api();
    const target = workspaceFile('demo-self.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('first line\nlast line\n'));
    const set = await turnWithChanges(a, 'change a file yourself');
    const index = set.files.findIndex((f) => f.path.endsWith('demo-self.txt'));
    const file = set.files[index];
    assert.ok(file, `demo-self.txt is listed (${set.files.map((f) => f.path).join(', ')})`);
    assert.strictEqual(file.source, 'diff');
    assert.strictEqual(file.canUndo, true, file.note ?? '');
    assert.deepStrictEqual([file.added, file.removed], [1, 0]);
    assert.match((await onDisk(target)) ?? '', /^first line\nlast line\nChanged by the demo agent itself/);
    const agents = await onDisk(target);
    click(a, set.id, index, 'undo');
    await until(() => fileState(a, set.id, index)?.state === 'undone', 'the file shown undone', 10_000);
    assert.strictEqual(await onDisk(target), 'first line\nlast line\n');
    // The Undo is an edit in the editor's undo stack: Ctrl+Z there brings the agent's version back.
    const editor = await vscode.window.showTextDocument(target, { preview: false });
    assert.strictEqual(editor.document.getText(), 'first line\nlast line\n');
    await vscode.commands.executeCommand('undo');
    await until(() => editor.document.getText() === agents, "Ctrl+Z in the editor to bring the agent's text back", 10_000);
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Keep All keeps every file of the turn as the agent left it', async () => {
    const a = await api();
    const edited = workspaceFile('demo-edit.txt');
    const self = workspaceFile('demo-self.txt');
    const set = await turnWithChanges(a, 'edit the file and change another yourself');
    assert.deepStrictEqual(set.files.map((f) => path.basename(f.path)).sort(), ['demo-edit.txt', 'demo-self.txt']);
    const texts = [await onDisk(edited), await onDisk(self)];
    click(a, set.id, null, 'keep');
    await until(
      () =>
        summaries(a)
          .find((s) => s.id === set.id)
          ?.files.every((f) => f.state === 'kept'),
      'every file kept',
      10_000,
    );
    assert.deepStrictEqual([await onDisk(edited), await onDisk(self)], texts);
    assert.ok(
      summaries(a)
        .find((s) => s.id === set.id)
        ?.files.every((f) => !f.canUndo),
      'nothing left to undo',
    );
  });
});
