/**
 * Inline ask: from the editor (Ctrl+Alt+K, Cmd+Alt+K on macOS; VS Code's own inline chat keeps Ctrl+I), a
 * small input at the top of the editor takes a question; the selection (or the cursor's line) goes with it
 * to the focused chat as context, and the chat is shown beside the editor, where the answer streams.
 */
import * as vscode from 'vscode';
import { noticeText } from '../../common/untrusted';
import { contextChip } from '../../common/context';
import type { ChatService } from '../chats/chatService';
import { selectionItem } from './contextItems';

export async function inlineAsk(service: ChatService, ask: (title: string) => Thenable<string | undefined> = defaultAsk): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const item = selectionItem(editor);
  if (typeof item === 'string' || !editor) {
    void vscode.window.showInformationMessage(noticeText(typeof item === 'string' ? item : 'Open a file first.'));
    return;
  }
  const label = contextChip({ ...item, id: '' }).label;
  const question = (await ask(`Ask the chat about ${label}`))?.trim();
  if (!question) return;
  await service.ready();
  const editorColumn = editor.viewColumn;
  const chat = await service.activeChat();
  chat.addContext(item);
  const id = service.chatIdOf(chat);
  // Where the answer is: the chat, shown beside the editor the question came from (never over it).
  if (id !== undefined) await service.revealChatBeside(id, editorColumn);
  chat.prompt(question);
}

function defaultAsk(title: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: 'The selection (or the line at the cursor) goes with your question to the chat, which opens beside the editor.',
    placeHolder: 'Ask about this code',
  });
}
