/**
 * The workspace's folders for the chats (VS Code glue of `common/workspaceRoots.ts`): the folder a new chat
 * works in, the others sent beside it as `additionalDirectories`, and a notice in every live chat when a
 * folder is added or removed (the agent hears of it on its next session; file access follows at once,
 * `fsHandlers.ts` reads the folders at each request).
 */
import * as vscode from 'vscode';
import { pathStyle } from '../../common/pathBoundary';
import { additionalRoots, foldersChangedText, pickCwd, type RootFolder } from '../../common/workspaceRoots';
import type { ChatController } from '../../node/chat/chatController';

const style = pathStyle(process.platform);

/** The workspace's folders on disk, in the workspace's order. */
export function rootFolders(): RootFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
}

/** The folder a new chat works in (`acpChat.workingFolder`, else the first), undefined without one. */
export function chatCwd(preferred: string): string | undefined {
  return pickCwd(rootFolders(), preferred, style);
}

/** The workspace's folders beside the chat's `cwd`, now. */
export function otherFolders(cwd: string): string[] {
  return additionalRoots(rootFolders(), cwd, style);
}

/** Says in each live chat which folders came or went. */
export function watchWorkspaceFolders(chats: () => Iterable<ChatController>): vscode.Disposable {
  return vscode.workspace.onDidChangeWorkspaceFolders((e) => {
    const names = (list: readonly vscode.WorkspaceFolder[]) => list.filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const added = names(e.added);
    const removed = names(e.removed);
    for (const chat of chats()) {
      const caps = chat.door.facts()?.capabilities;
      const supported = caps === undefined ? undefined : !!caps.sessionCapabilities?.additionalDirectories;
      const text = foldersChangedText(added, removed, supported);
      if (text) chat.notice({ severity: 'info', ...text });
    }
  });
}
