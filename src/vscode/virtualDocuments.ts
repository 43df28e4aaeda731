/**
 * Read-only in-memory documents: the old/new sides of "Open diff", protocol logs, capability reports.
 * One content provider serves them all by id; memory stays bounded by dropping the oldest documents.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/util/lifecycle';

export const VIRTUAL_SCHEME = 'acp-chat';
const MAX_DOCS = 400;

export class VirtualDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private next = 1;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(VIRTUAL_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.query) ?? '';
  }

  /** A document named `name` (its extension picks the language) holding `text`. */
  add(name: string, text: string): vscode.Uri {
    const key = String(this.next++);
    this.docs.set(key, text);
    if (this.docs.size > MAX_DOCS) this.docs.delete(this.docs.keys().next().value as string);
    return vscode.Uri.from({ scheme: VIRTUAL_SCHEME, path: `/${name}`, query: key });
  }

  async show(name: string, text: string, language?: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(this.add(name, text));
    const shown = language ? await vscode.languages.setTextDocumentLanguage(doc, language) : doc;
    // Beside the active group: these are opened from the chat or the tree and must not cover the chat.
    return vscode.window.showTextDocument(shown, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  }

  /** Opens old/new text side by side in VS Code's diff editor; the name keeps its extension for highlighting. */
  async openDiff(path: string, oldText: string, newText: string, title: string, viewColumn: vscode.ViewColumn): Promise<void> {
    const name = path.split(/[\\/]/).pop() ?? 'file';
    await vscode.commands.executeCommand('vscode.diff', this.add(name, oldText), this.add(name, newText), title, { preview: true, viewColumn });
  }
}
