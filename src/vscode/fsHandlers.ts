/**
 * `fs/read_text_file` and `fs/write_text_file` through VS Code, so an agent sees what the user sees:
 * reads return an open editor's unsaved text, and writes go through a WorkspaceEdit (undoable, shown in
 * the editor) and are then saved so tools that read the disk see them. Writes outside the workspace
 * folders need the user's consent.
 */
import * as vscode from 'vscode';
import { isInside, sliceLines } from '../common/text';

export class FileAccess {
  /** Folders the user already allowed writing outside the workspace for, this session. */
  private readonly allowedOutside = new Set<string>();

  /** `chatColumn`: where the chat panel is, so edited files never open over it. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly chatColumn: () => vscode.ViewColumn | undefined = () => undefined,
  ) {}

  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const uri = vscode.Uri.file(path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return sliceLines(text, line, limit);
  }

  async write(path: string, content: string, agentName: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    await this.checkOutsideWorkspace(uri, agentName);
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    const edit = new vscode.WorkspaceEdit();
    if (!exists) {
      edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode('') });
    }
    const current = exists ? await vscode.workspace.openTextDocument(uri) : undefined;
    const end = current ? current.lineAt(current.lineCount - 1).range.end : new vscode.Position(0, 0);
    edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), end), content, {
      label: `${agentName} edited ${vscode.workspace.asRelativePath(uri)}`,
      needsConfirmation: false,
    });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${path}`);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!(await doc.save())) throw new Error(`could not save ${path}`);
    // Follow the agent: show the edited file (without taking focus from the chat), so the change is
    // visible and can be undone right there — in another editor group than the chat's, never over it.
    const chat = this.chatColumn();
    const column = chat === undefined || chat !== vscode.ViewColumn.One ? vscode.ViewColumn.One : vscode.ViewColumn.Two;
    await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: true, preview: true });
    this.log.info(`fs/write_text_file: ${path} (${content.length} chars) via a workspace edit`);
  }

  private async checkOutsideWorkspace(uri: vscode.Uri, agentName: string): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.some((f) => isInside(f.uri.fsPath, uri.fsPath))) return;
    const dir = vscode.Uri.joinPath(uri, '..').fsPath;
    if ([...this.allowedOutside].some((d) => isInside(d, uri.fsPath))) return;
    const allow = 'Allow';
    const always = 'Allow for this folder';
    const answer = await vscode.window.showWarningMessage(
      `${agentName} wants to write a file outside the workspace`,
      { modal: true, detail: uri.fsPath },
      allow,
      always,
    );
    if (answer === always) this.allowedOutside.add(dir);
    if (answer !== allow && answer !== always) throw new Error(`the user did not allow writing ${uri.fsPath} (outside the workspace)`);
  }
}
