/**
 * The message tree follows the focused chat: its entries, its title as the view's description, and,
 * when the chat's agent could not start, why the tree is empty (instead of "No chat session yet").
 * Kept apart from ChatService, which decides which chat is focused; this only shows it.
 */
import type * as vscode from 'vscode';
import { noticeText } from '../../common/untrusted';
import { Disposable } from '../../common/util/lifecycle';
import type { ChatController } from '../../node/chat/chatController';
import { MessageTreeProvider } from './messageTree';
import { MessageTreeViews } from './messageTreeViews';

export class FocusedTree extends Disposable {
  readonly tree: MessageTreeProvider;
  /** The tree's view: in the side bar, or in the panel while the side bar shows a chat. */
  readonly treeView: MessageTreeViews;
  /** Keeps the tree's message on the focused chat's start failure (replaced on every focus change). */
  private reason: vscode.Disposable | undefined;

  constructor() {
    super();
    this.tree = this.register(new MessageTreeProvider());
    this.treeView = this.register(new MessageTreeViews(this.tree));
    this.register({ dispose: () => this.reason?.dispose() });
  }

  /** Shows the focused chat (none: the tree's empty state) and its title. */
  show(session: ChatController | undefined, title: string | undefined): void {
    this.tree.show(session);
    this.treeView.description = session ? title : undefined;
    this.reason?.dispose();
    const reason = () => {
      const p = session && session.sessionId === null ? session.panelState() : undefined;
      this.treeView.message =
        p && (p.turn === 'error' || p.turn === 'exited') ? noticeText(`${session?.agent.name ?? 'The agent'}: ${p.message ?? 'the agent could not start.'}`) : undefined;
    };
    reason();
    this.reason = session?.onDidChange((changes) => changes.some((c) => c.type === 'panel' && ('turn' in c.fields || 'message' in c.fields)) && reason());
  }

  /** Reveals an entry of the chat (or capture) the tree shows. */
  revealEntry(sessionId: string, key: string): void {
    const node = this.tree.entryNodeFor(sessionId, key);
    if (node) void this.treeView.reveal(node, { select: true, focus: true, expand: true });
  }
}
