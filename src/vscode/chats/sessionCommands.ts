/**
 * The session commands beyond the stable protocol: Fork Chat Here (`session/fork`), Rename Chat
 * (`session/set_title`), Archive / Unarchive Chat (`session/archive`, `session/unarchive`) and Log Out
 * (`logout`). Each is sent only when the agent advertised it in initialize; otherwise the command says
 * which agent lacks what, instead of failing. Agent text in every message is made inert (untrusted.ts).
 */
import * as vscode from 'vscode';
import { OPERATION_METHOD, type SessionOperation } from '../../common/protocol/sessionOps';
import { labelText, noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import type { ChatController } from '../../node/chat/chatController';
import type { SessionOps } from '../../node/chat/agentDoor';
import type { ChatRecord } from '../../common/chats/chatIndex';

/** Command ids (also used by the webview's and the tree's Fork Chat Here). */
export const SessionCommands = {
  forkChat: 'acpChat.forkChat',
  renameChat: 'acpChat.renameChat',
  archiveChat: 'acpChat.archiveChat',
  unarchiveChat: 'acpChat.unarchiveChat',
  logout: 'acpChat.logout',
} as const;

/** What the commands need from the chat service. */
export interface SessionCommandHost {
  /** The chat the command acts on: `chatId`'s, else the focused one; created and started if need be. */
  chat(chatId?: string): Promise<ChatController>;
  /** Opens the fork as a new chat (the source chat's store already holds it, with the shared history). */
  showFork(source: ChatController, forkSessionId: string): Promise<void>;
  /** The focused chat, if live (nothing is started for it). */
  focused(): ChatController | undefined;
  chatIdOf(chat: ChatController): string | undefined;
  titleOf(chatId: string): string;
  /** Archives a chat (its tabs close; it leaves the lists) or brings it back (opened again). */
  archive(chatId: string, archived: boolean): Promise<void> | void;
  /** The chats archived here, most recent first. */
  archived(): readonly ChatRecord[];
}

/** Where "Fork Chat Here" was invoked: a user message of a session (from a chat's webview or the message tree). */
export interface ForkPoint {
  readonly chatId?: string;
  readonly sessionId: string;
  readonly key: string;
}

export function forkPointFrom(arg: unknown): ForkPoint | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as { chatId?: unknown; sessionId?: unknown; key?: unknown };
  if (typeof a.sessionId !== 'string' || typeof a.key !== 'string') return undefined;
  return { ...(typeof a.chatId === 'string' ? { chatId: a.chatId } : {}), sessionId: a.sessionId, key: a.key };
}

const WHAT: Readonly<Record<SessionOperation, string>> = {
  fork: 'forking a chat',
  title: 'renaming a chat',
  archive: 'archiving chats',
  close: 'closing sessions',
  delete: 'deleting sessions',
  list: 'listing sessions',
  logout: 'logging out',
};

/** Starts the chat's agent and says, when it lacks `op`, that it does; the operation's handle when it may go ahead. */
async function supported<K extends SessionOperation>(chat: ChatController, op: K): Promise<SessionOps[K] | undefined> {
  await chat.start();
  const facts = chat.door.facts();
  if (!facts || facts.closed) {
    void vscode.window.showErrorMessage(`${noticeText(chat.agent.name)} is not running: restart the agent and try again.`);
    return undefined;
  }
  const handle = chat.door.operation(op);
  if (handle) return handle;
  const method = op === 'logout' && facts.protocolVersion === 2 ? 'auth/logout' : OPERATION_METHOD[op];
  void vscode.window.showInformationMessage(`${noticeText(chat.agent.name)} does not support ${noticeText(WHAT[op])}: it did not advertise ${noticeText(method)}.`);
  return undefined;
}

function failed(chat: ChatController, what: string, e: unknown): void {
  void vscode.window.showErrorMessage(`${noticeText(chat.agent.name)}: ${noticeText(what)} failed: ${noticeText(errorText(e))}`);
}

/**
 * Fork Chat Here. `session/fork` copies the whole session (it has no fork point), so forking at an earlier
 * user message says first that the fork also holds the later turns.
 */
export async function forkChat(host: SessionCommandHost, point?: ForkPoint): Promise<void> {
  const chat = await host.chat(point?.chatId);
  const forkSession = await supported(chat, 'fork');
  if (!forkSession) return;
  const sessionId = point?.sessionId ?? chat.sessionId;
  if (sessionId === null) return void vscode.window.showInformationMessage('This chat has no session to fork yet.');
  if (point) {
    const entries = chat.store.session(point.sessionId)?.entries ?? [];
    const at = entries.findIndex((e) => e.key === point.key);
    const later = at < 0 ? 0 : entries.slice(at + 1).filter((e) => e.kind === 'user_message').length;
    if (later > 0) {
      const go = await vscode.window.showWarningMessage(
        `Fork the whole chat? ACP forks a session as a whole: the fork also holds the ${noticeText(later === 1 ? 'later turn' : `${later} later turns`)}.`,
        { modal: true },
        'Fork',
      );
      if (go !== 'Fork') return;
    }
  }
  try {
    const fork = await forkSession(sessionId);
    await host.showFork(chat, fork.sessionId);
  } catch (e) {
    failed(chat, 'forking the chat', e);
  }
}

/**
 * Rename Chat: the title the user gives is the chat's (tab, header, tree, export) and wins over the agent's
 * until they clear it (an empty title): it is the client's own record, so it also works with an agent that
 * cannot store titles and survives an agent that forgot it. Where the agent offers `session/set_title` it
 * is told too.
 */
export async function renameChat(host: SessionCommandHost, title?: string): Promise<void> {
  const chat = await host.chat();
  await chat.start().catch(() => undefined);
  const sessionId = chat.sessionId;
  if (sessionId === null) return void vscode.window.showInformationMessage('This chat has no session to rename yet.');
  const next =
    title ??
    (await vscode.window.showInputBox({
      title: `Rename chat · ${labelText(chat.agent.name)}`,
      value: chat.current()?.title ?? '',
      prompt: 'Empty: the agent names the chat again.',
    }));
  if (next === undefined) return;
  const line = next.replace(/\s+/g, ' ').trim();
  chat.setUserTitle(line === '' ? null : line);
  const setTitle = line === '' ? undefined : chat.door.operation('title');
  if (!setTitle) return;
  try {
    await setTitle(sessionId, line);
  } catch (e) {
    failed(chat, 'telling the agent the new title', e);
  }
}

/**
 * Archive Chat: the chat leaves the lists and its tabs close (the client's own archive: its transcript stays
 * on disk); the agent archives the session too where it offers `session/archive`.
 */
export async function archiveChat(host: SessionCommandHost): Promise<void> {
  const chat = await host.chat();
  const chatId = host.chatIdOf(chat);
  if (chatId === undefined) return;
  const title = host.titleOf(chatId);
  const sessionId = chat.sessionId;
  const archive = chat.door.running ? chat.door.operation('archive') : undefined;
  if (sessionId !== null && archive) {
    try {
      await archive(sessionId);
    } catch (e) {
      return failed(chat, 'archiving the chat', e);
    }
  }
  host.archive(chatId, true);
  void vscode.window.showInformationMessage(`Archived "${noticeText(title, 80)}". "ACP: Unarchive Chat…" brings it back.`);
}

/**
 * Unarchive Chat…: the client's own archived chats (it holds their transcripts: an agent that forgot its
 * sessions after a restart does not matter), then the focused chat's agent's archived sessions it does not
 * know, where the agent can list them. A chat comes back where it was; an agent's session opens in the chat.
 */
export async function unarchiveChat(host: SessionCommandHost, sessionId?: string): Promise<void> {
  let pick: { chatId?: string; sessionId?: string } | undefined = sessionId !== undefined ? { sessionId } : undefined;
  if (!pick) {
    const mine = host.archived();
    const known = new Set(mine.flatMap((c) => (c.sessionId !== null ? [c.sessionId] : [])));
    const chat = host.focused();
    const list = chat?.door.running ? chat.door.operation('list') : undefined;
    const theirs = list ? (await list(20, 'only').catch(() => [])).filter((s) => !known.has(s.sessionId)) : [];
    if (mine.length + theirs.length === 0) return void vscode.window.showInformationMessage('No archived chats.');
    const items: (vscode.QuickPickItem & { chatId?: string; sessionId?: string })[] = [
      ...mine.map((c) => ({ label: labelText(host.titleOf(c.id)), description: labelText(new Date(c.updatedAt).toLocaleString()), chatId: c.id })),
      ...(theirs.length && chat ? [{ label: labelText(`${chat.agent.name}: archived sessions`), kind: vscode.QuickPickItemKind.Separator }] : []),
      ...theirs.map((s) => ({ label: labelText(s.title ?? s.sessionId), description: labelText(s.updatedAt ?? ''), sessionId: s.sessionId })),
    ];
    pick = await vscode.window.showQuickPick(items, { title: 'Unarchive a chat' });
  }
  if (pick?.chatId !== undefined) return host.archive(pick.chatId, false);
  const id = pick?.sessionId;
  if (id === undefined) return;
  const chat = await host.chat();
  const archive = await supported(chat, 'archive');
  if (!archive) return;
  try {
    await archive(id, false);
  } catch (e) {
    return failed(chat, 'unarchiving the chat', e);
  }
  await chat.door.openSession(id);
}

/** The agent's archive is a bonus: a chat brought back is unarchived there too where it can be (an error: it forgot the session). */
export async function tellAgentUnarchived(chat: ChatController): Promise<void> {
  await chat.start().catch(() => undefined);
  const sessionId = chat.sessionId;
  const archive = chat.door.running ? chat.door.operation('archive') : undefined;
  if (sessionId === null || !archive) return;
  await archive(sessionId, false).catch(() => undefined);
}

/** ACP: Log Out: `logout` (v2: `auth/logout`) where advertised. */
export async function logout(host: SessionCommandHost): Promise<void> {
  const chat = await host.chat();
  const logOut = await supported(chat, 'logout');
  if (!logOut) return;
  try {
    await logOut();
    void vscode.window.showInformationMessage(`Logged out of ${noticeText(chat.agent.name)}. It asks you to sign in again when it needs to.`);
  } catch (e) {
    failed(chat, 'logging out', e);
  }
}
