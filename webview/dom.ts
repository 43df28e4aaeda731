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

/**
 * What identifies a control across a rebuild: an explicit `data-focus-id`, else its tag, label, class,
 * `data-*` attributes and (unlabelled) text. Rebuilt views make new elements, so identity cannot be `===`.
 */
function focusKey(el: Element): string {
  const id = el.getAttribute('data-focus-id');
  if (id !== null) return `#${id}`;
  const label = el.getAttribute('aria-label');
  const parts = [el.tagName, label ?? (el.textContent ?? '').trim().slice(0, 80), el.className];
  for (const a of Array.from(el.attributes)) if (a.name.startsWith('data-')) parts.push(`${a.name}=${a.value}`);
  return parts.join('\u0001');
}

function focusable(el: HTMLElement): boolean {
  return el.isConnected && !el.closest('[hidden]') && !(el as HTMLButtonElement).disabled;
}

/**
 * Runs `rebuild` (which may replace everything inside `container`) without losing keyboard focus to
 * `<body>`: focus goes back to the same element if it survived, else to its rebuilt twin, else to
 * `fallback()`. Does nothing special when focus was elsewhere.
 */
export function keepFocus<T>(container: Element, rebuild: () => T, fallback?: () => HTMLElement | null | undefined): T {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === container || !container.contains(active)) return rebuild();
  const key = focusKey(active);
  const result = rebuild();
  if (document.activeElement === active) return result;
  let next: HTMLElement | null | undefined = container.contains(active) && focusable(active) ? active : null;
  next ??= Array.from(container.querySelectorAll<HTMLElement>(active.tagName)).find((el) => focusKey(el) === key && focusable(el));
  next ??= fallback?.();
  next?.focus({ preventScroll: true });
  return result;
}

/** Focuses the element in `container` that is the rebuilt twin of `old` (same identity as `keepFocus` uses). */
export function focusTwin(container: Element, old: Element): boolean {
  const key = focusKey(old);
  const twin = Array.from(container.querySelectorAll<HTMLElement>(old.tagName)).find((el) => focusKey(el) === key && focusable(el));
  twin?.focus({ preventScroll: true });
  return twin !== undefined;
}

/**
 * The first of `count` boxes in document order whose bottom is below `y` (`count` when none): a binary
 * search, so finding the viewport in a long list costs a handful of layout reads.
 */
export function firstEndingBelow(count: number, bottomOf: (i: number) => number, y: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bottomOf(mid) > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Calls `chose(open)` as the user opens or closes `details`: at the click on its summary (or Enter or Space,
 * which click it), and at a toggle event showing another state than the one the code set last (`codeSet`;
 * without it, at every toggle event). The click is heard at once: the toggle event comes a task later, and
 * code that set the open state in between (a redraw, a turn's end) made that event look like its own, so
 * the user's choice was undone (found for the plan in CI). The summary must already be in `details`.
 */
export function onUserFold(details: HTMLDetailsElement, chose: (open: boolean) => void, codeSet?: () => boolean): void {
  details.querySelector(':scope > summary')?.addEventListener('click', (e) => {
    if (!e.defaultPrevented) chose(!details.open);
  });
  details.addEventListener('toggle', () => {
    if (codeSet === undefined || details.open !== codeSet()) chose(details.open);
  });
}
