/**
 * The VS Code side of the Changes summary: a chat's ChangeReview (src/common/changes) with its files,
 * diff editor, notifications and saved state. Undo goes through a WorkspaceEdit, so it lands in the
 * editor's undo stack (Ctrl+Z brings the agent's version back) and respects an open editor: the file's
 * "text now" is an open editor's unsaved text when it has any, else the disk.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { ChangeReview } from '../../common/changes/review';
import { restoreChanges, savedChanges } from '../../common/changes/persist';
import type { ChangesState } from '../../common/changes/model';
import { noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { relativePath } from '../../common/webview/shownPath';
import type { VirtualDocuments } from '../workspace/virtualDocuments';
import { columnBesideChat } from '../panel/editorColumns';
import { editorReviews } from './editorReviews';
import { followFiles } from './followFiles';
import { reviewPath } from '../../common/changes/reviewPath';

export interface TurnChangesDeps {
  readonly docs: VirtualDocuments;
  readonly log: (level: 'info' | 'warn' | 'error', message: string) => void;
  readonly agentName: () => string;
  /** Where relative paths an agent reports are resolved. */
  readonly cwd: string;
  readonly chatColumn: () => vscode.ViewColumn | undefined;
  /** The summaries saved with the chat (undefined: none), and how they are saved (recorded in the chat's store). */
  readonly saved: unknown;
  readonly save: (saved: unknown) => void;
  readonly insideWorkspace: (path: string) => Promise<boolean>;
}

/** Saving waits this long for more changes: an agent writing many files in a turn is saved once, not per write. */
const SAVE_DELAY_MS = 200;

export function createTurnChanges(d: TurnChangesDeps): ChangeReview {
  const restored = restoreChanges(d.saved);
  if (restored.problem) d.log('warn', restored.problem);
  let pending: ChangesState | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const state = pending;
    pending = undefined;
    if (state) d.save(savedChanges(state));
  };
  const review = new ChangeReview(
    {
      files: { read: readNow, restore, restoreAll, replaceRange, mayRestore: (p) => d.insideWorkspace(p) },
      agentName: d.agentName,
      canonical: (p) => reviewPath(nodePath.isAbsolute(p) ? nodePath.normalize(p) : nodePath.resolve(d.cwd, p)),
      // A worktree chat's files are outside the workspace: shown relative to its cwd (the worktree) instead.
      shownPath: (p) => {
        const shown = vscode.workspace.asRelativePath(p);
        return shown === p ? (relativePath(p, [d.cwd]) ?? p) : shown;
      },
      openDiff: (p, left, right, title) => {
        void d.docs
          .openDiff(p, left, right, title, columnBesideChat(d.chatColumn()))
          .then(undefined, (e: unknown) => d.log('warn', `changes: could not open the diff of ${p}: ${errorText(e)}`));
      },
      reveal: (p, line) => {
        const at = new vscode.Range(line, 0, line, 0);
        void vscode.window
          .showTextDocument(vscode.Uri.file(p), { viewColumn: columnBesideChat(d.chatColumn()), selection: at, preview: false })
          .then(undefined, (e: unknown) => d.log('warn', `changes: could not open ${p}: ${errorText(e)}`));
      },
      confirm: async (message, yes) => (await vscode.window.showWarningMessage(noticeText(message), { modal: true }, yes)) === yes,
      explain: (message, compare) => {
        d.log('info', `changes: ${message}`);
        // Agent-controlled paths are in the message: made inert for a notification.
        void vscode.window.showWarningMessage(noticeText(message), ...(compare ? ['Compare'] : [])).then((a) => a === 'Compare' && compare?.());
      },
      save: (state) => {
        pending = state;
        timer ??= setTimeout(flush, SAVE_DELAY_MS);
      },
      flush,
      log: d.log,
    },
    restored.state,
  );
  editorReviews.add(review, d.agentName);
  followFiles(review);
  return review;
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === uri.fsPath);
}

async function readDisk(uri: vscode.Uri): Promise<string | null> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return null;
    throw e;
  }
}

/** The text the user sees now: an open editor's unsaved text, else the disk (an unchanged editor may lag the disk). */
async function readNow(path: string): Promise<string | null> {
  const uri = vscode.Uri.file(path);
  const open = openDocument(uri);
  return open?.isDirty ? open.getText() : readDisk(uri);
}

/** Puts `text` back (null: deletes the file) through a WorkspaceEdit; saved unless the editor held unsaved changes. */
async function restore(path: string, text: string | null, label: string): Promise<void> {
  const uri = vscode.Uri.file(path);
  const edit = new vscode.WorkspaceEdit();
  const meta = { label, needsConfirmation: false };
  if (text === null) {
    edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused to delete the file');
    return;
  }
  if ((await readDisk(uri)) === null) {
    edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(text) }, meta);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused to create the file');
    return;
  }
  const open = openDocument(uri);
  if (open && !open.isDirty && open.getText() !== (await readDisk(uri))) {
    // The editor has not caught up with the agent's write to disk yet: editing its old text and saving
    // would be refused as a conflict, so the file is written directly (the editor then reloads it).
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return;
  }
  const doc = open ?? (await vscode.workspace.openTextDocument(uri));
  const wasDirty = doc.isDirty;
  edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), doc.lineAt(doc.lineCount - 1).range.end), text, meta);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  // Tools that read the disk (the agent's) must see the undo too; unsaved work of the user's stays unsaved.
  if (!wasDirty && !(await doc.save())) throw new Error('could not save the file');
}

/** Replaces characters [from, to) of a file that holds `expected`, as one editor edit; saved unless it held unsaved changes. */
async function replaceRange(path: string, expected: string, from: number, to: number, text: string, label: string): Promise<void> {
  const uri = vscode.Uri.file(path);
  const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
  if (!doc.isDirty) await caughtUp(doc, await readDisk(uri));
  if (doc.getText() !== expected) throw new Error('the file changed while the change was undone; nothing was written');
  const wasDirty = doc.isDirty;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(from), doc.positionAt(to)), text, { label, needsConfirmation: false });
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  if (!wasDirty && !(await doc.save())) throw new Error('could not save the file');
}

/** Resolves once `doc` holds `disk` (VS Code reloads a clean document when its file changes), or after a bound. */
function caughtUp(doc: vscode.TextDocument, disk: string | null, ms = 5_000): Promise<void> {
  if (disk === null || doc.getText() === disk) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && doc.getText() === disk) done();
    });
    const timer = setTimeout(done, ms);
  });
}

/**
 * Several restores as one WorkspaceEdit (a rewind: one Ctrl+Z in the editor brings them all back). Files
 * that were not dirty are saved afterwards, so the agent's tools read the disk as the user sees it.
 */
async function restoreAll(items: readonly { readonly path: string; readonly text: string | null }[], label: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const meta = { label, needsConfirmation: false };
  const toSave: vscode.TextDocument[] = [];
  for (const { path, text } of items) {
    const uri = vscode.Uri.file(path);
    if (text === null) edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    else if ((await readDisk(uri)) === null) edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(text) }, meta);
    else {
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      // An editor that has not caught up with the agent's last write to disk would make VS Code refuse
      // the whole edit ("changed in the meantime"): wait until it has reloaded the file.
      if (!doc.isDirty) await caughtUp(doc, await readDisk(uri));
      if (!doc.isDirty) toSave.push(doc);
      edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), doc.lineAt(doc.lineCount - 1).range.end), text, meta);
    }
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  for (const doc of toSave) if (!(await doc.save())) throw new Error(`could not save ${doc.uri.fsPath}`);
}
