/**
 * Chat history: "ACP: Open Session…" lists every chat (open or closed, any agent), then offers the
 * agents' own sessions (agentSessionsList.ts: every agent's `session/list`, asked only then); a chat
 * reopens into its tab, an agent session opens in a new chat of that agent (loaded, so its history is replayed). Branches (Edit and Rerun) are listed under
 * the chat they were made from. Each chat row has a Delete button; deleting asks the agent to close and delete the
 * chat's sessions where it advertises `sessionCapabilities.close` / `.delete`, then removes our copy.
 */
import * as vscode from 'vscode';
import { labelText } from '../../common/untrusted';
import type { ChatService } from '../chats/chatService';
import { branchTree } from '../../common/chats/chatIndex';
import { searchInPick, type PickItem } from './historyPick';
import { openAt } from './historyView';
import { pickAgentSession } from './agentSessionsList';

type Item = PickItem & { readonly agents?: boolean };

const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this chat' };

/** ACP: Open Session… */
export async function pickSession(service: ChatService): Promise<void> {
  await service.ready();
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
  // The agents' own sessions are listed only when asked for (each agent may have to be started for it).
  const build = (): Item[] => [
    ...chatItems(),
    { label: 'Your agents’ sessions', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(cloud-download) Sessions your agents have that ACP Chat does not show…', description: 'session/list of each agent', alwaysShow: true, agents: true },
  ];
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'ACP: Open Session… (chats, then the agents’ own sessions)';
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
  else if (picked?.agents) await pickAgentSession(service);
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
  const record = service.createChat(service.selectedAgent()?.id ?? 'demo');
  await service.showInSideBar(record.id);
}
