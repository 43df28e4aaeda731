/**
 * Calls the user back to a chat that needs them while they look elsewhere: when its turn ends or its
 * agent asks a permission or a question, and the chat is not in view or the window is not focused, a
 * notification with Show; a chat not in view also gets a dot before its title (tab and side bar) until it
 * is seen. A permission in a chat not in view has its own notification already (sessionUi's
 * permissionAsked). `acpChat.notifyWhenUnseen` turns all this off.
 */
import * as vscode from 'vscode';
import { AttentionWatch, attentionText, type AttentionEvent } from '../common/attention';
import { noticeText } from '../common/untrusted';
import type { IDisposable } from '../common/util/lifecycle';
import type { PanelChange } from '../common/webview/panelChanges';

export interface AttentionPorts {
  enabled(): boolean;
  /** Whether a view of the chat is visible (the window's focus is checked here). */
  isVisible(chatId: string): boolean;
  title(chatId: string): string;
  show(chatId: string): void;
  /** The chat's title (with or without the dot) needs drawing again. */
  retitle(chatId: string): void;
}

export const UNSEEN_MARK = '● ';

export class ChatAttention {
  private readonly unseen = new Set<string>();

  constructor(private readonly d: AttentionPorts) {}

  /** Follows one chat's panel changes; dispose with the chat. */
  watch(chatId: string, onDidChange: (listener: (changes: readonly PanelChange[]) => void) => IDisposable): IDisposable {
    const w = new AttentionWatch();
    return onDidChange((changes) => {
      for (const c of changes) if (c.type === 'panel') this.call(chatId, w.observe(c.fields));
    });
  }

  /** The title as shown: with the dot while the chat has something unseen. */
  decorate(chatId: string, title: string): string {
    return this.unseen.has(chatId) ? UNSEEN_MARK + title : title;
  }

  /** The user looks at the chat now (its view became visible in a focused window). */
  seen(chatId: string): void {
    if (this.unseen.delete(chatId)) this.d.retitle(chatId);
  }

  forget(chatId: string): void {
    this.unseen.delete(chatId);
  }

  private call(chatId: string, events: readonly AttentionEvent[]): void {
    if (events.length === 0 || !this.d.enabled()) return;
    const visible = this.d.isVisible(chatId);
    if (visible && vscode.window.state.focused) return;
    if (!visible && !this.unseen.has(chatId)) {
      this.unseen.add(chatId);
      this.d.retitle(chatId);
    }
    const told = events.filter((e) => e.kind !== 'permission' || visible).at(-1);
    if (!told) return;
    void vscode.window.showInformationMessage(noticeText(attentionText(this.d.title(chatId), told)), 'Show').then((a) => a === 'Show' && this.d.show(chatId));
  }
}
