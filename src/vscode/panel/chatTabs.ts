/**
 * The editor tabs that show chats. Which tab shows which chat has one owner: the tab's webview state
 * (`chatId`, written by the webview when it starts, read back by the panel serializer after a reload).
 * This unit holds the panels of this extension host and derives everything else from them: a chat's
 * first tab and its splits, which chat a group shows, and the tabs VS Code restored but has not handed
 * to the serializer yet (it does so when such a tab is first shown, so a chat behind another tab in its
 * group is not ours until then). A chat opened while its restored tab waits there is shown in that tab,
 * in its place, instead of in a second tab somewhere else.
 */
import * as vscode from 'vscode';
import { ChatPanel, CHAT_VIEW_TYPE } from './chatPanel';
import type { ChatController } from '../../node/chat/chatController';
import { findWorkspaceFiles } from '../context/promptBuilder';
import { isChatTab } from './splitWatcher';
import { afterQueuedMessages, setPageEarly, takeEarlyPage } from './chatPage';
import type { IDisposable } from '../../common/util/lifecycle';

/** A chat tab's webview is rebuilt from a snapshot when shown again: nothing kept while hidden. */
const CHAT_PANEL_OPTIONS: vscode.WebviewPanelOptions & vscode.WebviewOptions = { enableScripts: true, enableFindWidget: false, retainContextWhenHidden: false };
/** How long a restored tab brought forward may take to reach the serializer before the chat gets a new tab instead. */
const REVIVE_MS = 10_000;
const FOCUS_GROUP = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth'];

/** What the tabs need from the chat service. */
export interface ChatTabsHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** The chat's live session (the chat is taken for this window already). */
  liveChat(chatId: string): ChatController;
  live(chatId: string): ChatController | undefined;
  /** The chat's title as tabs show it (with the unseen mark). */
  title(chatId: string): string;
  /** The chat's title without the mark (a tab saved before the reload may have had it or not). */
  plainTitle(chatId: string): string;
  focus(chatId: string): void;
  seen(chatId: string): void;
  /** The chat's first tab opened (true) or its last tab closed while the window stays (false). */
  shown(chatId: string, open: boolean): void;
  /** The window is closing: tabs disposed now come back after the reload. */
  closing(): boolean;
}

export class ChatTabs implements IDisposable {
  private readonly first = new Map<string, ChatPanel>();
  /** More tabs of a chat, in other groups (Split Editor on its tab); the first tab stays in `first`. */
  private readonly splits = new Map<string, Set<ChatPanel>>();
  /** Chats whose restored tab was brought forward, waiting for the serializer to hand it over. */
  private readonly reviving = new Map<string, () => void>();
  /** Chats whose new tab is on its way to the workbench (create). */
  private readonly creating = new Map<string, Promise<ChatPanel>>();

  constructor(private readonly host: ChatTabsHost) {}

  /** The first tab of a chat, if open. */
  tabOf(chatId: string): ChatPanel | undefined {
    return this.first.get(chatId);
  }

  /** Every tab showing a chat: its first tab, then its splits. */
  tabsOf(chatId: string): ChatPanel[] {
    const tab = this.first.get(chatId);
    return [...(tab ? [tab] : []), ...(this.splits.get(chatId) ?? [])];
  }

  /** Every chat tab of this window. */
  all(): ChatPanel[] {
    return [...this.first.values(), ...[...this.splits.values()].flatMap((set) => [...set])];
  }

  /** Shows a chat's existing tab, if it has one (also a restored tab not handed over yet). */
  async reveal(chatId: string, viewColumn: vscode.ViewColumn | undefined, preserveFocus: boolean): Promise<ChatPanel | undefined> {
    // A tab on its way (created, its chat still being read) is the chat's tab: never taken for a restored one.
    const existing = this.first.get(chatId) ?? (await this.creating.get(chatId)?.catch(() => undefined)) ?? (await this.revive(chatId));
    if (!existing) return undefined;
    existing.panel.reveal(viewColumn, preserveFocus);
    this.host.focus(chatId);
    if (!preserveFocus) existing.post({ type: 'focusPrompt' });
    return existing;
  }

  /**
   * A new tab showing a chat, once `claimed` (the chat taken for this window: its lock, its saved state
   * read) settles. The tab and its page go to the workbench first, so the page paints its frame while the
   * chat is built (its state read, its agent started); a claim refused closes the tab again.
   */
  create(chatId: string, viewColumn: vscode.ViewColumn, preserveFocus: boolean, claimed: Promise<void>): Promise<ChatPanel> {
    const pending = this.creating.get(chatId);
    if (pending) {
      // A second open of the chat while its tab is on its way: that tab (and that claim's outcome).
      claimed.catch(() => undefined);
      return pending;
    }
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'ACP Chat', { viewColumn, preserveFocus }, CHAT_PANEL_OPTIONS);
    setPageEarly(webviewPanel.webview, this.host.extensionUri, chatId);
    const made = Promise.all([claimed, afterQueuedMessages()])
      .then(
        () => this.adopt(webviewPanel, chatId),
        (e: unknown) => {
          takeEarlyPage(webviewPanel.webview, chatId); // its listener let go
          webviewPanel.dispose();
          throw e;
        },
      )
      .finally(() => this.creating.delete(chatId));
    this.creating.set(chatId, made);
    return made;
  }

  /**
   * A tab VS Code restored after a reload, with the chat its webview state names (taken for this window
   * already): it shows that chat, where it was. When the chat has a tab already (the restored tab was
   * a split of it) it is another tab of the chat again.
   */
  restored(webviewPanel: vscode.WebviewPanel, chatId: string): ChatPanel {
    if (this.first.has(chatId)) return this.split(webviewPanel, chatId);
    return this.adopt(webviewPanel, chatId);
  }

  /** Shows chat `id` (taken for this window) in a tab just created or restored. */
  adopt(webviewPanel: vscode.WebviewPanel, id: string): ChatPanel {
    const panel = this.panel(webviewPanel, id);
    this.first.set(id, panel);
    this.host.shown(id, true);
    this.follow(panel, id);
    this.host.focus(id);
    this.reviving.get(id)?.();
    return panel;
  }

  /** Another tab of a live chat, in group `viewColumn`. */
  openSplit(chatId: string, viewColumn: vscode.ViewColumn): ChatPanel | undefined {
    if (!this.host.live(chatId)) return undefined;
    return this.split(vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'ACP Chat', viewColumn, CHAT_PANEL_OPTIONS), chatId);
  }

  /**
   * Split Editor on a chat tab left group `to` empty: the chat shown in group `from` gets a second tab
   * there, showing the same live chat (both get its snapshot and patches).
   */
  splitFrom(from: vscode.ViewColumn, to: vscode.ViewColumn): void {
    for (const id of this.first.keys()) {
      if (this.tabsOf(id).some((t) => t.panel.viewColumn === from && t.panel.visible)) {
        this.openSplit(id, to);
        return;
      }
    }
  }

  /** Closes a chat's tabs. */
  close(chatId: string): void {
    for (const tab of this.tabsOf(chatId).reverse()) tab.dispose();
  }

  /** The titles of a chat's tabs follow the chat's. */
  retitle(chatId: string): void {
    const title = this.host.title(chatId);
    for (const tab of this.tabsOf(chatId)) if (tab.panel.title !== title) tab.panel.title = title;
  }

  /** The window closes: only our side goes; the tabs stay in its layout and VS Code restores them. */
  dispose(): void {
    for (const p of this.all()) p.dispose({ keepTab: true });
    for (const done of this.reviving.values()) done();
  }

  private panel(webviewPanel: vscode.WebviewPanel, id: string): ChatPanel {
    return new ChatPanel(webviewPanel, this.host.extensionUri, this.host.liveChat(id), this.host.log, (q) => findWorkspaceFiles(q), id);
  }

  private split(webviewPanel: vscode.WebviewPanel, chatId: string): ChatPanel {
    const panel = this.panel(webviewPanel, chatId);
    const set = this.splits.get(chatId) ?? new Set<ChatPanel>();
    this.splits.set(chatId, set.add(panel));
    this.follow(panel, chatId);
    this.host.focus(chatId);
    return panel;
  }

  /**
   * A restored chat tab not handed to the serializer yet whose label is the chat's title, brought forward
   * so VS Code hands it over; resolves with the chat's tab then (none when no such tab waits, or it
   * turned out to show another chat).
   */
  private async revive(chatId: string): Promise<ChatPanel | undefined> {
    const waiting = this.waitingTab(new Set([this.host.title(chatId), this.host.plainTitle(chatId)]));
    const group = waiting ? FOCUS_GROUP[waiting.column - 1] : undefined;
    if (!waiting || group === undefined) return undefined;
    const handed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REVIVE_MS);
      this.reviving.set(chatId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    try {
      await vscode.commands.executeCommand(`workbench.action.focus${group}EditorGroup`);
      await vscode.commands.executeCommand('workbench.action.openEditorAtIndex', waiting.index);
      await handed;
    } catch (e) {
      this.host.log.warn(`a restored tab of chat ${chatId} could not be brought forward: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.reviving.delete(chatId);
    }
    return this.first.get(chatId);
  }

  /** Where a restored chat tab labelled with one of `titles` waits for the serializer (group column, index in the group). */
  private waitingTab(titles: ReadonlySet<string>): { column: number; index: number } | undefined {
    const ours = new Map<number, string[]>();
    for (const p of this.all()) {
      const column = p.panel.viewColumn;
      if (column !== undefined) ours.set(column, [...(ours.get(column) ?? []), p.panel.title]);
    }
    for (const group of vscode.window.tabGroups.all) {
      const known = ours.get(group.viewColumn) ?? [];
      for (const [index, tab] of group.tabs.entries()) {
        if (!isChatTab(tab)) continue;
        const k = known.indexOf(tab.label);
        if (k >= 0)
          known.splice(k, 1); // one of our panels
        else if (titles.has(tab.label)) return { column: group.viewColumn, index };
      }
    }
    return undefined;
  }

  /**
   * Keeps a chat tab's title, focus and lifetime in step with its chat. When the first tab closes, a
   * split takes its place; when the last one closes, the chat is closed (kept in history).
   */
  private follow(panel: ChatPanel, id: string): void {
    panel.panel.title = this.host.title(id);
    panel.onDidInteract(() => this.host.focus(id));
    panel.own(
      panel.panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) this.host.focus(id);
        if (e.webviewPanel.visible) this.host.seen(id);
      }),
    );
    panel.onDidDispose(() => {
      const split = this.splits.get(id);
      if (split?.delete(panel)) {
        if (split.size === 0) this.splits.delete(id); // its first tab still shows the chat
        return;
      }
      if (this.first.get(id) !== panel) return;
      const heir = split?.values().next().value;
      if (heir && split) {
        split.delete(heir);
        if (split.size === 0) this.splits.delete(id);
        this.first.set(id, heir);
        return;
      }
      this.first.delete(id);
      if (!this.host.closing()) this.host.shown(id, false); // closing: the tab comes back after the reload
    });
  }
}
