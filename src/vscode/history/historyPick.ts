/**
 * Search across every chat from Open Session…: as the user types (two characters or more), the chats'
 * text is searched (historyQuery.ts over the search files) and each chat that holds the query is listed
 * under a separator with its title, a few matches each; picking a match opens the chat at that message.
 * The typed text is a literal, never a pattern; the matches are agent text, shown as plain labels.
 */
import * as vscode from 'vscode';
import { labelText } from '../../common/untrusted';
import type { HistoryGroup, HostToHistory } from '../../common/history/historyContract';
import { HistoryQuery } from '../../node/history/historyQuery';
import type { ChatService } from '../chats/chatService';
import { ripgrepPath } from './ripgrepPath';

export interface PickItem extends vscode.QuickPickItem {
  readonly chatId?: string;
  /** The entry to open the chat at (a search match). */
  readonly key?: string;
}

const MIN_QUERY = 2;
const TYPE_DELAY_MS = 40;
const KIND_ICON: Record<string, string> = {
  user: 'account',
  agent: 'hubot',
  thought: 'lightbulb',
  tool: 'tools',
  path: 'file',
  question: 'question',
  subagent: 'organization',
  compaction: 'fold',
};

/** Adds history search to a quick pick whose items are otherwise `base()`; dispose with the pick. */
export function searchInPick(qp: vscode.QuickPick<PickItem>, service: ChatService, base: () => PickItem[]): vscode.Disposable {
  let seq = 0;
  let groups = new Map<string, HistoryGroup>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (busy: boolean) => {
    qp.busy = busy;
    const found = [...groups.values()].flatMap((g) => [
      { label: labelText(g.row.title), kind: vscode.QuickPickItemKind.Separator } as PickItem,
      ...(g.inTitle ? [{ label: `$(comment-discussion) ${labelText(g.row.title)}`, description: 'title', chatId: g.row.chatId, alwaysShow: true }] : []),
      ...g.hits.map((h): PickItem => ({
        label: `$(${KIND_ICON[h.kind] ?? 'search'}) ${labelText(h.snippet, 200)}`,
        description: h.kind,
        chatId: g.row.chatId,
        key: h.key,
        alwaysShow: true,
      })),
    ]);
    qp.items = [...found, ...(found.length ? [{ label: 'All chats', kind: vscode.QuickPickItemKind.Separator } as PickItem] : []), ...base()];
  };
  const query = new HistoryQuery(
    {
      records: () => service.chatIndex.history(),
      live: (id) => service.marks().live(id),
      title: (id) => service.titleOf(id),
      agentName: (id) => service.agents().find((a) => a.id === id)?.name ?? id,
      dir: () => service.chatsDir(),
      rg: () => ripgrepPath(),
      now: () => Date.now(),
    },
    (m: HostToHistory) => {
      if (m.type !== 'results' || m.seq !== seq) return;
      for (const g of m.groups) groups.set(g.row.chatId, g);
      show(!m.done);
    },
  );
  const sub = qp.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      seq++;
      groups = new Map();
      if (value.trim().length < MIN_QUERY) {
        query.dispose();
        return show(false);
      }
      void query.run(seq, value, {});
    }, TYPE_DELAY_MS);
  });
  return { dispose: () => (sub.dispose(), query.dispose(), clearTimeout(timer)) };
}
