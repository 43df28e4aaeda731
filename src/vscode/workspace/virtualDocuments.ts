/**
 * Read-only in-memory documents: the old/new sides of "Open diff", protocol logs, capability reports.
 * One content provider serves them all by id; memory stays bounded by dropping the oldest documents.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../common/util/lifecycle';
import { debugViewPlacement, type GroupInfo } from '../../common/debug/placement';
import { CHAT_VIEW_TYPE } from '../panel/chatPanel';

const VIRTUAL_SCHEME = 'acp-chat';
const MAX_DOCS = 400;

/** The editor groups as placement.ts sees them (a chat tab is a webview of a chat view type). */
function editorGroups(): GroupInfo[] {
  return vscode.window.tabGroups.all.map((g) => ({
    column: g.viewColumn,
    hasChat: g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes(CHAT_VIEW_TYPE)),
    active: g.isActive,
  }));
}

export class VirtualDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private next = 1;
  /** Where the last debug view went (reused while that group exists). */
  private lastColumn: vscode.ViewColumn | undefined;

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

  /**
   * A debug view: shown as a preview tab in the debug views' one place (placement.ts), so a new one
   * replaces the last and no chat is squeezed by another column. Markdown shows rendered, its source a
   * tab behind (and the preview's "Open Source" button). Returns the document (its text is the report).
   */
  async show(name: string, text: string, language?: string): Promise<vscode.TextDocument> {
    const uri = this.add(name, text);
    const doc = await vscode.workspace.openTextDocument(uri);
    const shown = language ? await vscode.languages.setTextDocumentLanguage(doc, language) : doc;
    const place = debugViewPlacement(editorGroups(), this.lastColumn);
    const editor = await vscode.window.showTextDocument(shown, { preview: true, viewColumn: place === 'beside' ? vscode.ViewColumn.Beside : place });
    this.lastColumn = editor.viewColumn;
    if (language === 'markdown') {
      // Opens in the group of the active editor, the one just shown; without the Markdown extension the source stays.
      await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, () => undefined);
    }
    return shown;
  }

  /** A patch (unified diff text) as a read-only `diff` document, in `viewColumn` (beside the chat). */
  async showPatch(name: string, text: string, viewColumn: vscode.ViewColumn): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.add(name.replace(/[\\/]/g, '_'), text));
    await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(doc, 'diff'), { preview: true, viewColumn });
  }

  /** Opens old/new text side by side in VS Code's diff editor; the name keeps its extension for highlighting. */
  async openDiff(path: string, oldText: string, newText: string, title: string, viewColumn: vscode.ViewColumn): Promise<void> {
    const name = path.split(/[\\/]/).pop() ?? 'file';
    await vscode.commands.executeCommand('vscode.diff', this.add(name, oldText), this.add(name, newText), title, { preview: true, viewColumn });
  }
}
