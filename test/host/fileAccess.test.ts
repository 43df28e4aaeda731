/**
 * `fs/write_text_file` through FileAccess in the real extension host: the bytes land on disk through the
 * checked handle (never through VS Code opening the agent's path), an editor open on the file reloads it
 * (one step on its undo stack), an editor with unsaved changes refuses the write rather than lose them,
 * and content the file already has (an agent that also wrote the file itself, as OpenCode does) is
 * reported in the log instead of becoming a change with nothing to undo.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { FileAccess } from '../../src/vscode/workspace/fsHandlers';
import { until } from '../helpers/until.mjs';

/** A log channel that keeps its lines. */
function recordingLog(lines: string[]): vscode.LogOutputChannel {
  const keep = (message: string) => void lines.push(message);
  const log: Pick<vscode.LogOutputChannel, 'info' | 'warn'> = { info: keep, warn: keep };
  return log as vscode.LogOutputChannel;
}

suite('fs/write_text_file through VS Code', () => {
  const who = { agentName: 'Test agent', sessionId: 'file-access-test', scope: 'chat' };
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test host opens a workspace folder');
    return f.uri.fsPath;
  };

  test('new content is written to disk, and returned with the text before for Changes', async () => {
    const file = path.join(folder(), 'fs-access-new.txt');
    fs.writeFileSync(file, 'hello\n');
    const lines: string[] = [];
    const write = await new FileAccess(recordingLog(lines)).agentWrite(file, 'hello\nworld\n', who);
    assert.deepStrictEqual(write, { previous: 'hello\n', written: 'hello\nworld\n' });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'hello\nworld\n');
    assert.ok(
      lines.some((l) => l.includes('written through the checked handle')),
      lines.join('\n'),
    );
  });

  test('an editor open on the file shows the new text, clean, and Ctrl+Z there brings the old text back', async () => {
    const file = path.join(folder(), 'fs-access-open.txt');
    fs.writeFileSync(file, 'one\r\ntwo\r\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    const write = await new FileAccess(recordingLog([])).agentWrite(file, 'one\nthree\n', who);
    assert.deepStrictEqual(write, { previous: 'one\r\ntwo\r\n', written: 'one\r\nthree\r\n' }, 'the file keeps its CRLF');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\r\nthree\r\n');
    await until(() => editor.document.getText() === 'one\r\nthree\r\n', 'the editor to show the new text', 10_000);
    assert.strictEqual(editor.document.isDirty, false);
    await vscode.commands.executeCommand('undo');
    await until(() => editor.document.getText() === 'one\r\ntwo\r\n', 'Ctrl+Z in the editor to bring the old text back', 10_000);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test("a file with unsaved changes in an editor is not written: the user's work and the disk stay as they were", async () => {
    const file = path.join(folder(), 'fs-access-dirty.txt');
    fs.writeFileSync(file, 'saved\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'unsaved ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    const lines: string[] = [];
    await assert.rejects(new FileAccess(recordingLog(lines)).agentWrite(file, 'agent\n', who), /has unsaved changes/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'saved\n');
    assert.strictEqual(doc.getText(), 'unsaved saved\n');
    assert.ok(await doc.save());
  });

  test('content the file already has is logged, not written', async () => {
    const file = path.join(folder(), 'fs-access-same.txt');
    fs.writeFileSync(file, 'already written\r\n');
    const before = fs.statSync(file).ino;
    const lines: string[] = [];
    assert.strictEqual(await new FileAccess(recordingLog(lines)).agentWrite(file, 'already written\n', who), null);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'already written\r\n');
    assert.strictEqual(fs.statSync(file).ino, before, 'the file was not replaced');
    assert.ok(
      lines.some((l) => l.includes('already has this content')),
      lines.join('\n'),
    );
    assert.ok(!lines.some((l) => l.includes('written through')), lines.join('\n'));
  });
});
