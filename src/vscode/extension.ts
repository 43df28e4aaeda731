/**
 * Entry point. Activation is cheap: it wires the service, commands, the tab serializer, the side bar
 * view and the tree; an agent starts only when a chat is opened (or restored).
 */
import * as vscode from 'vscode';
import { ChatService } from './chats/chatService';
import { CHAT_VIEW_TYPE } from './panel/chatPanel';
import { CHAT_SIDEBAR_VIEW } from './panel/sideBarView';
import { HISTORY_VIEW, HistoryView } from './history/historyView';
import { ChatCommands } from './commands';
import { HunkEditor } from './changes/hunkEditor';
import { HunkCommands } from './changes/hunkCommands';
import { agentSecrets } from './agents/agentSecrets';
import { connectAgent } from '../node/acp/connectAgent';
import { createApi, type ChatApi } from '../node/chat/api';
import { openPersistence } from '../node/chat/filePersistence';
import { noticeText } from '../common/untrusted';
import { currentWorkspace } from './chats/chatHomeLocation';
import { chatHome } from '../node/persistence/chatHome';
import { trackTextEditors } from './changes/codeBlockActions';
import { trackTerminalCommands } from './context/contextSources';
import { setPageEarly } from './panel/chatPage';

/** How long after activation the saved chats are opened, if no chat opened them first (activation itself reads none). */
const WARM_UP_MS = 1_000;

/** What `activate()` returns (see ChatApi), with this extension's chat service. */
export type AcpChatApi = ChatApi<ChatService>;

export async function activate(context: vscode.ExtensionContext): Promise<AcpChatApi> {
  // Saved chats are opened on first use, not here: activation stays cheap. They are kept per workspace
  // where every window of it finds them (chatHomeLocation.ts), not in this window's storage folder.
  const s: ChatService = new ChatService(
    context,
    async () => {
      const log = (m: string) => s.log.warn(m);
      const home = await chatHome(
        { globalStorage: context.globalStorageUri.fsPath, storage: context.storageUri?.fsPath, location: await currentWorkspace(), platform: process.platform },
        log,
      ).catch((e: unknown) => {
        log(`chat persistence is off: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (home && home.recovered > 0)
        void vscode.window.showInformationMessage(
          noticeText(`ACP Chat: ${home.recovered} chat(s) of this workspace were found in another storage folder of VS Code and are listed again (ACP: Open Session…).`),
        );
      return openPersistence(home?.dir, log);
    },
    connectAgent(agentSecrets(context).headers),
  ); // a remote agent's tokens: SecretStorage, asked once
  context.subscriptions.push(s, trackTextEditors(), trackTerminalCommands());
  // The debug bundle's code is loaded when it is asked for, not at activation.
  const exportBundle = async (target?: string) => void (await (await import('./debug/debugBundle')).exportDebugBundle(s, target ? vscode.Uri.file(target) : undefined));
  context.subscriptions.push(new ChatCommands(s, exportBundle, context.globalStorageUri.fsPath));
  // Review in the editor: the hunks of the chats' open changes, drawn in the files they changed.
  const hunks = new HunkEditor();
  context.subscriptions.push(hunks, new HunkCommands(hunks));
  context.subscriptions.push(
    vscode.commands.registerCommand('acpChat.forgetAgentTokens', async () => {
      const n = await agentSecrets(context).forget();
      void vscode.window.showInformationMessage(
        noticeText(n > 0 ? `ACP Chat forgot ${n} stored agent token(s); the next connect asks again.` : 'ACP Chat has no stored agent tokens.'),
      );
    }),
  );
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      // VS Code restarts with the panel open: take it over and show the restored transcript at once.
      // Each tab's webview saved the id of the chat it shows (WebviewPersistedState.chatId).
      async deserializeWebviewPanel(panel, state: unknown) {
        const chatId = typeof state === 'object' && state !== null && 'chatId' in state && typeof state.chatId === 'string' ? state.chatId : undefined;
        // Its page first: it paints its frame while the saved chat is opened (a tab that shows no chat in
        // the end gets other content, or closes).
        setPageEarly(panel.webview, context.extensionUri, chatId);
        await s.restorePanel(panel, chatId);
      },
    }),
    vscode.window.registerWebviewViewProvider(CHAT_SIDEBAR_VIEW, s.sideBar),
    vscode.window.registerWebviewViewProvider(HISTORY_VIEW, new HistoryView(s, context.extensionUri)),
  );
  if (s.settings.openOnStartup) void s.openChat();
  // The saved chats are opened soon after start-up rather than by the first chat, whose first paint would wait for them.
  const warm = setTimeout(() => void s.ready().catch((e: unknown) => s.log.warn(`could not open the saved chats: ${String(e)}`)), WARM_UP_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(warm) });
  // The soak benchmark's memory and CPU probe (bench/soak.bench.mjs); off unless its variable is set.
  const probeDir = process.env.ACP_CHAT_SOAK_PROBE;
  if (probeDir) context.subscriptions.push((await import('../node/soakProbe')).soakProbe(probeDir));
  return createApi(s);
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions, which VS Code disposes after this.
}
