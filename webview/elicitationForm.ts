/**
 * The form of an agent's question (form-mode elicitation), built from the form model that
 * `elicitation/form.ts` reads from the agent's schema, and the URL-mode prompt. Every control has a
 * visible label tied to it (`for` / `fieldset` + `legend`), descriptions and errors are referenced by
 * `aria-describedby`, and answers are validated (the same module the host and the client use) before
 * anything is posted: the first invalid field gets focus and says why.
 */
import { fieldError, fromTyped, initialAnswers, type Field, type FormModel } from '../src/common/elicitation/form';
import { checkElicitationUrl } from '../src/common/elicitation/url';
import type { ElicitationContent, ElicitationValue } from '../src/common/protocol/elicitation';
import type { ElicitationPrompt, WebviewToHost } from '../src/common/webview/contract';
import { append, h, icon } from './dom';
import { ownValue } from '../src/common/util/guards';

type Post = (m: WebviewToHost) => void;
type Read = () => ElicitationValue | undefined;

let nextId = 0;
const uid = (): string => `eli-f${++nextId}`;

const INPUT_TYPE: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

function describe(f: Field, id: string): { desc: HTMLElement | null; err: HTMLElement; describedBy: string } {
  const desc = f.description ? h('div', { class: 'eli-desc', id: `${id}-desc` }, f.description) : null;
  const err = h('div', { class: 'eli-error', id: `${id}-err`, role: 'alert', hidden: true });
  return { desc, err, describedBy: [desc ? `${id}-desc` : '', `${id}-err`].filter(Boolean).join(' ') };
}

/** One field: its element, how to read its value, where its error goes, and what takes focus. */
function fieldControl(f: Field, initial: ElicitationValue | undefined): { el: HTMLElement; read: Read; err: HTMLElement; focus: HTMLElement; mark: (bad: boolean) => void } {
  const id = uid();
  const { desc, err, describedBy } = describe(f, id);
  const req = f.required ? h('span', { class: 'eli-required', 'aria-hidden': 'true' }, ' *') : null;
  if (f.kind === 'choice' || f.kind === 'multi') {
    const multi = f.kind === 'multi';
    const chosen = new Set(Array.isArray(initial) ? initial : typeof initial === 'string' ? [initial] : []);
    const inputs = f.choices.map((c) => {
      const input = h('input', { type: multi ? 'checkbox' : 'radio', name: id, value: c.value, id: uid(), checked: chosen.has(c.value) });
      const label = h('label', { for: input.id }, c.label);
      return { input, row: h('div', { class: 'eli-choice' }, input, label, c.description ? h('span', { class: 'eli-desc' }, ` — ${c.description}`) : null) };
    });
    // A single choice is a radiogroup, which may say it is required; a multi-select is a plain group.
    const set = h(
      'fieldset',
      { class: 'eli-field', 'aria-describedby': describedBy, ...(multi ? {} : { role: 'radiogroup', 'aria-required': f.required ? 'true' : null }) },
      h('legend', {}, f.label, req),
      desc,
      ...inputs.map((i) => i.row),
      err,
    );
    const read: Read = () => {
      const on = inputs.filter((i) => i.input.checked).map((i) => i.input.value);
      return multi ? on : on[0];
    };
    return { el: set, read, err, focus: inputs[0]?.input ?? set, mark: (bad) => set.toggleAttribute('aria-invalid', bad) };
  }
  if (f.kind === 'boolean') {
    const input = h('input', { type: 'checkbox', id, checked: initial === true, 'aria-describedby': describedBy });
    const el = h('div', { class: 'eli-field eli-boolean' }, input, h('label', { for: id }, f.label, req), desc, err);
    return { el, read: () => input.checked, err, focus: input, mark: (bad) => input.setAttribute('aria-invalid', String(bad)) };
  }
  const attrs: Record<string, string | number | boolean | null> = { id, 'aria-describedby': describedBy, required: f.required, 'aria-required': f.required ? 'true' : null };
  if (f.kind === 'text') {
    attrs['type'] = (f.format && INPUT_TYPE[f.format]) || 'text';
    if (f.maxLength !== null) attrs['maxlength'] = f.maxLength;
    if (f.format === 'date-time') attrs['placeholder'] = 'YYYY-MM-DDTHH:MM:SSZ';
  } else {
    attrs['type'] = 'number';
    attrs['step'] = f.kind === 'integer' ? '1' : 'any';
    if (f.minimum !== null) attrs['min'] = f.minimum;
    if (f.maximum !== null) attrs['max'] = f.maximum;
  }
  const input = h('input', attrs);
  if (initial !== undefined) input.value = String(initial);
  const el = h('div', { class: 'eli-field' }, h('label', { for: id }, f.label, req), desc, input, err);
  return { el, read: () => fromTyped(f, input.value), err, focus: input, mark: (bad) => input.setAttribute('aria-invalid', String(bad)) };
}

function actions(onAccept: (() => void) | null, acceptLabel: string, post: (action: 'decline' | 'cancel') => void): HTMLElement {
  const accept = onAccept ? h('button', { type: 'submit', class: 'primary eli-accept' }, acceptLabel) : null;
  const decline = h('button', { type: 'button', class: 'secondary eli-decline' }, 'Decline');
  decline.addEventListener('click', () => post('decline'));
  const cancel = h('button', { type: 'button', class: 'secondary eli-cancel' }, 'Cancel');
  cancel.addEventListener('click', () => post('cancel'));
  return h('div', { class: 'eli-actions' }, accept, decline, cancel);
}

/** The interactive card body for a pending question: a form (form mode) or the open-URL consent (URL mode). */
export function elicitationPrompt(p: ElicitationPrompt, form: FormModel | null, post: Post): HTMLElement {
  const answer = (action: 'decline' | 'cancel') => post({ type: 'elicitation', requestId: p.requestId, action });
  const el = h('form', { class: 'eli-form', 'data-request-id': p.requestId, novalidate: true, 'aria-label': 'Answer the question' });
  // Esc anywhere in the form cancels, as it dismisses a dialog.
  el.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      answer('cancel');
    }
  });
  if (p.mode === 'url') {
    const url = checkElicitationUrl(p.url ?? '');
    append(el, [
      h('p', { class: 'eli-url' }, icon('link-external'), ` Opens a page on ${url.origin ?? 'an invalid address'} in your browser.`),
      url.ok ? null : h('p', { class: 'eli-error', role: 'alert' }, `This address will not be opened: ${url.reason}.`),
      actions(url.ok ? () => undefined : null, 'Open in browser', answer),
    ]);
    el.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (url.ok) post({ type: 'elicitation', requestId: p.requestId, action: 'accept' });
    });
    return el;
  }
  if (!form) {
    el.append(h('p', { class: 'eli-error' }, 'This question cannot be shown (its form is not supported).'), actions(null, '', answer));
    return el;
  }
  const initial = initialAnswers(form);
  const controls = form.fields.map((f) => ({ f, ...fieldControl(f, ownValue(initial, f.name)) }));
  if (form.description) el.append(h('p', { class: 'eli-desc' }, form.description));
  el.append(
    ...controls.map((c) => c.el),
    actions(() => undefined, 'Accept', answer),
  );
  el.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const content: Record<string, ElicitationValue> = {};
    let firstBad: HTMLElement | null = null;
    for (const c of controls) {
      const v = c.read();
      const e = fieldError(c.f, v);
      c.err.hidden = e === null;
      c.err.textContent = e === null ? '' : `${c.f.label} ${e}`;
      c.mark(e !== null);
      if (e !== null) firstBad ??= c.focus;
      else if (v !== undefined && !(Array.isArray(v) && v.length === 0 && !c.f.required)) content[c.f.name] = v;
    }
    if (firstBad) {
      firstBad.focus();
      return;
    }
    post({ type: 'elicitation', requestId: p.requestId, action: 'accept', content: content as ElicitationContent as Record<string, ElicitationValue> });
  });
  return el;
}
