/**
 * `fs/write_text_file` through FileAccess in the real extension host: new content lands as a saved
 * workspace edit, and content the file already has (an agent that also wrote the file itself, as OpenCode
 * does) is reported in the log instead of becoming an empty edit with nothing to undo.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { FileAccess } from '../../src/vscode/fsHandlers';

/** A log channel that keeps its info lines (FileAccess only writes info lines). */
function recordingLog(lines: string[]): vscode.LogOutputChannel {
  const log: Pick<vscode.LogOutputChannel, 'info'> = { info: (message: string) => void lines.push(message) };
  return log as vscode.LogOutputChannel;
}

suite('fs/write_text_file through VS Code', () => {
  const who = { agentName: 'Test agent', sessionId: 'file-access-test', scope: 'chat' };
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test host opens a workspace folder');
    return f.uri.fsPath;
  };

  test('new content is a saved workspace edit', async () => {
    const file = path.join(folder(), 'fs-access-new.txt');
    fs.writeFileSync(file, 'hello\n');
    const lines: string[] = [];
    await new FileAccess(recordingLog(lines)).agentWrite(file, 'hello\nworld\n', who);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    assert.ok(doc, 'the document is open in VS Code');
    assert.strictEqual(doc.getText(), 'hello\nworld\n');
    assert.strictEqual(doc.isDirty, false);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'hello\nworld\n');
    assert.ok(lines.some((l) => l.includes('via a workspace edit')), lines.join('\n'));
  });

  test('content the file already has is logged, not applied as an empty edit', async () => {
    const file = path.join(folder(), 'fs-access-same.txt');
    fs.writeFileSync(file, 'already written\n');
    const lines: string[] = [];
    await new FileAccess(recordingLog(lines)).agentWrite(file, 'already written\n', who);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'already written\n');
    assert.ok(lines.some((l) => l.includes('already has this content')), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('via a workspace edit')), lines.join('\n'));
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    assert.ok(doc && !doc.isDirty, 'the document is shown and not dirty');
  });
});
