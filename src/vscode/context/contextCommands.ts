/**
 * "ACP: Add Selection / File / Problems to Chat": gather editor context and attach it to the active chat's
 * next prompt (a chip in the prompt box). What crosses the wire is decided in src/common/context.ts.
 */
import * as vscode from 'vscode';
import { noticeText } from '../../common/untrusted';
import type { NewItem } from './contextItems';
import type { ChatService } from '../chats/chatService';

/** Attaches the item to the focused chat (starting one if needed) and shows that chat (tab or side bar) with the chip, beside the editor. */
export async function addToChat(service: ChatService, item: NewItem | string): Promise<void> {
  if (typeof item === 'string') {
    void vscode.window.showInformationMessage(noticeText(item));
    return;
  }
  await service.ready();
  // The editor the context came from stays in view (the chat is shown beside it, never over it).
  const editorColumn = vscode.window.activeTextEditor?.viewColumn;
  const session = await service.activeChat();
  session.addContext(item);
  const id = service.chatIdOf(session);
  if (id !== undefined) await service.revealChatBeside(id, editorColumn);
}

/** Explorer and editor-tab menus pass the clicked resource (and, with a multi-selection, all of them). */
export function urisFrom(arg: unknown, all: unknown): vscode.Uri[] {
  if (Array.isArray(all) && all.length && all.every((u) => u instanceof vscode.Uri)) return all as vscode.Uri[];
  if (arg instanceof vscode.Uri) return [arg];
  const active = vscode.window.activeTextEditor?.document.uri;
  return active ? [active] : [];
}
