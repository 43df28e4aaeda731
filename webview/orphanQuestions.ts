/**
 * Questions with no transcript entry to sit on: asked before any session existed (request-scoped, e.g.
 * during sign-in), or whose entry the panel does not hold. Shown above the prompt box, like permission
 * requests without a tool card, so that no question waits unseen.
 */
import { parseForm } from '../src/common/elicitation/form';
import type { ElicitationPrompt, WebviewToHost } from '../src/common/webview/contract';
import { h, icon, keepFocus } from './dom';
import { elicitationPrompt } from './elicitationForm';

export class OrphanQuestions {
  readonly el = h('section', { class: 'orphan-questions', 'aria-label': 'Questions from the agent', hidden: true });
  private shown: readonly ElicitationPrompt[] = [];

  constructor(private readonly post: (m: WebviewToHost) => void) {}

  render(prompts: readonly ElicitationPrompt[], agentName: string): void {
    const asker = (p: ElicitationPrompt, agent: string) => (p.fromSubagent ? `Subagent ${p.fromSubagent}` : agent);
    if (prompts.length === this.shown.length && prompts.every((p, i) => p === this.shown[i])) return;
    this.shown = prompts;
    this.el.hidden = prompts.length === 0;
    keepFocus(this.el, () =>
      this.el.replaceChildren(
        ...prompts.map((p) => {
          const form = p.mode === 'form' ? parseForm(p.requestedSchema) : null;
          return h(
            'div',
            { class: 'elicitation', role: 'group', 'aria-label': `${asker(p, agentName)} asks` },
            h('div', { class: 'eli-head' }, icon('question'), h('span', { class: 'eli-who' }, `${asker(p, agentName)} asks`)),
            h('p', { class: 'eli-message' }, p.message),
            elicitationPrompt(p, form?.ok ? form.form : null, this.post),
          );
        }),
      ),
    );
  }
}
