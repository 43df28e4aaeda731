/**
 * Calls the user back to a chat that needs them while they look elsewhere: when its turn ends or its
 * agent asks a permission or a question, and the chat is not in view or the window is not focused, a
 * notification with Show; the chat also gets a mark (✦) before its title (tab and side bar) and a badge (the
 * side bar's chat view when it shows that chat; the ACP Messages view counts the chats waiting, so the
 * activity bar shows it too) until it is seen: its view visible in a focused window. Editor tabs have no
 * badge: the dot is theirs. A permission in a chat not in view has its own notification already
 * (chatUi's permissionAsked). `acpChat.notifyWhenUnseen` turns all this off.
 */
import * as vscode from 'vscode';
import { AttentionWatch, attentionText, type AttentionEvent } from '../../common/attention';
import { noticeText } from '../../common/untrusted';
import { Disposable, type IDisposable } from '../../common/util/lifecycle';
import type { PanelDelta } from '../../common/webview/panelDeltas';

export interface AttentionPorts {
  enabled(): boolean;
  /** Whether a view of the chat is visible (the window's focus is checked here). */
  isVisible(chatId: string): boolean;
  title(chatId: string): string;
  show(chatId: string): void;
  /** The chat's title (with or without the dot) and its badges need drawing again. */
  retitle(chatId: string): void;
  /** The chat has something unseen, or was seen: the chat index keeps it (history's unread mark). */
  unread(chatId: string, unread: boolean): void;
}

/** A view's badge for `count` unseen events (undefined: no badge). */
export function attentionBadge(count: number, what: string): vscode.ViewBadge | undefined {
  // Not "waiting for you": most are turns that simply finished.
  return count > 0 ? { value: count, tooltip: `${count} ${what} you have not seen yet` } : undefined;
}

/** Before the title of a chat with news: not VS Code's unsaved dot (●), which a chat tab would be read as. */
export const UNSEEN_MARK = '✦ ';

export class ChatAttention extends Disposable {
  /** Per chat, how many times it called for the user since they last looked. */
  private readonly unseen = new Map<string, number>();

  constructor(private readonly d: AttentionPorts) {
    super();
    // Back in the window: a chat in view that called while the window was not focused has been seen now.
    this.register(
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused) for (const id of [...this.unseen.keys()]) if (this.d.isVisible(id)) this.seen(id);
      }),
    );
  }

  /** Follows one chat's panel deltas; dispose with the chat. */
  watch(chatId: string, onDidChange: (listener: (changes: readonly PanelDelta[]) => void) => IDisposable): IDisposable {
    const w = new AttentionWatch();
    return onDidChange((changes) => {
      for (const c of changes) if (c.type === 'panel') this.call(chatId, w.observe(c.fields));
    });
  }

  /** The title as shown: with the dot while the chat has something unseen. */
  decorate(chatId: string, title: string): string {
    return this.unseen.has(chatId) ? UNSEEN_MARK + title : title;
  }

  /** How many times the chat called for the user since they last looked (its badge). */
  count(chatId: string | undefined): number {
    return chatId === undefined ? 0 : (this.unseen.get(chatId) ?? 0);
  }

  /** How many chats wait for the user. */
  get waitingChats(): number {
    return this.unseen.size;
  }

  /** The user looks at the chat now (its view became visible in a focused window). */
  seen(chatId: string): void {
    if (!this.unseen.delete(chatId)) return;
    this.d.retitle(chatId);
    this.d.unread(chatId, false);
  }

  forget(chatId: string): void {
    this.unseen.delete(chatId);
  }

  private call(chatId: string, events: readonly AttentionEvent[]): void {
    if (events.length === 0 || !this.d.enabled()) return;
    const visible = this.d.isVisible(chatId);
    if (visible && vscode.window.state.focused) return;
    this.unseen.set(chatId, this.count(chatId) + events.length);
    this.d.retitle(chatId);
    this.d.unread(chatId, true);
    const told = events.filter((e) => e.kind !== 'permission' || visible).at(-1);
    if (!told) return;
    void vscode.window.showInformationMessage(noticeText(attentionText(this.d.title(chatId), told)), 'Show').then((a) => a === 'Show' && this.d.show(chatId));
  }
}
