/**
 * What makes a chat a worktree chat when it is built (chatFactory.ts): its file access confined to its
 * worktree (the user's checkout, the repository's top and every other chat's worktree refused outright),
 * the header's worktree chip, and, when the worktree was removed from outside ACP Chat, an agent start that
 * says so instead of recreating it.
 */
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ChatRecord } from '../../common/chats/chatIndex';
import type { WorktreeInfo } from '../../common/worktrees/worktreeInfo';
import type { WorktreeView } from '../../common/webview/contract';
import type { ConnectAgent } from '../../node/acp/agentLink';
import type { FileAccess } from '../workspace/fsHandlers';
import { rootFolders } from '../workspace/workspaceFolders';

export interface ChatWorktree {
  readonly info: WorktreeInfo;
  readonly files: FileAccess;
  /** The folder was gone when the chat was made live (removed from outside): the agent is not started. */
  readonly missing: boolean;
  view(): WorktreeView;
}

/** Where every worktree chat's worktree is made: the extension's storage, never inside a workspace. */
export function worktreesDir(globalStorage: string): string {
  return path.join(globalStorage, 'worktrees');
}

export function worktreeOf(chat: ChatRecord, shared: FileAccess, dir: string): ChatWorktree | undefined {
  const info = chat.worktree;
  if (!info) return undefined;
  const missing = !existsSync(info.path);
  const files = shared.confined({ root: info.path, fenced: () => [info.repo, dir, ...rootFolders().map((f) => f.path)] });
  return { info, files, missing, view: () => ({ branch: info.branch, path: info.path, missing: missing || !existsSync(info.path) }) };
}

/** The agent start of a chat whose worktree is gone: an error that says what happened and what to do. */
export function worktreeGone(info: WorktreeInfo): ConnectAgent {
  return () =>
    Promise.reject(
      new Error(
        `This chat's worktree ${info.path} (branch ${info.branch}) was removed outside ACP Chat, so its agent is not started; it is not recreated. The transcript stays readable; use Worktree Actions… → Discard to remove the branch, or start a new chat.`,
      ),
    );
}

/** Opens a worktree's folder in a new window (VS Code's own command). */
export function openWorktreeFolder(info: WorktreeInfo): Thenable<unknown> {
  return vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(info.path), { forceNewWindow: true });
}
