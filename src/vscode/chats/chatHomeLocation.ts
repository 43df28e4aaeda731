/**
 * This window's workspace as the chats folder (src/node/persistence/chatHome.ts) identifies it: the
 * same for every window of the workspace, whichever path opened it (links are resolved).
 */
import * as vscode from 'vscode';
import { realpath } from 'node:fs/promises';
import type { WorkspaceLocation } from '../../common/chats/workspaceIdentity';

/** This window's workspace: its saved workspace file, else its folders (file folders with links resolved). */
export async function currentWorkspace(): Promise<WorkspaceLocation> {
  const file = vscode.workspace.workspaceFile;
  const folders = await Promise.all((vscode.workspace.workspaceFolders ?? []).map((f) => (f.uri.scheme === 'file' ? resolved(f.uri.fsPath) : f.uri.toString())));
  return file && file.scheme !== 'untitled' ? { workspaceFile: file.scheme === 'file' ? await resolved(file.fsPath) : file.toString(), folders } : { folders };
}

async function resolved(p: string): Promise<string> {
  return realpath(p).catch(() => p);
}
