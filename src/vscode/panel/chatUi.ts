/** The VS Code side of a chat's UI actions (see `ChatUi`). */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { classifyLink, isRemotePath } from '../../common/links';
import { sessionToMarkdown } from '../../common/export/markdown';
import { labelText, noticeText } from '../../common/untrusted';
import type { Entry } from '../../common/store/model';
import { isDiffV2 } from '../../common/protocol/contentHelpers';
import type { AuthMethod } from '../../common/protocol/requests';
import { asTerminalAuthMethod, isRunnableAuthMethod } from '../../common/protocol/sessionOps';
import { runTerminalAuth } from '../agents/terminalAuth';
import { RewindCommands } from '../../common/rewind/rewindCommands';
import { SessionCommands } from '../chats/sessionCommands';
import type { ChatControls, ChatUi } from '../../node/chat/chatPorts';
import type { VirtualDocuments } from '../workspace/virtualDocuments';
import { errorText } from '../../common/util/errors';
import { ChatPanel, CHAT_VIEW_TYPE } from './chatPanel';
import { applyCode, insertCode } from '../changes/codeBlockActions';
import { columnBesideChat } from './editorColumns';
import { addContextFrom, addDropped } from '../context/contextPicker';

export interface ChatUiDeps {
  readonly docs: VirtualDocuments;
  readonly log: vscode.LogOutputChannel;
  revealInTree(sessionId: string, key: string): void;
  /** True when the chat panel showing this chat is visible to the user. */
  isPanelVisible(chat: ChatControls): boolean;
  showPanel(chat: ChatControls): void;
  /** The editor column the chat panel is in, if it is open. */
  chatColumn(): vscode.ViewColumn | undefined;
  /** The chat's id (commands started from its webview name it). */
  readonly chatId?: string;
  /** Where the panel's script and styles are: given, a subagent's transcript can be opened in a panel of its own. */
  readonly extensionUri?: vscode.Uri;
}

/**
 * A subagent's own transcript in a read-only panel beside the chat (the model answers its requests through
 * the chat); closing the panel disposes the model.
 */
function openSubagentPanel(d: ChatUiDeps, extensionUri: vscode.Uri): NonNullable<ChatUi['openSubagent']> {
  return (model, title) => {
    const webviewPanel = vscode.window.createWebviewPanel(`${CHAT_VIEW_TYPE}.subagent`, `Subagent · ${labelText(title)}`, columnBesideChat(d.chatColumn()), {
      enableScripts: true,
    });
    const panel = new ChatPanel(webviewPanel, extensionUri, model, d.log);
    panel.onDidDispose(() => model.dispose());
  };
}

function failed(d: ChatUiDeps, what: string, e: unknown): void {
  d.log.error(`could not ${what}: ${errorText(e)}`);
  void vscode.window.showErrorMessage(noticeText(`ACP Chat could not ${what}: ${errorText(e)}`));
}

export function createChatUi(d: ChatUiDeps): ChatUi {
  return {
    openLink(href) {
      const target = classifyLink(href);
      switch (target.kind) {
        case 'external':
          void vscode.env.openExternal(vscode.Uri.parse(target.uri, true));
          return;
        case 'file':
          return this.openLocation(target.path, target.line);
        case 'refused':
          d.log.warn(`link not opened: ${target.reason}`);
          void vscode.window.showWarningMessage(`ACP Chat did not open this link: ${noticeText(target.reason)}`);
          return;
      }
    },
    openElicitationUrl(url) {
      void vscode.env.openExternal(vscode.Uri.parse(url, true));
    },
    openLocation(p, line) {
      // Locations come from the agent too (tool calls, the webview's links): never reach for another machine.
      if (isRemotePath(p)) {
        d.log.warn(`location not opened: a path on another machine: ${p}`);
        void vscode.window.showWarningMessage(`ACP Chat did not open a path on another machine: ${noticeText(p)}`);
        return;
      }
      // Agents link workspace files by relative path; resolve them against the workspace folder.
      const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const path = nodePath.isAbsolute(p) || !root ? p : nodePath.join(root, p);
      const pos = line !== null && line > 0 ? new vscode.Position(line - 1, 0) : undefined;
      void vscode.window
        .showTextDocument(vscode.Uri.file(path), {
          preview: true,
          viewColumn: columnBesideChat(d.chatColumn()),
          ...(pos ? { selection: new vscode.Range(pos, pos) } : {}),
        })
        .then(undefined, (e: unknown) => void vscode.window.showErrorMessage(`Could not open ${noticeText(path)}: ${noticeText(errorText(e))}`));
    },
    openDiff(entry: Entry, index: number) {
      if (entry.kind !== 'tool_call') return;
      const c = entry.content[index];
      if (c?.type !== 'diff') return;
      // v2 diffs (`changes` + patch text) carry no whole old/new text to put side by side: the patch opens, coloured.
      if (isDiffV2(c)) {
        const file = c.changes[0]?.path.split(/[\\/]/).pop() ?? 'changes';
        if (c.patch) void d.docs.showPatch(`${entry.title} (${file}).diff`, c.patch.text, columnBesideChat(d.chatColumn()));
        return;
      }
      void d.docs.openDiff(c.path, c.oldText ?? '', c.newText, `${entry.title} (${c.path.split(/[\\/]/).pop() ?? ''})`, columnBesideChat(d.chatColumn()));
    },
    copy(text) {
      void vscode.env.clipboard.writeText(text);
    },
    insertCode(text) {
      insertCode(text, d.chatColumn()).catch((e: unknown) => failed(d, 'insert the code block', e));
    },
    addContext(chat, source) {
      addContextFrom(chat, source).catch((e: unknown) => failed(d, 'add the context', e));
    },
    dropContext(chat, uris) {
      addDropped(chat, uris).catch((e: unknown) => failed(d, 'add the dropped files', e));
    },
    applyCode(path, text) {
      applyCode(d.docs, path, text, columnBesideChat(d.chatColumn())).catch((e: unknown) => failed(d, 'apply the code block', e));
    },
    revealInTree(sessionId, key) {
      d.revealInTree(sessionId, key);
    },
    worktreeActions() {
      if (d.chatId !== undefined) void vscode.commands.executeCommand('acpChat.worktreeActions', d.chatId);
    },
    exportMarkdown(chat) {
      const s = chat.current();
      if (!s) return;
      void vscode.workspace
        .openTextDocument({ language: 'markdown', content: sessionToMarkdown(s, chat.agent.name) })
        .then((doc) => vscode.window.showTextDocument(doc, { preview: false }));
    },
    async chooseAuthMethod(agentName: string, methods: readonly AuthMethod[]) {
      const usable = methods.filter(isRunnableAuthMethod);
      if (usable.length === 0) {
        void vscode.window.showErrorMessage(
          `${noticeText(agentName)} needs you to sign in, but offers no sign-in method ACP Chat can run. Sign in with the agent's own CLI, then restart the agent.`,
        );
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        usable.map((m) => ({
          label: labelText(m.name),
          description: [asTerminalAuthMethod(m) ? '(in a terminal)' : '', typeof m.description === 'string' ? labelText(m.description) : ''].filter(Boolean).join(' '),
          id: m.id,
        })),
        { title: `${labelText(agentName)}: sign in`, placeHolder: 'The agent needs authentication. Choose a method.', ignoreFocusOut: true },
      );
      return pick?.id;
    },
    forkChat(sessionId, key) {
      void vscode.commands.executeCommand(SessionCommands.forkChat, { ...(d.chatId !== undefined ? { chatId: d.chatId } : {}), sessionId, key });
    },
    editMessage(sessionId, key) {
      void vscode.commands.executeCommand(RewindCommands.editMessage, { ...(d.chatId !== undefined ? { chatId: d.chatId } : {}), sessionId, key });
    },
    restoreHere(sessionId, key) {
      void vscode.commands.executeCommand(RewindCommands.restoreInPlace, { ...(d.chatId !== undefined ? { chatId: d.chatId } : {}), sessionId, key });
    },
    branch(sessionId, key, prompt) {
      void vscode.commands.executeCommand(RewindCommands.branch, { ...(d.chatId !== undefined ? { chatId: d.chatId } : {}), sessionId, key, prompt });
    },
    regenerate() {
      void vscode.commands.executeCommand(RewindCommands.regenerate, d.chatId);
    },
    runTerminalAuth(agent, method, cwd) {
      return runTerminalAuth(agent, method, cwd, (m) => d.log.info(m));
    },
    ...(d.extensionUri ? { openSubagent: openSubagentPanel(d, d.extensionUri) } : {}),
    permissionAsked(chat, title) {
      // A permission request must never wait unseen: if the panel is hidden, say so and offer to show it.
      if (d.isPanelVisible(chat)) return;
      void vscode.window.showInformationMessage(`${noticeText(chat.agent.name)} asks for permission: ${noticeText(title)}`, 'Show').then((a) => a === 'Show' && d.showPanel(chat));
    },
    configureAgent(how) {
      // Add Agent writes acpChat.agents; either way the chat starts when the setting names its agent.
      if (how === 'add') void vscode.commands.executeCommand('acpChat.addAgent');
      else void vscode.commands.executeCommand('workbench.action.openSettings', 'acpChat.agents');
    },
  };
}
