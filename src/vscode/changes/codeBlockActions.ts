/**
 * A code block's Insert at Cursor and Apply to File. The block and the file it names are agent text: the
 * path is resolved to its real path and must be inside a workspace folder and not configure VS Code or git
 * (the rules the agent's own writes follow, pathBoundary.ts); Apply shows the change in a diff editor and
 * writes only when the user says so, as an edit of the open document (unsaved, so Undo takes it back).
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { isRemotePath } from '../../common/links';
import { noticeText } from '../../common/untrusted';
import { insideAny, isConfigPath, pathStyle } from '../../common/pathBoundary';
import { realPathOf, realRoots } from '../../node/realPath';
import type { VirtualDocuments } from '../workspace/virtualDocuments';
import { columnBesideChat } from '../panel/editorColumns';

/** The text editor the user last worked in: the chat's own panel takes the focus when a block's button is clicked. */
let lastEditor: vscode.TextEditor | undefined;

const isUserDocument = (d: vscode.TextDocument): boolean => d.uri.scheme === 'file' || d.uri.scheme === 'untitled' || d.uri.scheme === 'vscode-remote';

/** Follows the active text editor (call once, at activation). */
export function trackTextEditors(): vscode.Disposable {
  lastEditor = vscode.window.activeTextEditor;
  return vscode.window.onDidChangeActiveTextEditor((e) => {
    if (e && isUserDocument(e.document)) lastEditor = e;
  });
}

/** The text editor the user is in, or was in last (its document may be hidden behind the chat now). */
export function lastTextEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  return active && isUserDocument(active.document) ? active : lastEditor;
}

/** The block's code without the line end that closes every fenced block. */
const codeOf = (text: string): string => text.replace(/\r?\n$/, '');

/**
 * Insert at Cursor: into the active text editor, else the last one the user had, shown again (beside the
 * chat when the chat now covers it) with the selections it had; the editor takes the focus, so the user
 * sees what went in (and can undo it).
 */
export async function insertCode(text: string, chatColumn: vscode.ViewColumn | undefined): Promise<boolean> {
  const target = lastTextEditor();
  if (!target || target.document.isClosed) {
    void vscode.window.showInformationMessage('Open a file and place the cursor where the code should go, then choose Insert at Cursor again.');
    return false;
  }
  const selections = target.selections;
  const viewColumn = target.viewColumn === undefined || target.viewColumn === chatColumn ? columnBesideChat(chatColumn) : target.viewColumn;
  // A fresh editor object: the one remembered may be hidden (and no longer editable) behind the chat.
  const editor = await vscode.window.showTextDocument(target.document, { viewColumn, preserveFocus: false });
  editor.selections = selections;
  const code = codeOf(text);
  return editor.edit((b) => {
    for (const sel of selections) b.replace(sel, code);
  });
}

/** The workspace file a block names, or why it is refused. Relative paths are tried against each folder. */
async function resolveBlockFile(requested: string): Promise<{ uri: vscode.Uri } | { refused: string }> {
  const shown = noticeText(requested);
  if (isRemotePath(requested)) return { refused: `${shown} is on another machine.` };
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  if (roots.length === 0) return { refused: 'Open a folder first: code is applied only to files in the workspace.' };
  const candidates = nodePath.isAbsolute(requested) ? [requested] : roots.map((r) => nodePath.join(r, requested));
  // An existing file wins; a new file goes into the first folder, where the agent works.
  let abs = candidates[0] as string;
  for (const c of candidates) {
    if (await exists(vscode.Uri.file(c))) {
      abs = c;
      break;
    }
  }
  const style = pathStyle(process.platform);
  const real = await realPathOf(abs).catch(() => undefined);
  const realRootList = await realRoots(roots);
  if (real === undefined || !insideAny(realRootList, real, style)) return { refused: `${shown} is outside the workspace.` };
  if (realRootList.some((r) => isConfigPath(r, real, style))) return { refused: `${shown} configures VS Code or git: edit it yourself.` };
  return { uri: vscode.Uri.file(real) };
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return Promise.resolve(vscode.workspace.fs.stat(uri)).then(
    (s) => (s.type & vscode.FileType.File) !== 0,
    () => false,
  );
}

/** Shows the block against the file in a diff editor; on Apply, replaces the file's text with it (undoable). */
export async function applyCode(docs: VirtualDocuments, requested: string, text: string, viewColumn: vscode.ViewColumn): Promise<'applied' | 'cancelled' | 'refused'> {
  const target = await resolveBlockFile(requested);
  if ('refused' in target) {
    void vscode.window.showWarningMessage(noticeText(`ACP Chat did not apply the code block: ${target.refused}`));
    return 'refused';
  }
  const { uri } = target;
  const isNew = !(await exists(uri));
  const name = nodePath.basename(uri.fsPath);
  const rel = vscode.workspace.asRelativePath(uri, false);
  const proposed = docs.add(name, text);
  // The question is asked at once (it waits for the user, not for the editor); the preview opens beside it.
  const preview = Promise.resolve(
    vscode.commands.executeCommand('vscode.diff', isNew ? docs.add(name, '') : uri, proposed, `${name} ↔ code block (preview)`, { preview: true, viewColumn }),
  ).catch(() => undefined);
  const choice = await vscode.window.showInformationMessage(
    noticeText(`Apply the code block to ${rel}${isNew ? ' (a new file)' : ''}? It replaces the file's text, as the diff shows.`),
    'Apply',
    'Cancel',
  );
  // Closed once it has opened (a quick answer must not leave it behind).
  await preview;
  await closePreview(proposed);
  if (choice !== 'Apply') return 'cancelled';
  const edit = new vscode.WorkspaceEdit();
  // A new file is created empty, then filled by the same undoable edit as an existing one (Undo leaves it empty).
  if (isNew) await vscode.workspace.fs.writeFile(uri, new Uint8Array());
  const doc = await vscode.workspace.openTextDocument(uri);
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`ACP Chat could not apply the code block to ${noticeText(rel)}.`);
    return 'cancelled';
  }
  await vscode.window.showTextDocument(uri, { viewColumn, preview: false });
  void vscode.window.showInformationMessage(`Applied the code block to ${noticeText(rel)} (not saved yet: Undo, Ctrl+Z, takes it back).`);
  return 'applied';
}

/** Closes the preview's diff tab (the one whose right side is the proposed text). */
async function closePreview(proposed: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs);
}
