/**
 * Add Context, from the prompt box's button or an `@` word: each source gathers its context into the
 * chat's chips, asking (quick picks, an input box) where one more choice is needed.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { labelText, noticeText } from '../../common/untrusted';
import type { ContextSource } from '../../common/webview/contextSources';
import type { ChatControls } from '../../node/chat/chatPorts';
import { fileItem, problemsItem, type NewItem } from './contextItems';
import { droppedItems, findSymbols, folderItem, lastCommandItem, openEditorItems, symbolItem, terminalSelectionItem, workspaceProblemsItem } from './contextSources';
import { lastTextEditor } from '../changes/codeBlockActions';

const EXCLUDE = '**/{node_modules,.git,dist,out,.cache,.vscode-host}/**';

const SOURCES: readonly { source: Exclude<ContextSource, 'pick'>; label: string; description: string }[] = [
  { source: 'file', label: '$(file) Files…', description: 'files of the workspace' },
  { source: 'folder', label: '$(folder) Folder…', description: 'a folder and the files in it' },
  { source: 'editors', label: '$(files) Open Editors', description: 'every file open in an editor' },
  { source: 'problems', label: '$(warning) Problems in This File', description: 'the problems of the editor you were in' },
  { source: 'workspaceProblems', label: '$(warning) Problems in the Workspace', description: 'every problem VS Code shows' },
  { source: 'symbol', label: '$(symbol-method) Symbol…', description: 'a function, class or type, found by name' },
  { source: 'terminalSelection', label: '$(terminal) Terminal Selection', description: 'what is selected in the active terminal' },
  { source: 'terminalCommand', label: '$(terminal) Terminal: Last Command', description: 'the last command run in the active terminal and its output' },
];

export async function addContextFrom(chat: ChatControls, source: ContextSource): Promise<void> {
  const got = await gather(source);
  if (got === undefined) return; // the user closed a picker
  attach(chat, got);
}

export async function addDropped(chat: ChatControls, uris: readonly string[]): Promise<void> {
  const items = await droppedItems(uris);
  attach(chat, items.length ? items : 'Only files and folders on this machine can be dropped on the chat.');
}

function attach(chat: ChatControls, got: NewItem | NewItem[] | string): void {
  if (typeof got === 'string') {
    void vscode.window.showInformationMessage(noticeText(got));
    return;
  }
  for (const item of Array.isArray(got) ? got : [got]) chat.addContext(item);
}

async function gather(source: ContextSource): Promise<NewItem | NewItem[] | string | undefined> {
  switch (source) {
    case 'pick': {
      const pick = await vscode.window.showQuickPick(SOURCES, { title: 'Add Context', placeHolder: 'What should go with your next message?' });
      return pick ? gather(pick.source) : undefined;
    }
    case 'file': {
      const picks = await vscode.window.showQuickPick(workspacePaths(false), { title: 'Add Files to the Chat', canPickMany: true, matchOnDescription: true });
      if (!picks?.length) return undefined;
      const items = await Promise.all(picks.map((p) => fileItem(p.uri)));
      return items.filter((i): i is NewItem => typeof i !== 'string');
    }
    case 'folder': {
      const pick = await vscode.window.showQuickPick(workspacePaths(true), { title: 'Add a Folder to the Chat', matchOnDescription: true });
      return pick ? folderItem(pick.uri) : undefined;
    }
    case 'editors':
      return openEditorItems();
    case 'problems':
      return problemsItem(lastTextEditor());
    case 'workspaceProblems':
      return workspaceProblemsItem();
    case 'symbol':
      return pickSymbol();
    case 'terminalSelection':
      return terminalSelectionItem();
    case 'terminalCommand':
      return lastCommandItem();
  }
}

/** Workspace files (or their folders, with the workspace folders themselves), relative, for a quick pick. */
async function workspacePaths(folders: boolean): Promise<{ label: string; description: string; uri: vscode.Uri }[]> {
  const files = await vscode.workspace.findFiles('**/*', EXCLUDE, 5000);
  const uris = new Map<string, vscode.Uri>();
  if (folders) {
    for (const f of vscode.workspace.workspaceFolders ?? []) uris.set(f.uri.toString(), f.uri);
    for (const f of files) {
      let dir = vscode.Uri.joinPath(f, '..');
      while (vscode.workspace.getWorkspaceFolder(dir) && !uris.has(dir.toString())) {
        uris.set(dir.toString(), dir);
        dir = vscode.Uri.joinPath(dir, '..');
      }
    }
  } else for (const f of files) uris.set(f.toString(), f);
  return [...uris.values()]
    .map((uri) => {
      const rel = vscode.workspace.asRelativePath(uri, false);
      return { label: `${folders ? '$(folder)' : '$(file)'} ${nodePath.basename(uri.fsPath)}`, description: rel === uri.fsPath ? '' : rel, uri };
    })
    .sort((a, b) => a.description.localeCompare(b.description));
}

/** A symbol, found by name through the language servers (workspace symbol search), then picked. */
async function pickSymbol(): Promise<NewItem | string | undefined> {
  const query = await vscode.window.showInputBox({ title: 'Add a Symbol to the Chat', prompt: 'A function, class or type name (or the start of it)' });
  if (!query?.trim()) return undefined;
  const found = await findSymbols(query.trim());
  if (found.length === 0) return `No symbol named like "${query.trim()}" in the workspace (the file's language support must be installed).`;
  const pick = await vscode.window.showQuickPick(
    found.map((s) => ({
      label: labelText(s.name),
      description: labelText(s.containerName),
      detail: labelText(`${vscode.workspace.asRelativePath(s.location.uri, false)}:${s.location.range.start.line + 1}`),
      symbol: s,
    })),
    { title: 'Add a Symbol to the Chat', matchOnDetail: true },
  );
  return pick ? symbolItem(pick.symbol) : undefined;
}
