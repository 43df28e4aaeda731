/**
 * Entry point. Activation is cheap: it wires the service, commands, the panel serializer and the tree;
 * an agent starts only when a chat is opened (or restored).
 */
import * as vscode from 'vscode';
import { ChatService } from './chatService';
import { CHAT_VIEW_TYPE } from './chatPanel';
import { CommandRegistry } from './commands';
import { createApi, type AcpChatApi } from './api';
import { exportDebugBundle } from './debugBundle';
import { openPersistence } from './filePersistence';

export async function activate(context: vscode.ExtensionContext): Promise<AcpChatApi> {
  const storage = context.storageUri ?? context.globalStorageUri;
  // Persistence opens before the service (and its log) exists: hold its messages until then.
  const early: string[] = [];
  let log = (m: string): void => {
    early.push(m);
  };
  const persistence = await openPersistence(storage, (m) => log(m));
  const s = new ChatService(context, persistence);
  log = (m) => s.log.warn(m);
  for (const m of early) log(m);
  context.subscriptions.push(s);
  context.subscriptions.push({ dispose: () => void persistence.flush() });
  context.subscriptions.push(new CommandRegistry(s, async (target) => void (await exportDebugBundle(s, target ? vscode.Uri.file(target) : undefined))));
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      // VS Code restarts with the panel open: take it over and show the restored transcript at once.
      async deserializeWebviewPanel(panel) {
        s.adoptPanel(panel);
      },
    }),
  );
  if (s.settings.openOnStartup) void s.openChat();
  return createApi(s);
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions, which VS Code disposes after this.
}
