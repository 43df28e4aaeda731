/**
 * "ACP Messages": the debug tree over the message store of the focused chat (or an opened capture). It
 * maps the plain nodes of src/common/debug/treeModel.ts to TreeItems; refreshes are coalesced (at most
 * every 150 ms) so a streaming turn does not flood the tree. A subagent's session is shown under the session
 * that announced it (any depth), not at the top.
 */
import * as vscode from 'vscode';
import { entryDetails, groupChildren, rootSessions, sessionChildren, sessionNode, shownNode, subagentNodes, type TreeGroup, type TreeNode } from '../../common/debug/treeModel';
import type { SessionState } from '../../common/store/model';
import { plainLine } from '../../common/untrusted';
import { Disposable, Emitter } from '../../common/util/lifecycle';
import type { TreeSource } from '../../common/debug/treeSource';

export type { TreeSource } from '../../common/debug/treeSource';

export const MESSAGE_TREE_VIEW = 'acpChat.messages';

const REFRESH_MS = 150;

const GROUP_ICON: Record<TreeGroup, string> = { plan: 'checklist', diagnostics: 'warning', state: 'info', conformance: 'verified' };

export class MessageTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new Emitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private sources: TreeSource[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Parent of each node handed out, for `reveal`. */
  private readonly parents = new Map<string, TreeNode | undefined>();
  private subscription: { dispose(): void } | undefined;

  constructor() {
    super();
    this.register(this.changed);
    this.register({ dispose: () => clearTimeout(this.timer) });
    this.register({ dispose: () => this.subscription?.dispose() });
  }

  /** What the tree shows: one chat (the focused one) or capture; nothing with undefined. */
  show(source: TreeSource | undefined): void {
    if (this.sources[0] === source && (source !== undefined || this.sources.length === 0)) return;
    this.subscription?.dispose();
    this.subscription = source?.onDidChangeTree(() => this.scheduleRefresh());
    this.sources = source ? [source] : [];
    this.parents.clear();
    this.scheduleRefresh();
  }

  /** The source shown. */
  get shown(): TreeSource | undefined {
    return this.sources[0];
  }

  /** Finds the node of an entry (for reveal from the chat panel). */
  entryNodeFor(sessionId: string, key: string): TreeNode | undefined {
    for (const source of this.sources) {
      const s = source.sessions().find((x) => x.sessionId === sessionId);
      if (!s) continue;
      const node = sessionChildren(s, source.diagnostics(sessionId), source.findings?.(sessionId)).find((n) => n.type === 'entry' && n.key === key);
      if (node) {
        this.parents.set(node.id, this.sessionNodeOf(source, s));
        return node;
      }
    }
    return undefined;
  }

  /** The source that holds a session. */
  sourceOf(sessionId: string): TreeSource | undefined {
    return this.find(sessionId)?.source;
  }

  /** Every session of every source, with the diagnostics of each: for tests and the debug bundle. */
  allSessions(): { source: TreeSource; session: SessionState }[] {
    return this.sources.flatMap((source) => source.sessions().map((session) => ({ source, session })));
  }

  getTreeItem(raw: TreeNode): vscode.TreeItem {
    const node = shownNode(raw);
    switch (node.type) {
      case 'session': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.description = node.description;
        item.iconPath = new vscode.ThemeIcon(node.parentSessionId !== undefined ? 'type-hierarchy-sub' : 'comment-discussion');
        item.contextValue = 'session';
        item.tooltip = `session ${plainLine(node.sessionId)}`;
        return item;
      }
      case 'entry': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        // `entry.message.user`: user messages also offer Fork Chat Here.
        item.contextValue = node.entryKind === 'tool_call' ? 'entry.toolCall' : node.entryKind === 'user_message' ? 'entry.message.user' : 'entry.message';
        item.command = { command: 'acpChat.showInChat', title: 'Show in Chat', arguments: [node] };
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = node.description;
        item.iconPath = new vscode.ThemeIcon(GROUP_ICON[node.group]);
        item.contextValue = `group.${node.group}`;
        return item;
      }
      case 'detail': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.description = node.description;
        item.tooltip = `${node.label}: ${node.description}`;
        item.contextValue = node.copyValue !== undefined ? 'detail.copyable' : 'detail';
        return item;
      }
    }
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const kids = this.children(node);
    for (const k of kids) this.parents.set(k.id, node);
    return kids;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(node.id);
  }

  /** A session's node as its parent lists it (a subagent's under its parent's, recorded for `reveal`). */
  private sessionNodeOf(source: TreeSource, s: SessionState): TreeNode {
    const all = source.sessions();
    const parent = s.parentSessionId === null ? undefined : all.find((p) => p.sessionId === s.parentSessionId);
    const node = parent && subagentNodes(all, parent, (id) => source.diagnostics(id).length).find((n) => n.type === 'session' && n.sessionId === s.sessionId);
    if (!parent || !node) return sessionNode(s, source.diagnostics(s.sessionId).length);
    this.parents.set(node.id, this.sessionNodeOf(source, parent));
    return node;
  }

  private children(node?: TreeNode): TreeNode[] {
    if (!node) {
      return this.sources.flatMap((src) => rootSessions(src.sessions()).map((s) => sessionNode(s, src.diagnostics(s.sessionId).length)));
    }
    const found = this.find(node.type === 'detail' ? '' : node.sessionId);
    if (!found) return [];
    const { source, session } = found;
    switch (node.type) {
      case 'session': {
        const subagents = subagentNodes(source.sessions(), session, (id) => source.diagnostics(id).length);
        return sessionChildren(
          session,
          source.diagnostics(session.sessionId),
          source.findings?.(session.sessionId),
          source.sessions()[0]?.sessionId === session.sessionId ? source.origin?.() : null,
          subagents,
        );
      }
      case 'entry': {
        const entry = session.entries.find((e) => e.key === node.key);
        return entry ? entryDetails(session.sessionId, entry, source.findings?.(session.sessionId)) : [];
      }
      case 'group':
        return groupChildren(session, node.group, source.diagnostics(session.sessionId), source.findings?.(session.sessionId));
      case 'detail':
        return [];
    }
  }

  private find(sessionId: string): { source: TreeSource; session: SessionState } | undefined {
    for (const source of this.sources) {
      const session = source.sessions().find((s) => s.sessionId === sessionId);
      if (session) return { source, session };
    }
    return undefined;
  }

  private scheduleRefresh(): void {
    if (this.timer !== undefined || this.isDisposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed.fire(undefined);
    }, REFRESH_MS);
  }
}
