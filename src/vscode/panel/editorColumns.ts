/** Where the chat puts editors it opens. */
import * as vscode from 'vscode';

/** Files and diffs opened from the chat go to the first editor group, or the second when the chat is there: never over the chat. */
export function columnBesideChat(chat: vscode.ViewColumn | undefined): vscode.ViewColumn {
  return chat === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
}
