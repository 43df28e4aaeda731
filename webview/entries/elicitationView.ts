/**
 * An agent's question in the transcript. While the agent waits for it (the host lists it in the panel's
 * `elicitations`), the card holds the form; afterwards it shows what was asked and what was answered,
 * from the store's entry, so the record survives a reload. A question still marked pending that no one
 * waits for any more (the agent exited) says so instead of offering a form that cannot be sent.
 */
import { describeAnswers, parseForm, type FormModel } from '../../src/common/elicitation/form';
import { checkElicitationUrl } from '../../src/common/elicitation/url';
import type { ElicitationContent } from '../../src/common/protocol/elicitation';
import type { ElicitationPrompt } from '../../src/common/webview/contract';
import type { ViewElicitation } from '../../src/common/webview/viewEntry';
import { h, icon, keepFocus } from '../dom';
import { elicitationPrompt } from '../elicitationForm';
import { ELICITATION_STATUS } from '../entryModel';
import { EntryView } from './entryView';

export class ElicitationView extends EntryView<ViewElicitation> {
  private body: HTMLElement | null = null;
  private prompt: ElicitationPrompt | undefined;
  /** The prompt the body shows now, so unrelated panel updates leave the form (and what is typed) alone. */
  private shownPrompt: ElicitationPrompt | undefined | null = null;
  private shownEntry: ViewElicitation | null = null;

  setPrompt(p: ElicitationPrompt | undefined): void {
    if (p === this.prompt) return;
    this.prompt = p;
    if (this.hydrated) this.render();
  }

  protected build(): void {
    this.body = h('div', { class: 'entry-body elicitation' });
    this.el.append(this.body);
    this.render();
  }

  protected render(): void {
    const body = this.body;
    if (!body || (this.shownPrompt === this.prompt && this.shownEntry === this.entry)) return;
    this.shownPrompt = this.prompt;
    this.shownEntry = this.entry;
    const e = this.entry;
    const form = e.mode === 'form' ? parseForm(e.requestedSchema) : null;
    const model: FormModel | null = form?.ok ? form.form : null;
    const live = this.prompt && e.status === 'pending' ? this.prompt : undefined;
    const head = h(
      'div',
      { class: 'eli-head' },
      icon('question'),
      h('span', { class: 'eli-who' }, `${this.ctx.agentName()} asks`),
      h('span', { class: `eli-status eli-${e.status}` }, this.statusText(live !== undefined)),
    );
    const parts: HTMLElement[] = [head, h('p', { class: 'eli-message' }, e.message)];
    if (e.toolCallId) parts.push(h('p', { class: 'eli-tool' }, `For tool call ${e.toolCallId}`));
    if (live) parts.push(elicitationPrompt(live, model, (m) => this.ctx.post(m)));
    else parts.push(...this.record(model));
    keepFocus(body, () => body.replaceChildren(...parts), () => this.el);
  }

  private statusText(live: boolean): string {
    const e = this.entry;
    if (e.status === 'pending') return live ? ELICITATION_STATUS['pending']! : 'not answered: the agent is no longer waiting';
    const base = ELICITATION_STATUS[e.status] ?? e.status;
    if (e.mode === 'url' && e.status === 'accept') return e.completed ? 'opened, completed' : 'opened';
    return base;
  }

  /** What was asked (the URL's origin) and answered, as text. */
  private record(model: FormModel | null): HTMLElement[] {
    const e = this.entry;
    if (e.mode === 'url') {
      const url = checkElicitationUrl(e.url ?? '');
      return [h('p', { class: 'eli-url' }, `Page on ${url.origin ?? 'an invalid address'}`)];
    }
    if (!e.answer) return [];
    const lines = model ? describeAnswers(model, e.answer as ElicitationContent) : Object.entries(e.answer).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    return [h('ul', { class: 'eli-answer', 'aria-label': 'Your answer' }, ...lines.map((l) => h('li', {}, l)))];
  }
}
