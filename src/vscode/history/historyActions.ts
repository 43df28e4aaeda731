/**
 * History's bulk actions on many chats at once: archive and unarchive (the chat index's flag; tabs of an
 * archived chat close), mark read, delete (after a dialog naming how many chats and every file it removes;
 * the agents are asked to delete their sessions only for chats live now, since asking would start an agent
 * per chat), and export (one Markdown file per chat from its search file, into a folder the user picks).
 */
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BulkAction } from '../../common/history/historyContract';
import { noticeLines, noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { CHAT_DELETE_EXTS, fileId } from '../../node/persistence/chatFiles';
import { exportChat } from '../../node/history/historyExport';
import type { ChatService } from '../chats/chatService';

/** File names listed in the delete dialog before "and N more". */
const LISTED_FILES = 12;

/** Runs a bulk action; returns the line the view shows (undefined: nothing done, e.g. cancelled). */
export async function bulkAction(service: ChatService, action: BulkAction, chatIds: readonly string[]): Promise<string | undefined> {
  const index = service.chatIndex;
  const ids = chatIds.filter((id) => index.has(id));
  if (ids.length === 0) return 'No chats selected.';
  const n = `${ids.length} chat${ids.length === 1 ? '' : 's'}`;
  switch (action) {
    case 'archive':
      for (const id of ids) {
        index.update(id, { archived: true });
        service.closeChat(id);
      }
      return `Archived ${n}.`;
    case 'unarchive':
      for (const id of ids) index.update(id, { archived: false });
      return `Unarchived ${n}.`;
    case 'markRead':
      for (const id of ids) index.update(id, { unread: false });
      return `Marked ${n} read.`;
    case 'delete':
      return deleteChats(service, ids, n);
    case 'export':
      return exportChats(service, ids, n);
  }
}

/** The files of these chats that exist now: what delete removes. */
function filesOf(dir: string | undefined, chatIds: readonly string[]): string[] {
  if (dir === undefined) return [];
  return chatIds.flatMap((id) => CHAT_DELETE_EXTS.map((ext) => path.join(dir, fileId(id) + ext)).filter((f) => existsSync(f)));
}

async function deleteChats(service: ChatService, ids: readonly string[], n: string): Promise<string | undefined> {
  const dir = service.chatsDir();
  const files = filesOf(dir, ids);
  const listed = files.slice(0, LISTED_FILES).map((f) => path.basename(f));
  const more = files.length > LISTED_FILES ? `\n… and ${files.length - LISTED_FILES} more` : '';
  const detail = files.length
    ? `These ${files.length} files are removed from ${dir}:\n${listed.join('\n')}${more}\n\nAgents are asked to delete their sessions only for chats running now.`
    : 'These chats have no saved files.';
  // noticeLines, not noticeText: that one flattens the lines and cuts at 300 characters, so the dialog did
  // not name every file it removes.
  const ok = await vscode.window.showWarningMessage(noticeText(`Delete ${n}? This cannot be undone.`), { modal: true, detail: noticeLines(...detail.split('\n')) }, 'Delete');
  if (ok !== 'Delete') return undefined;
  let failed = 0;
  for (const id of ids) await service.deleteChat(id, false).catch((e: unknown) => void (failed++, service.log.warn(`could not delete ${id}: ${errorText(e)}`)));
  return `Deleted ${n}${failed ? ` (${failed} failed: see the log)` : ''}.`;
}

async function exportChats(service: ChatService, ids: readonly string[], n: string): Promise<string | undefined> {
  const dir = service.chatsDir();
  if (dir === undefined) return 'Chats are not saved in this window: nothing to export.';
  const pick = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: `Export ${n} here` });
  const out = pick?.[0]?.fsPath;
  if (out === undefined) return undefined;
  let failed = 0;
  for (const id of ids) await exportChat(dir, id, service.titleOf(id), out).catch((e: unknown) => void (failed++, service.log.warn(`could not export ${id}: ${errorText(e)}`)));
  return `Exported ${n} to ${out}${failed ? ` (${failed} without a search file yet: open them once)` : ''}.`;
}
