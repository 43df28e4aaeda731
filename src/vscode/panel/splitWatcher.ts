/**
 * "Split Editor Right" (or Down, or the editor title's split button) on a chat tab: VS Code cannot copy a
 * webview editor, so it opens an empty group and leaves it empty. No API tells us a split happened; what
 * we see is a new group with no tabs while the active tab was a chat's. The chat then gets a second view
 * in that group (ChatService.openSplit), as a text editor would.
 */
import * as vscode from 'vscode';
import { CHAT_VIEW_TYPE } from './chatPanel';

/** How long a new group may stay empty before it counts as a split (an editor opened beside fills it at once). */
const SETTLE_MS = 500;

/** Is this tab one of our chat panels? (Webview tabs report the view type with a host-specific prefix.) */
export function isChatTab(tab: vscode.Tab | undefined): boolean {
  const input = tab?.input;
  return input instanceof vscode.TabInputWebview && (input.viewType === CHAT_VIEW_TYPE || input.viewType.endsWith(`-${CHAT_VIEW_TYPE}`));
}

/**
 * Calls `onSplit(from, to)` when an empty editor group opens while the active editor was a chat tab in
 * group `from`. `from` is the active group as last seen before the new group opened.
 */
export function watchChatSplits(onSplit: (from: vscode.ViewColumn, to: vscode.ViewColumn) => void): vscode.Disposable {
  const groups = vscode.window.tabGroups;
  let last = { column: groups.activeTabGroup.viewColumn, chat: isChatTab(groups.activeTabGroup.activeTab) };
  const remember = () => {
    last = { column: groups.activeTabGroup.viewColumn, chat: isChatTab(groups.activeTabGroup.activeTab) };
  };
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const onGroups = groups.onDidChangeTabGroups((e) => {
    const before = last;
    remember();
    if (!before.chat) return;
    for (const group of e.opened) {
      if (group.tabs.length > 0 || group.viewColumn === before.column) continue;
      // Opening an editor beside (Open diff, a debug view) also opens a group that is empty at first; its
      // tab follows at once. A split's group stays empty.
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (groups.all.includes(group) && group.tabs.length === 0) onSplit(before.column, group.viewColumn);
      }, SETTLE_MS);
      timers.add(timer);
    }
  });
  // Tab changes move the active tab, but never open a group: only the active group's active tab is kept.
  const onTabs = groups.onDidChangeTabs(() => {
    if (groups.activeTabGroup.tabs.length > 0) remember();
  });
  return vscode.Disposable.from(onGroups, onTabs, { dispose: () => timers.forEach((t) => clearTimeout(t)) });
}
