/**
 * Chat history: "ACP: Open Session…" lists every chat (open or closed, any agent) and the focused
 * agent's own saved sessions (`session/list`); a chat reopens into its tab, an agent session opens in
 * a new chat of that agent (loaded, so its history is replayed). Branches (Edit and Rerun) are listed under
 * the chat they were made from. Each chat row has a Delete button; deleting asks the agent to close and delete the
 * chat's sessions where it advertises `sessionCapabilities.close` / `.delete`, then removes our copy.
 */
import * as vscode from 'vscode';
import { labelText, noticeText } from '../common/untrusted';
import { errorText } from '../common/util/errors';
import type { ChatService } from './chatService';
import { branchTree } from '../common/chats/chatIndex';
import { searchInPick, type PickItem } from './historyPick';
import { openAt } from './historyView';
import { unknownSessions } from '../common/history/agentSessions';

type Item = PickItem;

const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this chat' };

/** ACP: Open Session… */
export async function pickSession(service: ChatService): Promise<void> {
  await service.ready();
  const focused = service.focusedChat;
  const listed = focused
    ? await focused.door.listSessions().catch((e: unknown) => {
        void vscode.window.showWarningMessage(`${noticeText(focused.agent.name)}: session/list failed: ${noticeText(errorText(e))}`);
        return [];
      })
    : [];
  const chatItems = (): Item[] =>
    // Branches follow the chat they were made from, indented one step per generation.
    branchTree(service.chatRecords()).map(({ record: c, depth }) => {
      const agent = service.agents().find((a) => a.id === c.agentId)?.name ?? c.agentId;
      const state = c.id === service.focusedChatId ? ' (current)' : service.tabOf(c.id) ? ' (open)' : '';
      return {
        label: `${depth ? `${'\u2003'.repeat(depth - 1)}\u21b3 ` : ''}${service.titleOf(c.id)}`,
        description: labelText(`${agent}${state}`),
        // When, not the agent's session id (which says nothing to the user).
        detail: c.sessionId === null ? 'Not used yet' : `Last used ${new Date(c.updatedAt).toLocaleString()}`,
        chatId: c.id,
        buttons: [DELETE_BUTTON],
      };
    });
  const index = service.chatIndex;
  const agentItems: Item[] = unknownSessions(
    listed,
    [...index.history(), ...index.archived()],
    (focused?.sessions() ?? []).map((s) => s.sessionId),
  ).map((s) => ({ label: labelText(s.title ?? 'Untitled session'), description: labelText(when(s.updatedAt)), sessionId: s.sessionId }));
  // An agent without session/list says so, rather than looking as if it had no sessions.
  const noList =
    focused?.door.facts() && !focused.door.facts()?.capabilities?.sessionCapabilities?.list
      ? [{ label: labelText(`${focused.agent.name} does not list its sessions (no session/list)`), description: '' }]
      : [];
  const build = (): Item[] => [
    ...chatItems(),
    ...(focused && agentItems.length + noList.length
      ? [{ label: labelText(`${focused.agent.name}: sessions not in ACP Chat`), kind: vscode.QuickPickItemKind.Separator }, ...agentItems, ...noList]
      : []),
  ];
  if (build().length === 0) {
    void vscode.window.showInformationMessage('No chats yet: run "ACP: New Chat" to start one.');
    return;
  }
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'ACP: Open Session… (chats, then the agent’s saved sessions)';
  qp.placeholder = 'Type to search every chat’s text, titles, tools and files';
  const search = searchInPick(qp, service, build);
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.items = build();
  const picked = await new Promise<Item | undefined>((resolve) => {
    qp.onDidTriggerItemButton(async (e) => {
      const id = e.item.chatId;
      if (id === undefined) return;
      qp.busy = true;
      await service.deleteChat(id);
      qp.busy = false;
      qp.items = build();
    });
    qp.onDidAccept(() => resolve(qp.selectedItems[0]));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  search.dispose();
  qp.dispose();
  if (picked?.chatId !== undefined) await openAt(service, picked.chatId, picked.key);
  else if (picked?.sessionId !== undefined && focused) await service.openChat({ agentId: focused.agent.id, sessionId: picked.sessionId });
}

/** ACP: Delete Chat… — a chat by id (from the API or a keybinding), or picked from history. */
export async function deleteChatCommand(service: ChatService, chatId?: string): Promise<void> {
  await service.ready();
  let id = chatId;
  if (id === undefined) {
    const pick = await vscode.window.showQuickPick(
      service.chatRecords().map((c) => ({ label: service.titleOf(c.id), description: labelText(c.agentId), chatId: c.id })),
      { title: 'ACP: Delete Chat…', placeHolder: 'The chat and its saved transcript are deleted; the agent is asked to delete its sessions where it supports that.' },
    );
    id = pick?.chatId;
  }
  if (id !== undefined) await service.deleteChat(id);
}

/** ACP: Choose Chat for Side Bar… — any chat from history (or a new one) in the side bar view. */
export async function pickSideBarChat(service: ChatService): Promise<void> {
  await service.ready();
  const NEW = '\u0000new';
  const items = [
    { label: '$(add) New Chat', description: labelText(service.selectedAgent()?.name ?? ''), chatId: NEW },
    ...service.chatRecords().map((c) => ({ label: service.titleOf(c.id), description: labelText(c.agentId), chatId: c.id })),
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'ACP: Choose Chat for Side Bar…' });
  if (!pick) return;
  if (pick.chatId !== NEW) return service.showInSideBar(pick.chatId);
  const record = service.chatIndex.create(service.selectedAgent()?.id ?? 'demo', Date.now());
  await service.showInSideBar(record.id);
}

/** An agent's updatedAt (untrusted text) as a local date, or as sent when it is no date. */
function when(updatedAt: string | null | undefined): string {
  const d = new Date(updatedAt ?? '');
  return Number.isNaN(d.getTime()) ? (updatedAt ?? '') : d.toLocaleString();
}
