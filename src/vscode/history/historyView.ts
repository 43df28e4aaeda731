/**
 * The side bar's History view (a WebviewView beside the chat view): search across every chat as you type,
 * filters, open a chat at a match, and bulk actions (historyActions.ts). The query runs in HistoryQuery
 * (src/node/history/historyQuery.ts) over the chat index and the chats' search files; this wires it to
 * the webview and to the chat service, and runs the current query again when the chat list changes.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../common/util/lifecycle';
import { makeNonce, renderWebviewHtml } from '../../common/webview/html';
import { zHistoryToHost } from '../../common/history/historyMessages';
import type { HistoryToHost, HostToHistory } from '../../common/history/historyContract';
import { HistoryQuery } from '../../node/history/historyQuery';
import { labelText } from '../../common/untrusted';
import type { ChatService } from '../chats/chatService';
import { ripgrepPath } from './ripgrepPath';
import { bulkAction } from './historyActions';
import { listAgentSessionRows, NO_FOLDER, openAgentSession } from './agentSessionsList';
import type { AgentSessionsRow } from '../../common/history/agentSessions';
import { errorText } from '../../common/util/errors';

export const HISTORY_VIEW = 'acpChat.historyView';
/** The list follows changes of the chat index this long after the last one (a streaming chat changes it often). */
const REFRESH_DELAY_MS = 300;

export class HistoryView extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private query: HistoryQuery | undefined;
  private last: Extract<HistoryToHost, { type: 'query' }> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private listing: Promise<void> | undefined;

  constructor(
    private readonly service: ChatService,
    private readonly extensionUri: vscode.Uri,
  ) {
    super();
    this.register({ dispose: () => (this.query?.dispose(), clearTimeout(this.refreshTimer)) });
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.view = view;
    const root = this.extensionUri;
    view.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(root, 'dist'), vscode.Uri.joinPath(root, 'media')] };
    const asset = (...parts: string[]) => view.webview.asWebviewUri(vscode.Uri.joinPath(root, ...parts)).toString();
    await this.service.ready();
    const index = this.service.chatIndex;
    this.query = new HistoryQuery(
      {
        records: () => [...index.history(), ...index.archived()],
        live: (id) => this.service.marks().live(id),
        title: (id) => this.service.titleOf(id),
        agentName: (id) => labelText(this.service.agents().find((a) => a.id === id)?.name ?? id),
        dir: () => this.service.chatsDir(),
        rg: () => ripgrepPath(),
        now: () => Date.now(),
      },
      (m) => this.post(m),
    );
    this.register(view.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
    this.register(index.onDidChange(() => this.refreshSoon()));
    this.register(index.onDidFollow(() => this.refreshSoon()));
    this.register(this.service.marks().onDidChange(() => this.refreshSoon()));
    this.register(
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
    view.webview.html = renderWebviewHtml({
      cspSource: view.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: asset('dist', 'webview.js'),
      styleUris: [asset('dist', 'codicons', 'codicon.css'), asset('media', 'chat.css')],
      title: 'ACP Chat History',
      view: 'history',
    });
  }

  private post(m: HostToHistory): void {
    void this.view?.webview.postMessage(m);
  }

  /** Every agent's own sessions, each agent's row posted as its listing goes; one listing at a time. */
  private listAgentSessions(): Promise<void> {
    let last: readonly AgentSessionsRow[] = [];
    const post = (rows: readonly AgentSessionsRow[], done: boolean) => this.post({ type: 'agentSessions', rows, done });
    this.listing ??= listAgentSessionRows(this.service, (rows) => post((last = rows), false))
      .then((listed) => (listed ? post(last, true) : this.post({ type: 'agentSessions', rows: [], done: true, note: NO_FOLDER })))
      .catch((e: unknown) => this.post({ type: 'agentSessions', rows: [], done: true, note: `Listing failed: ${errorText(e)}` }))
      .finally(() => {
        this.listing = undefined;
      });
    return this.listing;
  }

  /** The chat list changed: the shown list follows (a running search is not restarted for it). */
  private refreshSoon(): void {
    if (this.refreshTimer || !this.last || this.last.text.trim() !== '') return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.last && this.last.text.trim() === '') void this.query?.run(this.last.seq, '', this.last.filter);
    }, REFRESH_DELAY_MS);
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = zHistoryToHost.safeParse(raw);
    if (!parsed.success) return this.service.log.warn(`history view: message ignored (${parsed.error.issues[0]?.message ?? 'bad shape'})`);
    const m = parsed.data;
    const q = this.query;
    if (!q) return;
    switch (m.type) {
      case 'ready':
        return;
      case 'query':
        this.last = m;
        await q.run(m.seq, m.text, m.filter);
        return;
      case 'more':
        return q.more(m.seq, m.shown);
      case 'open':
        return openAt(this.service, m.chatId, m.key);
      case 'listAgentSessions':
        return this.listAgentSessions();
      case 'openAgentSession':
        return openAgentSession(this.service, m.agentId, m.sessionId);
      case 'bulk': {
        const ids = m.all ? await q.matching() : m.chatIds;
        const text = await bulkAction(this.service, m.action, ids);
        // The list first (what the action changed), then the line saying what was done, so it stays shown.
        if (this.last) await q.run(this.last.seq, this.last.text, this.last.filter);
        if (text) this.post({ type: 'notice', text });
        return;
      }
    }
  }
}

/** Opens a chat (in its tab, or a new one) and, with `key`, scrolls to that entry and highlights it. */
export async function openAt(service: ChatService, chatId: string, key?: string): Promise<void> {
  if (!service.chatIndex.has(chatId)) return;
  if (service.chatIndex.get(chatId)?.unread) service.chatIndex.update(chatId, { unread: false });
  const panel = await service.openChat({ chatId });
  if (key === undefined) return;
  await panel.whenReady();
  panel.post({ type: 'reveal', key });
}
