/**
 * An agent's question. While the agent waits for it (the host lists it in the panel's `elicitations`),
 * the card holds the form; afterwards it shows what was asked and what was answered, from the store's
 * entry, so the record survives a reload. A question still marked pending that no one waits for any more
 * (the agent exited) says so instead of offering a form that cannot be sent.
 *
 * A question tied to a tool call the transcript shows is drawn on that tool call's card (its `host`):
 * the same card body moves into the tool card and this entry's own element is hidden, so the question
 * keeps one drawing, fed by its one entry.
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

/** A tool card that draws questions: told when one of them changed how it looks. */
export interface QuestionHost {
  readonly el: HTMLElement;
  questionsChanged(): void;
}

export class ElicitationView extends EntryView<ViewElicitation> {
  private bodyValue: HTMLElement | null = null;
  private prompt: ElicitationPrompt | undefined;
  private questionHost: QuestionHost | null = null;
  /** The prompt the body shows now, so unrelated panel updates leave the form (and what is typed) alone. */
  private shownPrompt: ElicitationPrompt | undefined | null = null;
  private shownEntry: ViewElicitation | null = null;

  /** The card body, made (and drawn) on first use: in this entry, or on the host's tool card. */
  get body(): HTMLElement {
    if (this.bodyValue) return this.bodyValue;
    this.bodyValue = h('div', { class: 'entry-body elicitation' });
    this.render();
    return this.bodyValue;
  }

  get host(): QuestionHost | null {
    return this.questionHost;
  }

  override get shownEl(): HTMLElement {
    return this.questionHost ? this.body : this.el;
  }

  /** Whether the agent waits for this question now. */
  get waiting(): boolean {
    return this.prompt !== undefined && this.entry.status === 'pending';
  }

  setPrompt(p: ElicitationPrompt | undefined): void {
    if (p === this.prompt) return;
    this.prompt = p;
    if (this.hydrated || this.questionHost) this.render();
  }

  /** Draws the question on a tool card (which puts `body` in its place), or back in this entry (null). */
  setHost(host: QuestionHost | null): void {
    if (host === this.questionHost) return;
    this.questionHost = host;
    this.setDrawnIn(host instanceof EntryView ? host : null);
    const body = this.body;
    // On a tool card the body is a group of its own in the card's article; here the article is the question.
    if (host) {
      body.setAttribute('role', 'group');
      body.setAttribute('aria-label', `${this.ctx.agentName()} asks`);
    } else {
      body.removeAttribute('role');
      body.removeAttribute('aria-label');
      if (this.hydrated) this.el.append(body);
    }
  }

  protected build(): void {
    if (!this.questionHost) this.el.append(this.body);
    this.render();
  }

  protected render(): void {
    const body = this.bodyValue;
    if (!body || (this.shownPrompt === this.prompt && this.shownEntry === this.entry)) return;
    this.shownPrompt = this.prompt;
    this.shownEntry = this.entry;
    const e = this.entry;
    const form = e.mode === 'form' ? parseForm(e.requestedSchema) : null;
    const model: FormModel | null = form?.ok ? form.form : null;
    const live = this.waiting ? this.prompt : undefined;
    const head = h(
      'div',
      { class: 'eli-head' },
      icon('question'),
      h('span', { class: 'eli-who' }, `${this.ctx.agentName()} asks`),
      h('span', { class: `eli-status eli-${e.status}` }, this.statusText(live !== undefined)),
    );
    // The tool call id is for machines: the card it belongs to says which tool asks (and the tree shows the id).
    const parts: HTMLElement[] = [head, h('p', { class: 'eli-message' }, e.message)];
    if (live) parts.push(elicitationPrompt(live, model, (m) => this.ctx.post(m)));
    else parts.push(...this.record(model));
    body.classList.toggle('eli-open', live !== undefined);
    keepFocus(
      body,
      () => body.replaceChildren(...parts),
      () => this.questionHost?.el ?? this.el,
    );
    this.questionHost?.questionsChanged();
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
