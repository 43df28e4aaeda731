/** Command ids, as data, and their registration. */
import * as vscode from 'vscode';
import { entryIdentity, type TreeNode } from '../common/debug/treeModel';
import { Disposable } from '../common/util/lifecycle';
import { labelText } from '../common/untrusted';
import type { ChatService } from './chats/chatService';
import { chooseMcpServersCommand, mcpChoiceArg } from './agents/mcpChoice';
import { addToChat, urisFrom } from './context/contextCommands';
import { fileItem, problemsItem, selectionItem } from './context/contextItems';
import { inlineAsk } from './context/inlineAsk';
import { showAgentCapabilities, showProtocolLog, showProtocolMessages } from './debug/inspector';
import { deleteChatCommand, pickSession, pickSideBarChat } from './history/chatHistory';
import { pickAgentSession } from './history/agentSessionsList';
import { branch, branchRequestFrom, editMessage, regenerate, retry, type RewindHost } from './changes/rewind';
import { restoreInPlace } from './changes/restoreInPlace';
import { RewindCommands } from '../common/rewind/rewindCommands';
import { askSeveralAgents, registerComparison, severalArg } from './agents/compareAgents';
import { archiveChat, forkChat, forkPointFrom, logout, renameChat, SessionCommands, tellAgentUnarchived, unarchiveChat, type SessionCommandHost } from './chats/sessionCommands';

const Commands = {
  chooseMcpServers: chooseMcpServersCommand,
  openChat: 'acpChat.openChat',
  newChat: 'acpChat.newChat',
  newChatInWorktree: 'acpChat.newChatInWorktree',
  worktreeActions: 'acpChat.worktreeActions',
  askSeveralAgents: 'acpChat.askSeveralAgents',
  showChatInSideBar: 'acpChat.showChatInSideBar',
  deleteChat: 'acpChat.deleteChat',
  pickSideBarChat: 'acpChat.pickSideBarChat',
  selectAgent: 'acpChat.selectAgent',
  newSession: 'acpChat.newSession',
  openSession: 'acpChat.openSession',
  openAgentSession: 'acpChat.openAgentSession',
  restartAgent: 'acpChat.restartAgent',
  cancelTurn: 'acpChat.cancelTurn',
  exportMarkdown: 'acpChat.exportMarkdown',
  exportDebugBundle: 'acpChat.exportDebugBundle',
  showLog: 'acpChat.showLog',
  showInChat: 'acpChat.showInChat',
  copyValue: 'acpChat.copyValue',
  copyKey: 'acpChat.copyKey',
  copyMessageId: 'acpChat.copyMessageId',
  copyToolCallId: 'acpChat.copyToolCallId',
  showProtocolMessages: 'acpChat.showProtocolMessages',
  showProtocolLog: 'acpChat.showProtocolLog',
  showAgentCapabilities: 'acpChat.showAgentCapabilities',
  openCapture: 'acpChat.openCapture',
  checkAgent: 'acpChat.checkAgent',
  addSelectionToChat: 'acpChat.addSelectionToChat',
  addFileToChat: 'acpChat.addFileToChat',
  addProblemsToChat: 'acpChat.addProblemsToChat',
  inlineAsk: 'acpChat.inlineAsk',
  addAgent: 'acpChat.addAgent',
  chatsElsewhere: 'acpChat.chatsElsewhere',
  ...SessionCommands,
} as const;

export class ChatCommands extends Disposable {
  constructor(
    private readonly service: ChatService,
    private readonly exportDebugBundle: (target?: string) => Promise<void>,
    globalStorage: string,
  ) {
    super();
    const s = service;
    this.add(Commands.openChat, async () => {
      await s.openChat();
    });
    // Arguments (for keybindings and other extensions): an agent id; a chat id.
    this.add(Commands.newChat, async (agentId?: unknown) => {
      await s.newChat(typeof agentId === 'string' ? agentId : undefined);
    });
    this.add(Commands.newChatInWorktree, async (agentId?: unknown) => {
      await s.openChat({ newChat: true, worktree: true, ...(typeof agentId === 'string' ? { agentId } : {}) });
    });
    // Argument: a chat id (the header's chip names its chat); default: the focused chat.
    this.add(Commands.worktreeActions, async (chatId?: unknown) => {
      await s.ready();
      await s.worktrees.actions(typeof chatId === 'string' ? chatId : s.focusedChatId);
    });
    const compare = registerComparison(s);
    compare.disposables.forEach((d) => this.register(d));
    s.worktrees.comparison = compare.comparison;
    // Argument (scripts, keybindings): { agentIds, prompt, carry? } skips the pickers.
    this.add(Commands.askSeveralAgents, (arg?: unknown) => askSeveralAgents(s, compare.comparison, severalArg(arg)));
    this.add(Commands.showChatInSideBar, (chatId?: unknown) => s.showInSideBar(typeof chatId === 'string' ? chatId : undefined));
    this.add(Commands.pickSideBarChat, () => pickSideBarChat(s));
    this.add(Commands.deleteChat, (chatId?: unknown) => deleteChatCommand(s, typeof chatId === 'string' ? chatId : undefined));
    this.add(Commands.selectAgent, (id?: unknown) => s.selectAgent(typeof id === 'string' ? id : undefined));
    this.add(Commands.newSession, () => s.newSession());
    this.add(Commands.openSession, () => pickSession(s));
    this.add(Commands.openAgentSession, () => pickAgentSession(s));
    this.add(Commands.restartAgent, async () => {
      await s.ready();
      await (await s.activeChat()).restart();
    });
    // Cancelling or exporting needs a running chat; these never start an agent.
    this.add(Commands.cancelTurn, () => s.existingSession()?.cancel());
    this.add(Commands.exportMarkdown, () => this.withChat((c) => c.handleWebviewMessage({ type: 'exportMarkdown' })));
    this.add(Commands.exportDebugBundle, (target?: unknown) => this.exportDebugBundle(typeof target === 'string' ? target : undefined));
    this.add(Commands.showLog, () => s.log.show());
    this.add(Commands.showProtocolMessages, (node?: unknown) => showProtocolMessages(s, node as TreeNode | undefined));
    this.add(Commands.showProtocolLog, () => showProtocolLog(s));
    this.add(Commands.showAgentCapabilities, () => showAgentCapabilities(s));
    // Loaded on first use (as Add Agent below): a chat never needs them, so activation does not evaluate them.
    this.add(Commands.checkAgent, async (agentId?: unknown) => (await import('./agents/checkAgent')).checkAgent(s, typeof agentId === 'string' ? agentId : undefined));
    this.add(Commands.openCapture, (file?: unknown, mode?: unknown) =>
      s.openCapture(typeof file === 'string' ? file : undefined, mode === 'full' || mode === 'realtime' ? mode : undefined),
    );
    this.add(Commands.showInChat, async (node?: unknown) => {
      const n = node as TreeNode | undefined;
      if (n?.type !== 'entry') return;
      const panel = await s.openChat();
      await panel.whenReady();
      panel.post({ type: 'reveal', key: n.key });
    });
    this.add(Commands.addAgent, async (options?: unknown) => {
      const { addAgent, parseAddAgentOptions } = await import('./agents/addAgent');
      return addAgent(parseAddAgentOptions(options), { globalStorage, log: (line) => s.log.info(line) });
    });
    this.add(Commands.addSelectionToChat, () => addToChat(s, selectionItem(vscode.window.activeTextEditor)));
    this.add(Commands.addProblemsToChat, () => addToChat(s, problemsItem(vscode.window.activeTextEditor)));
    this.add(Commands.inlineAsk, () => inlineAsk(s));
    this.add(Commands.addFileToChat, async (arg?: unknown, all?: unknown) => {
      const uris = urisFrom(arg, all);
      if (uris.length === 0) return addToChat(s, 'Open or select a file first.');
      for (const uri of uris) await addToChat(s, await fileItem(uri));
    });
    // Session operations act on the focused chat (or the one a webview names); a fork opens as a new chat.
    const host: SessionCommandHost = {
      chat: async (chatId) => {
        await s.ready();
        return (chatId !== undefined ? s.chat(chatId) : undefined) ?? (await s.activeChat());
      },
      showFork: async (source, forkSessionId) => {
        await s.openFork(source, forkSessionId);
      },
      focused: () => s.focusedChat,
      chatIdOf: (chat) => s.chatIdOf(chat),
      titleOf: (id) => s.titleOf(id),
      archive: async (id, archived) => {
        s.chatIndex.update(id, { archived });
        if (archived) return s.closeChat(id);
        await s.openChat({ chatId: id });
        const chat = s.chat(id);
        if (chat) await tellAgentUnarchived(chat);
      },
      archived: () => s.chatIndex.archived(),
    };
    this.add(Commands.forkChat, (point?: unknown) => forkChat(host, forkPointFrom(point)));
    const rewind: RewindHost = {
      chat: host.chat,
      chatIdOf: (chat) => s.chatIdOf(chat),
      postTo: async (chat, message) => {
        const id = s.chatIdOf(chat);
        const panel = await s.openChat(id !== undefined ? { chatId: id } : {});
        await panel.whenReady();
        panel.post(message);
      },
      openFork: async (source, forkSessionId) => chatIdOfPanel(await s.openFork(source, forkSessionId)),
      newChat: async (agentId, from) => chatIdOfPanel(await s.openChat({ newChat: true, agentId, from })),
      live: (chatId) => s.chat(chatId),
      setOrigin: (chatId, origin) => s.setOrigin(chatId, origin),
      branchesDir: () => s.branchesDir(),
    };
    this.add(RewindCommands.editMessage, async (point?: unknown) => {
      const p = forkPointFrom(point);
      if (p) await editMessage(rewind, p);
    });
    this.add(RewindCommands.restoreInPlace, async (point?: unknown) => {
      const p = forkPointFrom(point);
      return p ? restoreInPlace(rewind, p) : false;
    });
    this.add(RewindCommands.branch, (req?: unknown) => {
      const r = branchRequestFrom(req);
      return r ? branch(rewind, r) : undefined;
    });
    this.add(RewindCommands.retry, (chatId?: unknown) => retry(rewind, typeof chatId === 'string' ? chatId : undefined));
    this.add(RewindCommands.regenerate, (chatId?: unknown) => regenerate(rewind, typeof chatId === 'string' ? chatId : undefined));
    this.add(Commands.renameChat, (title?: unknown) => renameChat(host, typeof title === 'string' ? title : undefined));
    this.add(Commands.archiveChat, () => archiveChat(host));
    this.add(Commands.unarchiveChat, (sessionId?: unknown) => unarchiveChat(host, typeof sessionId === 'string' ? sessionId : undefined));
    this.add(Commands.logout, () => logout(host));
    // Arguments (tests, other extensions): a chat id and 'readOnly' or 'takeOver'.
    this.add(Commands.chatsElsewhere, async (chatId?: unknown, action?: unknown) => {
      const e = s.chatsElsewhere();
      if (typeof chatId !== 'string') return e.choose();
      if (action === 'readOnly') return e.openReadOnly(chatId);
      if (action === 'takeOver') return e.takeOver(chatId);
      return e.offer(chatId);
    });
    this.add(Commands.chooseMcpServers, async (arg?: unknown) => {
      const a = mcpChoiceArg(arg);
      const chat = await host.chat(a.chatId);
      const id = s.chatIdOf(chat);
      return id === undefined ? undefined : s.mcp.choose(chat, id, a.enabled);
    });
    this.add(Commands.copyValue, (node?: unknown) => this.copy(node, (n) => (n.type === 'detail' ? n.copyValue : undefined)));
    this.add(Commands.copyKey, (node?: unknown) => this.copy(node, (n) => (n.type === 'entry' ? n.key : undefined)));
    this.add(Commands.copyMessageId, (node?: unknown) => this.copy(node, (n) => this.identity(n)));
    this.add(Commands.copyToolCallId, (node?: unknown) => this.copy(node, (n) => this.identity(n)));
  }

  private withChat(fn: (session: NonNullable<ReturnType<ChatService['existingSession']>>) => void): void {
    const session = this.service.existingSession();
    if (session) fn(session);
    else void vscode.window.showInformationMessage('No chat yet: run "ACP: Open Chat" first.');
  }

  private identity(n: TreeNode): string | undefined {
    if (n.type !== 'entry') return undefined;
    for (const { session } of this.service.tree.allSessions()) {
      const e = session.entries.find((x) => x.key === n.key);
      if (e) return entryIdentity(e) ?? undefined;
    }
    return undefined;
  }

  private async copy(node: unknown, pick: (n: TreeNode) => string | undefined): Promise<void> {
    const value = node ? pick(node as TreeNode) : undefined;
    if (value === undefined) {
      void vscode.window.showInformationMessage('Nothing to copy: this entry has no such id.');
      return;
    }
    await vscode.env.clipboard.writeText(value);
    vscode.window.setStatusBarMessage(`Copied ${labelText(value, 80)}`, 3000);
  }

  private add(id: string, fn: (...args: unknown[]) => unknown): void {
    this.register(vscode.commands.registerCommand(id, fn));
  }
}

function chatIdOfPanel(panel: { readonly chatId?: string }): string {
  if (panel.chatId === undefined) throw new Error('the new chat has no id');
  return panel.chatId;
}
