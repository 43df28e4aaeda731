/**
 * Edit and Rerun, Retry and Regenerate. Editing a user message opens it in its chat's prompt box (text,
 * images, context chips); sending it makes a branch: a new chat, the original left as it is, made by
 * the plan in src/common/rewind (fork at the message where the agent offers it, else a new session
 * whose first prompt carries the earlier transcript). Before the branch runs, the Changes of the turns
 * after the message may be undone (one edit), so the code goes back with the conversation.
 */
import * as vscode from 'vscode';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatOrigin } from '../../common/chats/chatIndex';
import type { RewindOffer } from '../../common/changes/review';
import { fileUri } from '../../common/mentions';
import type { QueuedPrompt } from '../../common/promptQueue';
import { branchPoint, carriedPrompt, planBranch } from '../../common/rewind/branchPlan';
import { editDraft } from '../../common/rewind/editDraft';
import { forkAtMessageParams } from '../../common/rewind/forkAtMessage';
import { lastUserMessage, promptOfMessage } from '../../common/rewind/rerunPrompt';
import type { HostToWebview } from '../../common/webview/contract';
import { noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import type { ChatController } from '../../node/chat/chatController';

/** What the commands need from the chat service. */
export interface RewindHost {
  /** `chatId`'s chat, else the focused one; live and started. */
  chat(chatId?: string): Promise<ChatController>;
  chatIdOf(chat: ChatController): string | undefined;
  /** Shows the chat and posts `message` to its panel once the panel is ready. */
  postTo(chat: ChatController, message: HostToWebview): Promise<void>;
  /** A new chat showing the fork `forkSessionId` of `source`; its id. */
  openFork(source: ChatController, forkSessionId: string): Promise<string>;
  /** A new chat of `agentId` continuing chat `from` (its worktree, if it gets one, made from that chat's); its id. */
  newChat(agentId: string, from: string): Promise<string>;
  live(chatId: string): ChatController | undefined;
  setOrigin(chatId: string, origin: ChatOrigin): void;
  /** Where carried transcripts are written. */
  branchesDir(): string;
}

export interface MessagePoint {
  readonly chatId?: string;
  readonly sessionId: string;
  readonly key: string;
}

export interface BranchRequest extends MessagePoint {
  readonly prompt: QueuedPrompt;
}

/** A branch request from a command argument (the webview's port, a test); undefined when malformed. */
export function branchRequestFrom(arg: unknown): BranchRequest | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as { chatId?: unknown; sessionId?: unknown; key?: unknown; prompt?: unknown };
  const p = a.prompt as { text?: unknown; images?: unknown } | undefined;
  if (typeof a.sessionId !== 'string' || typeof a.key !== 'string' || typeof p?.text !== 'string' || !Array.isArray(p.images)) return undefined;
  return { ...(typeof a.chatId === 'string' ? { chatId: a.chatId } : {}), sessionId: a.sessionId, key: a.key, prompt: a.prompt as QueuedPrompt };
}

/** Edit and Rerun: the message goes into its chat's prompt box (context as chips); Send then branches. */
export async function editMessage(host: RewindHost, point: MessagePoint): Promise<void> {
  const chat = await host.chat(point.chatId);
  const entry = chat.store.session(point.sessionId)?.entries.find((e) => e.key === point.key);
  if (entry?.kind !== 'user_message') return void vscode.window.showInformationMessage('Only your own messages can be edited and run again.');
  const draft = editDraft(entry.content);
  chat.beginEdit(draft.context);
  await host.postTo(chat, { type: 'editPrompt', key: point.key, text: draft.text, images: draft.images });
}

/** Regenerate: a branch at the chat's last user message, sending that message as it was. */
export async function regenerate(host: RewindHost, chatId?: string): Promise<void> {
  const chat = await host.chat(chatId);
  const sessionId = chat.sessionId;
  const last = sessionId === null ? undefined : lastUserMessage(chat.store.session(sessionId)?.entries ?? []);
  if (sessionId === null || !last) return void vscode.window.showInformationMessage('There is no answer to regenerate yet.');
  await branch(host, { ...(chatId !== undefined ? { chatId } : {}), sessionId, key: last.key, prompt: promptOfMessage(last.content) });
}

/** Retry: the last prompt again, in the same session. */
export async function retry(host: RewindHost, chatId?: string): Promise<void> {
  (await host.chat(chatId)).retry();
}

/** Sends an edited message as a branch at `req.key`; returns the branch chat's id (undefined: not made). */
export async function branch(host: RewindHost, req: BranchRequest): Promise<string | undefined> {
  const source = await host.chat(req.chatId);
  const sourceId = host.chatIdOf(source);
  const entries = source.store.session(req.sessionId)?.entries ?? [];
  const point = branchPoint(entries, req.key);
  if (!point.ok || sourceId === undefined) return void vscode.window.showInformationMessage(noticeText(point.ok ? 'The chat is gone.' : point.reason));
  await source.start();
  const plan = planAt(source, entries, point.index);
  if (!(await rewindFiles(source, req.sessionId, new Set(entries.slice(point.index).map((e) => e.key)), BRANCH_WORDS))) return undefined;
  const origin: ChatOrigin = { kind: 'forked', chatId: sourceId, sessionId: req.sessionId, messageKey: req.key };
  try {
    let chatId: string;
    let prompt = req.prompt;
    if (plan.kind === 'forkAtMessage') {
      chatId = await host.openFork(source, await forkAt(source, req.sessionId, plan.messageId));
    } else {
      chatId = await host.newChat(source.agent.id, sourceId);
      if (plan.carried) {
        // Written where the user can open it (the message's chip) and a linking agent can read it.
        const file = path.join(host.branchesDir(), `${chatId}.md`);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, plan.carried.markdown, 'utf8');
        prompt = { ...prompt, carried: carriedPrompt(plan, fileUri(file), []) };
      }
    }
    host.setOrigin(chatId, origin);
    const chat = host.live(chatId);
    if (!chat) throw new Error('the branch chat did not open');
    chat.send(prompt);
    return chatId;
  } catch (e) {
    void vscode.window.showErrorMessage(`${noticeText(source.agent.name)}: the branch could not be made: ${noticeText(errorText(e))}`);
    return undefined;
  }
}

/** How a branch or a restore is made for `chat` at `entries[index]` (fork at the message, or a new session carrying the transcript). */
export function planAt(chat: ChatController, entries: Parameters<typeof planBranch>[1], index: number): ReturnType<typeof planBranch> {
  return planBranch(chat.door.facts()?.capabilities, entries, index, chat.agent.name);
}

/** The agent's fork of `sessionId` at its message `messageId` (forkAtMessage.ts); the fork's session id. The store seeds it with the history before the message. */
export async function forkAt(chat: ChatController, sessionId: string, messageId: string): Promise<string> {
  await chat.start(); // the agent may have gone while the files were rewound
  const forkSession = chat.door.operation('fork');
  if (!forkSession) throw new Error('the agent no longer offers session/fork');
  return (await forkSession(sessionId, forkAtMessageParams(messageId))).sessionId;
}

/** The file offer's words: what goes on after it (a branch, a restore). */
export interface RewindWords {
  readonly before: string;
  readonly undo: string;
  readonly keep: string;
  readonly failed: string;
}

const BRANCH_WORDS: RewindWords = { before: 'before the branch runs', undo: 'Undo Changes and Branch', keep: 'Branch, Keep Files', failed: 'The branch was not made.' };

/**
 * Offers to undo the Changes of the turns after the branch point (shown after `laterKeys`); false when
 * the user cancelled. Nothing to undo asks nothing.
 */
export async function rewindFiles(chat: ChatController, sessionId: string, laterKeys: ReadonlySet<string>, words: RewindWords): Promise<boolean> {
  const review = chat.review;
  if (!review) return true;
  let answer: string | undefined = words.keep;
  const confirm = async (offer: RewindOffer): Promise<boolean> => {
    const refused = offer.refused.length ? ` Left as they are: ${offer.refused.map((r) => `${r.path} (${r.why})`).join(', ')}.` : '';
    const files = offer.files.length ? ` Files put back: ${offer.files.join(', ')}.` : ' No file can be put back.';
    answer = await vscode.window.showWarningMessage(
      noticeText(`Undo the changes ${chat.agent.name} made after this message ${words.before}?${files}${refused}`),
      { modal: true, detail: 'Undo is one edit: Ctrl+Z in an editor brings the files back. Keeping them leaves the files as they are now.' },
      ...(offer.files.length ? [words.undo] : []),
      words.keep,
    );
    return answer === words.undo;
  };
  try {
    await review.rewind(sessionId, laterKeys, confirm);
  } catch (e) {
    void vscode.window.showErrorMessage(`The files could not be put back: ${noticeText(errorText(e))}. ${noticeText(words.failed)}`);
    return false;
  }
  return answer !== undefined;
}
