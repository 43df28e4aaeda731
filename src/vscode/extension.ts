/**
 * Entry point. Activation is cheap: it wires the service, commands, the tab serializer, the side bar
 * view and the tree; an agent starts only when a chat is opened (or restored).
 */
import * as vscode from 'vscode';
import { ChatService } from './chatService';
import { CHAT_VIEW_TYPE } from './chatPanel';
import { CHAT_SIDEBAR_VIEW } from './sideBarView';
import { CommandRegistry } from './commands';
import { createApi, type AcpChatApi } from './api';
import { exportDebugBundle } from './debugBundle';
import { openPersistence } from './filePersistence';

export async function activate(context: vscode.ExtensionContext): Promise<AcpChatApi> {
  const storage = context.storageUri ?? context.globalStorageUri;
  // Saved chats are opened on first use, not here: activation stays cheap.
  const s: ChatService = new ChatService(context, () => openPersistence(storage, (m) => s.log.warn(m)));
  context.subscriptions.push(s);
  context.subscriptions.push(new CommandRegistry(s, async (target) => void (await exportDebugBundle(s, target ? vscode.Uri.file(target) : undefined))));
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      // VS Code restarts with the panel open: take it over and show the restored transcript at once.
      // Each tab's webview saved the id of the chat it shows (WebviewPersistedState.chatId).
      async deserializeWebviewPanel(panel, state: unknown) {
        await s.ready();
        const chatId = typeof state === 'object' && state !== null && 'chatId' in state && typeof state.chatId === 'string' ? state.chatId : undefined;
        s.adoptPanel(panel, chatId);
      },
    }),
    vscode.window.registerWebviewViewProvider(CHAT_SIDEBAR_VIEW, s.sideBar),
  );
  if (s.settings.openOnStartup) void s.openChat();
  return createApi(s);
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions, which VS Code disposes after this.
}
