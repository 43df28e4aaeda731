/**
 * A chat webview's page (options and HTML), and setting it before the chat behind it is built: the page
 * paints its frame (src/common/webview/html.ts) while the extension host opens the chat's state and starts
 * its agent. Messages the page sends before the chat's ChatWebview exists (its `ready`) are kept and
 * handed to it, so none is lost.
 */
import * as vscode from 'vscode';
import { makeNonce, renderWebviewHtml } from '../../common/webview/html';

interface EarlyPage {
  readonly chatId: string | undefined;
  /** The page set; another one set since (a tab showing that the chat is open elsewhere) is not ours. */
  readonly html: string;
  readonly messages: unknown[];
  readonly listener: vscode.Disposable;
}

const early = new WeakMap<vscode.Webview, EarlyPage>();

/** The page of a chat webview: only our own bundle and styles may load, nothing from the workspace or the network. */
export function setChatPage(webview: vscode.Webview, extensionUri: vscode.Uri, chatId: string | undefined): void {
  webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
  const asset = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  webview.html = renderWebviewHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    scriptUri: asset('dist', 'webview.js'),
    highlightScriptUri: asset('dist', 'highlight.js'),
    styleUris: [asset('dist', 'codicons', 'codicon.css'), asset('media', 'chat.css')],
    ...(chatId !== undefined ? { chatId } : {}),
  });
}

/** Sets the page of a chat tab that will show `chatId` now, before its chat is built (takeEarlyPage takes it over). */
export function setPageEarly(webview: vscode.Webview, extensionUri: vscode.Uri, chatId: string | undefined): void {
  if (early.has(webview)) return;
  setChatPage(webview, extensionUri, chatId);
  const messages: unknown[] = [];
  early.set(webview, { chatId, html: webview.html, messages, listener: webview.onDidReceiveMessage((m: unknown) => void messages.push(m)) });
}

/**
 * The messages the page set early sent so far, when its page was set for `chatId` and is still shown (the
 * caller handles them once it listens); undefined otherwise (the caller sets the page).
 */
export function takeEarlyPage(webview: vscode.Webview, chatId: string | undefined): unknown[] | undefined {
  const page = early.get(webview);
  if (!page) return undefined;
  early.delete(webview);
  page.listener.dispose();
  return page.chatId === chatId && webview.html === page.html ? page.messages : undefined;
}

/**
 * Lets the extension host send what it queued (a new panel and its page) before synchronous work: its
 * messages to the workbench leave on a timer, so work done in the same task would hold them back.
 */
export function afterQueuedMessages(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
