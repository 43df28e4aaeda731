/**
 * Restore in place: the chat the user is in goes back to one of their messages. The files go back as they
 * were before it (the rollback offer Edit and Rerun makes), the turns from the message on are folded away
 * in the same tab (the store's fold, foldRules.ts: kept, saved, opened by its row), and the conversation
 * goes on with the agent from there: in its fork at the message where it can fork there, else in a new
 * session whose next prompt carries the transcript before the message (a context chip the user sees and
 * may remove), as a branch does. One chat, one tab: only the session the chat shows changes. The message
 * restored to goes back into the prompt box (its text and images, its context as chips), as Zed does, to
 * edit and send again.
 */
import * as vscode from 'vscode';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { branchPoint } from '../../common/rewind/branchPlan';
import { editDraft } from '../../common/rewind/editDraft';
import { noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { forkAt, planAt, rewindFiles, type MessagePoint, type RewindHost, type RewindWords } from './rewind';

const RESTORE_WORDS: RewindWords = { before: 'and restore the chat to it', undo: 'Undo Changes and Restore', keep: 'Restore, Keep Files', failed: 'The chat was not restored.' };

/** Restores the chat to the user message at `point`; true when it now goes on from there. */
export async function restoreInPlace(host: RewindHost, point: MessagePoint): Promise<boolean> {
  const chat = await host.chat(point.chatId);
  const chatId = host.chatIdOf(chat);
  const entries = chat.store.session(point.sessionId)?.entries ?? [];
  const at = branchPoint(entries, point.key);
  if (!at.ok) return say(at.reason);
  if (point.sessionId !== chat.sessionId) return say('Only a message of the session the chat shows can be restored to.');
  if (chat.turnState === 'busy' || chat.turnState === 'cancelling') return say('Stop the running turn first, then restore.');
  await chat.start();
  const plan = planAt(chat, entries, at.index);
  if (!(await rewindFiles(chat, point.sessionId, new Set(entries.slice(at.index).map((e) => e.key)), RESTORE_WORDS))) return false;
  try {
    if (plan.kind === 'forkAtMessage') await chat.door.openSession(await forkAt(chat, point.sessionId, plan.messageId));
    else await chat.door.newSession();
    if (chat.sessionId === point.sessionId || chat.sessionId === null) throw new Error('the agent did not start a session to go on in');
    chat.recordRewind(point.sessionId, point.key);
    if (plan.kind === 'newSession' && plan.carried) {
      // Written where the user can open it and a linking agent can read it, like a branch's.
      const file = path.join(host.branchesDir(), `${chatId ?? 'chat'}-${chat.sessionId}.md`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, plan.carried.markdown, 'utf8');
      const size = Buffer.byteLength(plan.carried.markdown, 'utf8');
      chat.addContext({ kind: 'file', path: file, lines: null, text: plan.carried.markdown, size, label: `Earlier conversation (${plan.carried.messages} messages)` });
    }
    const draft = editDraft(at.message.content);
    for (const item of draft.context) chat.addContext(item);
    await host.postTo(chat, { type: 'restoreDraft', text: draft.text, images: draft.images });
    return true;
  } catch (e) {
    void vscode.window.showErrorMessage(`${noticeText(chat.agent.name)}: the chat could not be restored: ${noticeText(errorText(e))}`);
    return false;
  }
}

function say(text: string): false {
  void vscode.window.showInformationMessage(noticeText(text));
  return false;
}
