/**
 * A chat in an editor tab: a WebviewPanel showing one chat (ChatWebview does the messaging). Each tab
 * keeps its chat id in the webview's saved state, so after a reload the serializer gives every restored
 * tab its own chat back.
 */
import * as vscode from 'vscode';
import { ChatWebview, type ChatModel } from './chatWebview';

export { type ChatModel } from './chatWebview';

export const CHAT_VIEW_TYPE = 'acpChat.chat';

export class ChatPanel extends ChatWebview {
  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    model: ChatModel,
    log: vscode.LogOutputChannel,
    findFiles?: (query: string) => Promise<string[]>,
    chatId?: string,
  ) {
    super(
      {
        webview: panel.webview,
        get visible() {
          return panel.visible;
        },
        onDidChangeVisibility: panel.onDidChangeViewState,
        onDidDispose: panel.onDidDispose,
        close: () => panel.dispose(),
      },
      extensionUri,
      model,
      log,
      findFiles,
      chatId,
    );
    panel.iconPath = {
      light: vscode.Uri.joinPath(extensionUri, 'media', 'icons', 'chat-light.svg'),
      dark: vscode.Uri.joinPath(extensionUri, 'media', 'icons', 'chat-dark.svg'),
    };
  }
}
