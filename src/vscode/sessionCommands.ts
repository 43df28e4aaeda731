/**
 * The session commands beyond the stable protocol: Fork Chat Here (`session/fork`), Rename Chat
 * (`session/set_title`), Archive / Unarchive Chat (`session/archive`, `session/unarchive`) and Log Out
 * (`logout`). Each is sent only when the agent advertised it in initialize; otherwise the command says
 * which agent lacks what, instead of failing. Agent text in every message is made inert (untrusted.ts).
 */
import * as vscode from 'vscode';
import { OPERATION_METHOD, supportsOperation, type SessionOperation } from '../common/protocol/sessionOps';
import { labelText, noticeText } from '../common/untrusted';
import { errorText } from '../common/util/errors';
import { listAllSessions } from '../node/acp/sessions';
import type { ChatController } from '../node/chat/chatController';

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

/** Starts the chat's agent and says, when it lacks `op`, that it does; true when the operation may go ahead. */
async function supported(chat: ChatController, op: SessionOperation): Promise<boolean> {
  await chat.start();
  const caps = chat.client?.agentCapabilities;
  if (!chat.client || chat.client.isClosed) {
    void vscode.window.showErrorMessage(`${noticeText(chat.agent.name)} is not running: restart the agent and try again.`);
    return false;
  }
  if (supportsOperation(caps, op)) return true;
  const method = op === 'logout' && chat.client.protocolVersion === 2 ? 'auth/logout' : OPERATION_METHOD[op];
  void vscode.window.showInformationMessage(`${noticeText(chat.agent.name)} does not support ${noticeText(WHAT[op])}: it did not advertise ${noticeText(method)}.`);
  return false;
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
  if (!(await supported(chat, 'fork'))) return;
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
    const fork = await chat.operate((client, params) => client.forkSession({ sessionId, ...params }));
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
  if (line === '' || !chat.client || !supportsOperation(chat.client.agentCapabilities, 'title')) return;
  try {
    await chat.operate((client) => client.setSessionTitle(sessionId, line));
  } catch (e) {
    failed(chat, 'telling the agent the new title', e);
  }
}

/** Archive Chat: the agent archives (and closes) the session; this chat goes on in a new one. */
export async function archiveChat(host: SessionCommandHost): Promise<void> {
  const chat = await host.chat();
  if (!(await supported(chat, 'archive'))) return;
  const sessionId = chat.sessionId;
  if (sessionId === null) return;
  const title = chat.current()?.title ?? sessionId;
  try {
    await chat.operate((client) => client.archiveSession(sessionId));
  } catch (e) {
    return failed(chat, 'archiving the chat', e);
  }
  // session/archive closed the session already (the schema says so): no session/close after it.
  await chat.newSession(false);
  void vscode.window.showInformationMessage(`Archived "${noticeText(title, 80)}". "ACP: Unarchive Chat…" brings it back.`);
}

/** Unarchive Chat…: pick one of the agent's archived sessions; it is unarchived and opened. */
export async function unarchiveChat(host: SessionCommandHost, sessionId?: string): Promise<void> {
  const chat = await host.chat();
  if (!(await supported(chat, 'archive'))) return;
  let target = sessionId;
  if (target === undefined) {
    const client = chat.client;
    const archived = client && supportsOperation(client.agentCapabilities, 'list') ? await listAllSessions(client, chat.cwd, 20, 'only').catch(() => []) : [];
    const canList = client !== undefined && supportsOperation(client.agentCapabilities, 'list');
    if (archived.length === 0) return void vscode.window.showInformationMessage(`${noticeText(chat.agent.name)} has no archived chats${noticeText(canList ? '' : ' it can list')}.`);
    const pick = await vscode.window.showQuickPick(
      archived.map((s) => ({ label: labelText(s.title ?? s.sessionId), description: labelText(s.updatedAt ?? ''), detail: labelText(s.sessionId), sessionId: s.sessionId })),
      { title: `${labelText(chat.agent.name)}: unarchive a chat`, matchOnDetail: true },
    );
    target = pick?.sessionId;
  }
  if (target === undefined) return;
  const id = target;
  try {
    await chat.operate((client) => client.archiveSession(id, false));
  } catch (e) {
    return failed(chat, 'unarchiving the chat', e);
  }
  await chat.openSession(id);
}

/** ACP: Log Out: `logout` (v2: `auth/logout`) where advertised. */
export async function logout(host: SessionCommandHost): Promise<void> {
  const chat = await host.chat();
  if (!(await supported(chat, 'logout'))) return;
  try {
    await chat.operate((client) => client.logout());
    void vscode.window.showInformationMessage(`Logged out of ${noticeText(chat.agent.name)}. It asks you to sign in again when it needs to.`);
  } catch (e) {
    failed(chat, 'logging out', e);
  }
}
