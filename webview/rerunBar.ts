/**
 * Retry and Regenerate, under the conversation while no turn runs. Retry (after a turn that failed or
 * was cancelled) sends the last prompt again in this session; Regenerate (once the last prompt has an
 * answer) asks for a new answer in a new branch, this chat left as it is. Both are plain buttons with
 * their own accessible names, so they are in the Tab order; the host decides what each does.
 */
import type { PanelState, WebviewToHost } from '../src/common/webview/contract';
import { button, h } from './dom';

export class RerunBar {
  readonly el = h('div', { class: 'rerun', role: 'group', 'aria-label': 'Run the last prompt again' });
  private readonly retry = button('Retry: send the last prompt again in this chat', 'refresh', { class: 'secondary rerun-retry' }, 'Retry');
  private readonly regenerate = button('Regenerate: a new answer to the last prompt, in a new branch', 'sparkle', { class: 'secondary rerun-regenerate' }, 'Regenerate');

  constructor(
    post: (m: WebviewToHost) => void,
    private readonly focusPrompt: () => void,
  ) {
    this.el.append(this.retry, this.regenerate);
    this.el.hidden = true;
    this.retry.addEventListener('click', () => post({ type: 'retry' }));
    this.regenerate.addEventListener('click', () => post({ type: 'regenerate' }));
  }

  /**
   * From the newest entry back: whether the conversation has a prompt of the user's, and whether the agent
   * answered the last one. Nothing is offered while a turn runs, on a read-only transcript, or when the
   * agent is down.
   */
  render(p: PanelState, views: readonly { readonly entry: { readonly kind: string } }[]): void {
    let answered = false;
    let asked = false;
    for (let i = views.length - 1; i >= 0 && !asked; i--) {
      const kind = views[i]!.entry.kind;
      if (kind === 'user_message') asked = true;
      else if (kind === 'agent_message') answered = true;
    }
    answered &&= asked;
    const ready = p.turn === 'idle' && !p.readOnly && asked;
    const focused = [this.retry, this.regenerate].find((b) => b === document.activeElement);
    this.retry.hidden = !(ready && p.lastTurnEnd !== null);
    this.regenerate.hidden = !(ready && answered);
    this.el.hidden = this.retry.hidden && this.regenerate.hidden;
    // A button that went away (the turn it started is running) hands focus to the prompt box.
    if (focused && (focused.hidden || this.el.hidden)) this.focusPrompt();
  }
}
