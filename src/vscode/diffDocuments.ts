/**
 * Read-only virtual documents for "Open diff": the old and new text of a tool call's `diff` content,
 * shown in VS Code's own diff editor. Documents are registered by id and served from memory.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/util/lifecycle';

export const DIFF_SCHEME = 'acp-diff';

export class DiffDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private next = 1;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.query) ?? '';
  }

  /** Opens old/new text side by side; the file name keeps its extension so highlighting works. */
  async open(path: string, oldText: string, newText: string, title: string): Promise<void> {
    const id = this.next++;
    const name = path.split(/[\\/]/).pop() ?? 'file';
    const left = this.add(`${id}-old`, oldText, name);
    const right = this.add(`${id}-new`, newText, name);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  private add(key: string, text: string, name: string): vscode.Uri {
    this.docs.set(key, text);
    // Keep memory bounded: drop the oldest documents past a few hundred.
    if (this.docs.size > 400) this.docs.delete(this.docs.keys().next().value as string);
    return vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${name}`, query: key });
  }
}
