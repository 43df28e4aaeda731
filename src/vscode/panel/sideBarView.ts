/**
 * The chat as a view in the side bar (a WebviewView in the ACP Chat container, movable like any view).
 * It shows one chat at a time, the one the user picked for it ("ACP: Show Chat in Side Bar"), else the
 * focused one; the same chat may be open in a tab too, and both webviews get its snapshot and patches.
 */
import * as vscode from 'vscode';
import { Disposable, Emitter } from '../../common/util/lifecycle';
import { ChatWebview, type ChatModel } from './chatWebview';
import { findWorkspaceFiles } from '../context/promptBuilder';
import { placeholderHtml } from '../../common/webview/html';

const NO_CHAT = 'No chat: run "ACP: Show Chat in Side Bar".';

export const CHAT_SIDEBAR_VIEW = 'acpChat.chatView';

/** What the view needs from ChatService. */
export interface SideBarHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** The chat to show when the view opens: the one picked for it before, else the focused one (made live). */
  initialChat(): Promise<{ chatId: string; model: ChatModel; title: string } | undefined>;
}

export class SideBarChat extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private webview: ChatWebview | undefined;
  private chatIdValue: string | undefined;
  private readonly changed = this.register(new Emitter<void>());
  /** The view was created, hidden, shown, or shows another chat. */
  readonly onDidChange = this.changed.event;
  private readonly interacted = this.register(new Emitter<string>());
  /** The user did something in the side bar's chat (or showed the view): it is the focused chat. */
  readonly onDidInteract = this.interacted.event;

  constructor(private readonly host: SideBarHost) {
    super();
    this.register({ dispose: () => this.webview?.dispose() });
  }

  /** The chat the view shows (also while the view is collapsed or hidden). */
  get chatId(): string | undefined {
    return this.chatIdValue;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The view's webview, once VS Code resolved it (tests wait for `whenReady()`). */
  get chatWebview(): ChatWebview | undefined {
    return this.webview;
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.view = view;
    view.badge = this.badgeValue;
    this.register(
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.webview = undefined;
          this.changed.fire();
        }
      }),
    );
    this.register(
      view.onDidChangeVisibility(() => {
        if (view.visible && this.chatIdValue) this.interacted.fire(this.chatIdValue);
        this.changed.fire();
      }),
    );
    const initial = this.chatIdValue === undefined ? await this.host.initialChat() : undefined;
    if (initial) {
      this.chatIdValue = initial.chatId;
      this.pending = initial;
    }
    if (this.pending) this.mount(this.pending.model, this.pending.title);
    else view.webview.html = placeholderHtml(NO_CHAT);
    this.changed.fire();
  }

  /** What to show once the view exists (set by `show` before VS Code resolved the view). */
  private pending: { model: ChatModel; title: string } | undefined;

  /** Shows a chat in the view (creating the webview when VS Code has resolved the view). */
  show(chatId: string, model: ChatModel, title: string): void {
    this.chatIdValue = chatId;
    this.badge = undefined; // the caller draws the new chat's title and badge
    this.pending = { model, title };
    if (this.view) this.mount(model, title);
    this.changed.fire();
  }

  private badgeValue: vscode.ViewBadge | undefined;

  /** The view's badge (the shown chat's unseen calls for the user); kept for a view VS Code resolves later. */
  get badge(): vscode.ViewBadge | undefined {
    return this.badgeValue;
  }

  set badge(value: vscode.ViewBadge | undefined) {
    if (value?.value === this.badgeValue?.value) return;
    this.badgeValue = value;
    if (this.view) this.view.badge = value;
  }

  /** The chat's title changed. */
  retitle(title: string): void {
    if (this.view) this.view.description = title;
    if (this.pending) this.pending = { ...this.pending, title };
  }

  /** The chat was deleted: the view shows nothing until another chat is picked. */
  clear(): void {
    this.chatIdValue = undefined;
    this.pending = undefined;
    this.webview?.dispose();
    this.webview = undefined;
    if (this.view) {
      this.view.description = undefined;
      this.view.webview.html = placeholderHtml(NO_CHAT);
    }
    this.changed.fire();
  }

  private mount(model: ChatModel, title: string): void {
    const view = this.view;
    if (!view) return;
    view.description = title;
    if (this.webview && !this.webview.disposed) {
      this.webview.attach(model);
      return;
    }
    const webview = new ChatWebview(
      {
        webview: view.webview,
        get visible() {
          return view.visible;
        },
        onDidChangeVisibility: view.onDidChangeVisibility,
        onDidDispose: view.onDidDispose,
        close: () => undefined, // VS Code owns the view; only our webview stops
      },
      this.host.extensionUri,
      model,
      this.host.log,
      (q) => findWorkspaceFiles(q),
    );
    webview.onDidInteract(() => {
      if (this.chatIdValue) this.interacted.fire(this.chatIdValue);
    });
    this.webview = webview;
  }
}
