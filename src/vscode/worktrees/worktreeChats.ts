/**
 * Worktree chats in VS Code: whether a new chat (New Chat, Fork, Edit & Rerun) gets a git worktree of its
 * own (`acpChat.newChatWorktree`, or ACP: New Chat in a Worktree…), making it (git does the work:
 * src/node/git), and the actions its header chip offers: Changes, Apply to My Workspace, Commit, Open
 * Folder, Discard. The worktree is recorded on the chat's record (the one owner) before the chat runs.
 */
import * as vscode from 'vscode';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Settings } from '../../common/config/settings';
import type { ChatIndex } from '../../common/chats/chatIndex';
import { labelText, noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { probeNotes, type WorktreeInfo } from '../../common/worktrees/worktreeInfo';
import { hostGit } from '../../node/git/gitRun';
import { probeRepo } from '../../node/git/repoProbe';
import { applyToCheckout, baseText, commitWorktree, createWorktree, discardWorktree, whatDiscardLoses, worktreeFiles, worktreeState } from '../../node/git/worktrees';
import type { ChatController } from '../../node/chat/chatController';
import type { VirtualDocuments } from '../workspace/virtualDocuments';
import { openWorktreeFolder, worktreesDir } from './worktreeBoundary';
import { chatCwd } from '../workspace/workspaceFolders';
import { fileLines, lossText } from '../../common/worktrees/worktreeText';
import type { AgentRun } from '../../common/worktrees/compareRows';

/** What the compare view offers beyond its tree (compareAgents.ts). */
export interface Comparison {
  rows(): AgentRun[];
  chatIds(): string[];
  whenEnded(): Promise<void>;
  /** `confirmed`: the user already agreed (scripts and tests); else a modal names what is lost. */
  keep(chatId: string, confirmed?: boolean): Promise<boolean>;
}

/** What worktree chats need of ChatService (its public members). */
export interface WorktreeService {
  readonly log: vscode.LogOutputChannel;
  readonly docs: VirtualDocuments;
  readonly settings: Settings;
  readonly chatIndex: ChatIndex;
  chat(chatId: string): ChatController | undefined;
  titleOf(chatId: string): string;
  closeChat(chatId: string): void;
}

export class WorktreeChats {
  /** The compare view of Ask Several Agents (set when the commands are registered; read by tests). */
  comparison: Comparison | undefined;

  constructor(
    private readonly s: WorktreeService,
    private readonly globalStorage: () => string,
  ) {}

  dir = (): string => worktreesDir(this.globalStorage());

  info = (chatId: string): WorktreeInfo | undefined => this.s.chatIndex.get(chatId)?.worktree;

  /**
   * A new chat's record exists: give it a worktree when `want` (else the setting) says so, asking when it says
   * `ask`. A chat made from a worktree chat (`from`: a fork or an Edit & Rerun branch) is asked about even under
   * `workspace`, worktree first: its work so far is in that worktree, not in the checkout.
   */
  async offer(chatId: string, want: boolean | undefined, from: string | undefined, carry?: boolean): Promise<void> {
    const source = from !== undefined ? this.info(from) : undefined;
    const setting = this.s.settings.newChatWorktree;
    let make = want ?? setting === 'worktree';
    if (want === undefined && (setting === 'ask' || (source && setting === 'workspace'))) make = await this.askWhere(from !== undefined, source);
    if (!make) return;
    try {
      const info = await this.make(chatId, source, carry);
      if (info) this.s.chatIndex.update(chatId, { worktree: info });
    } catch (e) {
      void vscode.window.showErrorMessage(`The worktree could not be made, so the chat works in the workspace: ${noticeText(errorText(e))}`);
    }
  }

  /** Where a new chat works: in the workspace, or in a new worktree (from its source chat's, when it has one). */
  private async askWhere(continues: boolean, source: WorktreeInfo | undefined): Promise<boolean> {
    const worktree = {
      label: '$(git-branch) In a new worktree',
      detail: labelText(
        source
          ? `A git worktree on a new branch, starting from ${source.branch} as it is now: your checkout stays untouched until you Apply.`
          : 'A git worktree on a new branch: your checkout stays untouched until you Apply.',
      ),
      make: true,
    };
    const workspace = { label: '$(root-folder) In the workspace', detail: 'The agent works in your checkout.', make: false };
    const where = await vscode.window.showQuickPick(source ? [worktree, workspace] : [workspace, worktree], {
      title: labelText(continues ? 'Where does the new branch of the chat work?' : 'Where does the new chat work?'),
      ignoreFocusOut: true,
    });
    return where?.make ?? false;
  }

  /** Probes the repository, asks about uncommitted changes, and makes the worktree; undefined when it cannot (said why). */
  private async make(chatId: string, source: WorktreeInfo | undefined, given: boolean | undefined): Promise<WorktreeInfo | undefined> {
    const from = source?.path ?? chatCwd(this.s.settings.workingFolder);
    if (from === undefined) return void vscode.window.showWarningMessage('A worktree chat needs a workspace folder in a git repository; the chat works without one.');
    const probe = await probeRepo(hostGit, from);
    if (probe.kind !== 'repo') return void vscode.window.showWarningMessage(`${noticeText(probe.message)} The chat works in the workspace.`);
    const notes = probeNotes(probe);
    // A fork carries its source's work (and keeps its base), so its Changes and Apply hold both.
    let carry = source !== undefined || (given ?? false);
    if (!source && probe.dirty && given === undefined) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Start from HEAD', detail: labelText(`Your uncommitted changes stay only in your checkout. ${notes.join(' ')}`), carry: false },
          { label: 'Carry my uncommitted changes over', detail: labelText(`Staged, unstaged and untracked files are copied into the worktree. ${notes.join(' ')}`), carry: true },
        ],
        { title: 'Your checkout has uncommitted changes', ignoreFocusOut: true },
      );
      if (!pick) return undefined;
      carry = pick.carry;
    } else if (notes.length) this.s.log.info(`worktree for chat ${chatId}: ${notes.join(' ')}`);
    const info = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Making the chat’s git worktree…' }, () =>
      createWorktree(hostGit, { repo: source?.path ?? probe.top, head: probe.head, parent: this.dir(), chatId, title: this.s.titleOf(chatId), carry }),
    );
    const made = source ? { ...info, repo: source.repo, base: source.base } : info;
    this.s.log.info(`chat ${chatId} works in worktree ${made.path} on branch ${made.branch} (base ${made.base})`);
    return made;
  }

  /** The header chip's menu (and ACP: Worktree Actions…). */
  async actions(chatId: string | undefined): Promise<void> {
    const info = chatId !== undefined ? this.info(chatId) : undefined;
    if (chatId === undefined || !info) return void vscode.window.showInformationMessage('This chat works in the workspace, not in a worktree of its own.');
    const state = await worktreeState(hostGit, info);
    if (state !== 'ok') {
      const discard = await vscode.window.showWarningMessage(
        noticeText(state === 'missing' ? `The worktree ${info.path} was removed outside ACP Chat; it is not recreated.` : `The repository ${info.repo} is gone.`),
        'Discard the Branch',
      );
      if (discard) await this.discard(chatId, info);
      return;
    }
    const act = await vscode.window.showQuickPick(
      [
        { label: '$(diff) Changes', detail: labelText(`The worktree against its base ${info.base.slice(0, 12)}`), run: () => this.changes(info) },
        {
          label: '$(check) Apply to My Workspace',
          detail: labelText(`The worktree’s changes applied to ${info.repo} (nothing is applied on a conflict)`),
          run: () => this.apply(info),
        },
        { label: '$(git-commit) Commit…', detail: labelText(`On branch ${info.branch}`), run: () => this.commit(chatId, info) },
        { label: '$(folder-opened) Open Folder', detail: labelText(info.path), run: () => openWorktreeFolder(info) },
        { label: '$(trash) Discard…', detail: 'Removes the worktree and its branch (the chat stays in history)', run: () => this.discard(chatId, info) },
      ],
      { title: labelText(`Worktree ${info.branch}`) },
    );
    await act?.run();
  }

  /** The files changed against the base with their line counts; a pick opens its diff. */
  async changes(info: WorktreeInfo): Promise<void> {
    const files = await worktreeFiles(hostGit, info);
    if (files.length === 0) return void vscode.window.showInformationMessage(`No changes in ${noticeText(info.branch)} against its base.`);
    const pick = await vscode.window.showQuickPick(
      fileLines(files).map((f) => ({ label: labelText(f.label), description: labelText(f.counts), file: f.path })),
      { title: labelText(`${info.branch}: ${files.length} file${files.length === 1 ? '' : 's'} changed`) },
    );
    if (pick) await this.openFileDiff(info, pick.file);
  }

  /** One file of the worktree against the base, in a diff editor. */
  async openFileDiff(info: WorktreeInfo, file: string): Promise<void> {
    const before = (await baseText(hostGit, info, file)) ?? '';
    const after = await readFile(path.join(info.path, file), 'utf8').catch(() => '');
    await this.s.docs.openDiff(file, before, after, `${file} (${info.branch} against its base)`, vscode.ViewColumn.Active);
  }

  async apply(info: WorktreeInfo): Promise<boolean> {
    const r = await applyToCheckout(hostGit, info);
    if (r.applied) {
      void vscode.window.showInformationMessage(
        noticeText(
          r.files.length
            ? `Applied ${r.files.length} file${r.files.length === 1 ? '' : 's'} from ${info.branch} to your workspace.`
            : 'Nothing to apply: the worktree has no changes.',
        ),
      );
      return true;
    }
    const names = r.conflicts.length ? r.conflicts.slice(0, 10).join(', ') + (r.conflicts.length > 10 ? ` and ${r.conflicts.length - 10} more` : '') : r.message;
    void vscode.window.showErrorMessage(`Nothing was applied: these files changed in your workspace since the worktree was made: ${noticeText(names)}`);
    return false;
  }

  private async commit(chatId: string, info: WorktreeInfo): Promise<void> {
    const message = await vscode.window.showInputBox({ title: `Commit on ${info.branch}`, value: this.s.titleOf(chatId), prompt: 'The commit message (hooks are not run)' });
    if (!message) return;
    try {
      const sha = await commitWorktree(hostGit, info, message);
      void vscode.window.showInformationMessage(noticeText(sha ? `Committed ${sha.slice(0, 12)} on ${info.branch}.` : 'Nothing to commit.'));
    } catch (e) {
      void vscode.window.showErrorMessage(`The commit failed: ${noticeText(errorText(e))}`);
    }
  }

  /** After a confirmation naming what is lost: the chat stops, its worktree and branch go; the chat stays in history. */
  async discard(chatId: string, info: WorktreeInfo, ask = true): Promise<boolean> {
    if (ask) {
      const loss = await whatDiscardLoses(hostGit, info).catch(() => ({ files: [], commits: 0 }));
      const ok = await vscode.window.showWarningMessage(
        `Discard the worktree of “${noticeText(this.s.titleOf(chatId))}”?`,
        { modal: true, detail: noticeText(lossText(info, loss)) },
        'Discard',
      );
      if (ok !== 'Discard') return false;
    }
    this.s.closeChat(chatId);
    await discardWorktree(hostGit, info);
    this.s.chat(chatId)?.showWorktree();
    this.s.log.info(`chat ${chatId}: worktree ${info.path} and branch ${info.branch} discarded`);
    return true;
  }
}
