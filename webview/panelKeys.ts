/**
 * The panel's document-level keys: Ctrl/Cmd+F searches, Ctrl/Cmd+L goes back to the prompt box, Alt+Up/Down
 * jump between the user's prompts, digits and Esc answer permission requests, Esc cancels a running turn.
 * Its own file because which key belongs to whom (a control, a popup, the conversation) is one set of rules.
 */
import type { PanelState, WebviewToHost } from '../src/common/webview/contract';
import type { PromptBox } from './promptBox';
import type { SearchBar } from './searchBar';
import type { Transcript } from './transcript';

export interface PanelKeysDeps {
  readonly transcript: Pick<Transcript, 'scroller' | 'views' | 'reveal'>;
  readonly search: Pick<SearchBar, 'open' | 'close' | 'isOpen' | 'el'>;
  readonly prompt: Pick<PromptBox, 'focus' | 'textarea'>;
  /** The requests not answered here yet, oldest first. */
  pendingPermissions(): PanelState['permissions'];
  turn(): PanelState['turn'];
  /** Answers and cancels go to the host through the panel's post (which hides an answered request at once). */
  post(m: WebviewToHost): void;
}

export class PanelKeys {
  constructor(private readonly d: PanelKeysDeps) {}

  /**
   * Keys that answer permissions act only where the user is looking at the conversation: on the
   * transcript itself (not a control inside it) or on a request card. Elsewhere a digit is a digit and
   * Esc belongs to the control or the innermost popup (completion, then search).
   */
  onKey(e: KeyboardEvent): void {
    const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
    if (mod && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      this.d.search.open();
      return;
    }
    if (mod && e.key.toLowerCase() === 'l') {
      // Back to writing from anywhere in the panel.
      e.preventDefault();
      this.d.prompt.focus();
      return;
    }
    if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      // Jump between your own prompts: the landmarks of a long conversation.
      e.preventDefault();
      this.jumpToPrompt(e.key === 'ArrowUp' ? -1 : 1, e.target);
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.defaultPrevented) return;
    const target = e.target instanceof Element ? e.target : null;
    const card = target?.closest<HTMLElement>('.permission[data-request-id]') ?? null;
    const reading = target !== null && this.d.transcript.scroller.contains(target) && !isControl(target);
    const pending = this.d.pendingPermissions();
    const request = card ? pending.find((p) => p.requestId === card.dataset['requestId']) : reading ? pending[0] : undefined;
    if (/^[1-9]$/.test(e.key)) {
      const option = request?.options[Number(e.key) - 1];
      if (request && option) {
        e.preventDefault();
        this.d.post({ type: 'permission', requestId: request.requestId, optionId: option.optionId });
      }
      return;
    }
    if (e.key !== 'Escape') return;
    if (target && this.d.search.el.contains(target)) return; // the search bar closes itself
    if (target && !card && !reading && target !== this.d.prompt.textarea && isControl(target)) return;
    if (this.d.search.isOpen) {
      e.preventDefault();
      this.d.search.close();
    } else if (request) {
      e.preventDefault();
      const reject = request.options.find((o) => o.kind === 'reject_once') ?? request.options.find((o) => o.kind.startsWith('reject'));
      this.d.post({ type: 'permission', requestId: request.requestId, optionId: reject ? reject.optionId : null });
    } else if (this.d.turn() === 'busy' && (reading || target === this.d.prompt.textarea)) {
      e.preventDefault();
      this.d.post({ type: 'cancel' });
    }
  }

  private jumpToPrompt(dir: -1 | 1, from: EventTarget | null): void {
    const views = this.d.transcript.views;
    const current = from instanceof Element ? from.closest<HTMLElement>('[data-key]')?.dataset['key'] : undefined;
    let i = current ? views.findIndex((v) => v.key === current) : dir < 0 ? views.length : -1;
    for (i += dir; i >= 0 && i < views.length; i += dir) {
      const v = views[i]!;
      if (v.entry.kind !== 'user_message') continue;
      this.d.transcript.reveal(v.key, false);
      v.el.focus({ preventScroll: true });
      return;
    }
  }
}

/** Controls keep their keys (a digit in a field is text; Esc in a picker is the picker's). */
function isControl(el: Element): boolean {
  return el.matches('button, a[href], input, select, textarea, summary, [contenteditable=""], [contenteditable="true"], [role="button"], [role="combobox"]');
}
