/**
 * Chats another VS Code window of this workspace has (issue 38 item 3; the rules and words are
 * src/common/chats/chatOwnership.ts). Their restored tabs here stay empty (so this window's layout keeps
 * them and each window gets its own tabs back after a reload), the window says so once, and offers to
 * open one read-only (a copy of its saved state) or to take it over (the other window is asked to let go,
 * through the chats' folder, and does: its tabs of the chat close, saying why).
 */
import * as vscode from 'vscode';
import type { ChatIndex } from '../../common/chats/chatIndex';
import { chatElsewhereText, ELSEWHERE_ACTIONS, ELSEWHERE_TAB_TEXT, elsewhereNotice, handedOverText } from '../../common/chats/chatOwnership';
import { placeholderHtml } from '../../common/webview/html';
import { labelText, noticeText } from '../../common/untrusted';
import type { ChatPersistence } from '../../node/chat/chatPersistence';
import { SavedChatView } from '../../node/chat/savedChatView';
import { ChatPanel, CHAT_VIEW_TYPE } from '../panel/chatPanel';
import type { ChatTabs } from '../panel/chatTabs';
import { createChatUi } from '../panel/chatUi';
import type { VirtualDocuments } from '../workspace/virtualDocuments';

/** How long a take-over waits for the other window to let go (it looks twice a second). */
const TAKE_OVER_MS = 15_000;
const TAKE_OVER_POLL_MS = 200;

export interface ChatsElsewhereHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly tabs: ChatTabs;
  ready(): Promise<void>;
  index(): ChatIndex;
  persistence(): ChatPersistence;
  titleOf(chatId: string): string;
  /** Takes a chat for this window if no other window has it (false when one still has it). */
  tryClaim(chatId: string): Promise<boolean>;
  /** Opens a chat taken for this window in a new tab. */
  open(chatId: string): Promise<unknown>;
  readonly docs: VirtualDocuments;
  /** No view here shows the chat any more, and this window lets go of it (its lock). */
  letGo(chatId: string): void;
}

export class ChatsElsewhere {
  /** Restored tabs left empty, by chat: a take-over shows the chat in its own tab. */
  private readonly placeholders = new Map<string, vscode.WebviewPanel>();
  private noticed = false;

  constructor(private readonly host: ChatsElsewhereHost) {}

  /** A restored tab of a chat another window has: it stays, empty, and the window says so once. */
  restoredTab(webviewPanel: vscode.WebviewPanel, chatId: string): void {
    this.host.log.info(`a restored tab of chat ${chatId} stays empty: the chat is open in another window`);
    webviewPanel.webview.html = placeholderHtml(ELSEWHERE_TAB_TEXT);
    this.placeholders.set(chatId, webviewPanel);
    webviewPanel.onDidDispose(() => this.placeholders.get(chatId) === webviewPanel && this.placeholders.delete(chatId));
    if (this.noticed) return;
    this.noticed = true;
    // Said once the layout is restored, so it counts the chats of every restored tab.
    setTimeout(() => void this.noticeOnce(), 500);
  }

  private async noticeOnce(): Promise<void> {
    const action = await vscode.window.showInformationMessage(noticeText(elsewhereNotice(this.placeholders.size)), ELSEWHERE_ACTIONS.readOnly, ELSEWHERE_ACTIONS.takeOver);
    if (action) await this.choose(action === ELSEWHERE_ACTIONS.readOnly ? 'readOnly' : 'takeOver');
  }

  /** Opening a chat another window has (from the history, a command): the same two offers, for that chat. */
  async offer(chatId: string): Promise<void> {
    const action = await vscode.window.showInformationMessage(noticeText(chatElsewhereText(this.host.titleOf(chatId))), ELSEWHERE_ACTIONS.readOnly, ELSEWHERE_ACTIONS.takeOver);
    if (action === ELSEWHERE_ACTIONS.readOnly) await this.openReadOnly(chatId);
    else if (action === ELSEWHERE_ACTIONS.takeOver) await this.takeOver(chatId);
  }

  /** ACP: Chats Open in Another Window… — which chat, then (unless given) which of the two offers. */
  async choose(action?: 'readOnly' | 'takeOver'): Promise<void> {
    await this.host.ready();
    const held = this.heldElsewhere();
    if (held.length === 0) {
      void vscode.window.showInformationMessage('No chat of this workspace is open in another VS Code window.');
      return;
    }
    const pickedChat =
      held.length === 1
        ? held[0]
        : (
            await vscode.window.showQuickPick(
              held.map((id) => ({ label: labelText(this.host.titleOf(id)), id })),
              { title: 'Chats open in another window' },
            )
          )?.id;
    if (pickedChat === undefined) return;
    const what =
      action ??
      (
        await vscode.window.showQuickPick(
          [
            { label: 'Open Read-Only', description: 'a copy as saved now, here', value: 'readOnly' as const },
            { label: 'Take Over', description: 'the other window lets go of it and it opens here', value: 'takeOver' as const },
          ],
          { title: labelText(this.host.titleOf(pickedChat)) },
        )
      )?.value;
    if (what === 'readOnly') await this.openReadOnly(pickedChat);
    else if (what === 'takeOver') await this.takeOver(pickedChat);
  }

  /** Chats of the list another live window has now (those with an empty tab here first). */
  heldElsewhere(): string[] {
    const p = this.host.persistence();
    const ids = this.host
      .index()
      .history()
      .map((c) => c.id)
      .filter((id) => !p.holderOf(id).ok);
    return [...ids.filter((id) => this.placeholders.has(id)), ...ids.filter((id) => !this.placeholders.has(id))];
  }

  /** A copy of the chat as saved now, in a read-only tab (not restored after a reload). */
  async openReadOnly(chatId: string): Promise<{ panel: ChatPanel; view: SavedChatView } | undefined> {
    const store = await this.host.persistence().peek(chatId);
    if (!store) {
      void vscode.window.showInformationMessage('This chat has nothing saved yet to show.');
      return undefined;
    }
    const title = `${this.host.titleOf(chatId)} (read-only)`;
    const ui = createChatUi({
      docs: this.host.docs,
      log: this.host.log,
      revealInTree: () => undefined,
      isPanelVisible: () => true,
      showPanel: () => undefined,
      chatColumn: () => undefined,
    });
    const webviewPanel = vscode.window.createWebviewPanel(`${CHAT_VIEW_TYPE}.readOnly`, title, vscode.ViewColumn.Active, { enableScripts: true });
    const view = new SavedChatView(store, title, ui);
    return { panel: new ChatPanel(webviewPanel, this.host.extensionUri, view, this.host.log), view };
  }

  /** Asks the other window to let go of the chat, then shows it here (in its empty tab, if it has one). */
  async takeOver(chatId: string): Promise<boolean> {
    const p = this.host.persistence();
    p.requestHandoff(chatId);
    let taken = false;
    try {
      taken = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Asking the other window to let go of the chat…' }, async () => {
        for (const end = Date.now() + TAKE_OVER_MS; Date.now() < end; await new Promise((r) => setTimeout(r, TAKE_OVER_POLL_MS))) if (await this.host.tryClaim(chatId)) return true;
        return false;
      });
    } finally {
      p.withdrawHandoff(chatId);
    }
    if (!taken) {
      void vscode.window.showWarningMessage('The other window did not let go of the chat (it may be busy or not responding). Close the chat there, then try again.');
      return false;
    }
    const tab = this.placeholders.get(chatId);
    this.placeholders.delete(chatId);
    if (tab) this.host.tabs.restored(tab, chatId).panel.reveal(tab.viewColumn, false);
    else await this.host.open(chatId);
    return true;
  }

  /** Another window took a chat this one has: its tabs and side bar view let go of it (the chat is released when none shows it). */
  handOff(chatId: string): void {
    this.host.log.info(`chat ${chatId} was taken over by another window`);
    const title = this.host.titleOf(chatId);
    this.host.letGo(chatId);
    void vscode.window.showInformationMessage(noticeText(handedOverText(title)));
  }
}
