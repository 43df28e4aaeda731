/** A tiny element builder: the webview builds DOM directly (no framework) so each update touches only what changed. */
import { splitCodeSpans } from './codeSpans';

type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element | DocumentFragment, children: readonly Child[]): void {
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
}

/** One line of agent text with its Markdown code spans as `<code>`; text nodes only, so nothing the agent writes becomes markup. */
export function inlineCode(text: string): (Node | string)[] {
  return splitCodeSpans(text).map((s) => (s.code ? h('code', {}, s.text) : s.text));
}

export function icon(name: string, label?: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': label ? null : 'true', 'aria-label': label, role: label ? 'img' : null });
}

export function button(label: string, iconName: string | null, attrs: Attrs = {}, text?: string): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', title: label, 'aria-label': label, ...attrs },
    iconName ? icon(iconName) : null,
    text !== undefined ? h('span', { class: 'label' }, text) : null,
  );
}
