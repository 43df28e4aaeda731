/**
 * Where the ACP Messages tree is shown. It lives in the ACP Chat side bar, beside the chat tabs; when the
 * side bar shows a chat itself (the chat view expanded there), the two would share a side bar that may
 * be 250 px tall, so the tree moves to the panel area instead (the `acpChat.chatInSideBar` context key
 * switches the two contributed views). Both views show the one MessageTreeProvider; what is set on the
 * tree (title, message) is set on both, so the view that appears already shows it.
 */
import * as vscode from 'vscode';
import type { TreeNode } from '../../common/debug/treeModel';
import { Disposable } from '../../common/util/lifecycle';
import { MESSAGE_TREE_VIEW, type MessageTreeProvider } from './messageTree';

/** The tree's second place: the panel area, while the side bar shows a chat. */
const MESSAGE_TREE_PANEL_VIEW = 'acpChat.messagesPanel';
/** True while the side bar's chat view is expanded and shows a chat (package.json `when` clauses). */
const CHAT_IN_SIDEBAR_KEY = 'acpChat.chatInSideBar';

export class MessageTreeViews extends Disposable {
  private readonly side: vscode.TreeView<TreeNode>;
  private readonly panel: vscode.TreeView<TreeNode>;
  private chatInSideBar = false;

  constructor(provider: MessageTreeProvider) {
    super();
    const options = { treeDataProvider: provider, showCollapseAll: true };
    this.side = this.register(vscode.window.createTreeView(MESSAGE_TREE_VIEW, options));
    this.panel = this.register(vscode.window.createTreeView(MESSAGE_TREE_PANEL_VIEW, options));
    void vscode.commands.executeCommand('setContext', CHAT_IN_SIDEBAR_KEY, false);
  }

  /** The view the tree is in now. */
  private get current(): vscode.TreeView<TreeNode> {
    return this.chatInSideBar ? this.panel : this.side;
  }

  /** The side bar shows a chat (its view expanded) or stops showing one: the tree moves. */
  setChatInSideBar(shown: boolean): void {
    if (shown === this.chatInSideBar) return;
    this.chatInSideBar = shown;
    void vscode.commands.executeCommand('setContext', CHAT_IN_SIDEBAR_KEY, shown);
  }

  /** On both views: whichever is shown (and the activity bar, through it) counts the chats waiting. */
  set badge(value: vscode.ViewBadge | undefined) {
    if (value?.value === this.side.badge?.value) return;
    this.side.badge = value;
    this.panel.badge = value;
  }

  get badge(): vscode.ViewBadge | undefined {
    return this.side.badge;
  }

  get description(): string | undefined {
    return this.side.description;
  }

  set description(value: string | undefined) {
    this.side.description = value;
    this.panel.description = value;
  }

  get message(): string | undefined {
    return this.side.message;
  }

  set message(value: string | undefined) {
    this.side.message = value;
    this.panel.message = value;
  }

  get selection(): readonly TreeNode[] {
    return this.current.selection;
  }

  reveal(node: TreeNode, options: { select?: boolean; focus?: boolean; expand?: boolean | number }): Thenable<void> {
    return this.current.reveal(node, options);
  }
}
