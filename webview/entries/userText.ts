/**
 * The text of a user message. A long one (a pasted file, a log) is folded to its first lines with a
 * button that shows it all (and folds it again): a 300-line prompt would otherwise be a bubble of
 * thousands of pixels to scroll past on every later visit. The text stays whole in the element (search,
 * copy and screen readers see all of it); only its height is cut.
 */
import { h } from '../dom';

/** Folded beyond this many lines or characters (a few paragraphs stay whole). */
const FOLD_LINES = 15;
const FOLD_CHARS = 1500;

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function isLongText(text: string): boolean {
  return text.length > FOLD_CHARS || lineCount(text) > FOLD_LINES;
}

/** The element of a user text block; `setUserText` updates it in place. */
export function userTextBlock(text: string): HTMLElement {
  const body = h('div', { class: 'user-text' });
  const toggle = h('button', { type: 'button', class: 'link-button user-text-toggle', 'aria-expanded': 'false' });
  const block = h('div', { class: 'user-text-block' }, body, toggle);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    label(block, open);
  });
  setUserText(block, text);
  return block;
}

export function setUserText(block: HTMLElement, text: string): void {
  const body = block.firstElementChild as HTMLElement;
  if (body.textContent !== text) body.textContent = text;
  const long = isLongText(text);
  const toggle = block.lastElementChild as HTMLElement;
  toggle.hidden = !long;
  label(block, long && toggle.getAttribute('aria-expanded') === 'true');
  if (!long) body.classList.remove('folded');
}

function label(block: HTMLElement, open: boolean): void {
  const body = block.firstElementChild as HTMLElement;
  const toggle = block.lastElementChild as HTMLElement;
  if (toggle.hidden) return;
  body.classList.toggle('folded', !open);
  const n = lineCount(body.textContent ?? '');
  toggle.textContent = open ? 'Show less' : n > FOLD_LINES ? `Show all ${n} lines` : 'Show all';
}
