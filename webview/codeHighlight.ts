/**
 * Syntax colours for code blocks, loaded on first use: the first block with a language asks for
 * dist/highlight.js (highlight.js and its grammars, a bundle of its own so the panel's stays small) by a
 * script element carrying the page's nonce; blocks drawn before it arrives are coloured when it has run.
 * The highlighter returns plain data (highlighter/tree.ts) and the spans are built here from it, each piece
 * of code a text node: an agent's code block never becomes markup. Colours come from the theme (chat.css).
 */
import { inIdleSteps } from './highlighter/idleSteps';
import { HIGHLIGHTER_GLOBAL, HIGHLIGHTER_READY, type HighlightNode, type Highlighter } from './highlighter/tree';

/** Longer blocks stay plain: the open block of a streaming answer is drawn again every frame. */
const MAX_HIGHLIGHT_CHARS = 20_000;

// Read while this bundle's own script runs (the only time `currentScript` is set): the chunk must carry the
// same nonce to pass the panel's Content-Security-Policy.
const nonce = document.currentScript instanceof HTMLScriptElement ? document.currentScript.nonce : '';

const MAX_WAITING = 500;

/** Blocks waiting for the highlighter, with their language (drawn plain meanwhile). */
const waiting = new Map<HTMLElement, string>();
let requested = false;

const loaded = (): Highlighter | undefined => (globalThis as Record<string, unknown>)[HIGHLIGHTER_GLOBAL] as Highlighter | undefined;

/**
 * Colours `code` (a `<code>` holding only text) for the first of `langs` the highlighter knows (the fence's
 * language, then the extension of the file it names), now or once the highlighter has loaded.
 */
export function highlightCode(code: HTMLElement, langs: readonly string[]): void {
  const lang = langs.filter(Boolean).join(' ');
  if (!lang || (code.textContent ?? '').length > MAX_HIGHLIGHT_CHARS) return;
  const hl = loaded();
  if (hl) return paint(hl, code, lang);
  // Bounded: a chunk that never arrives must not hold every block drawn meanwhile.
  if (waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value as HTMLElement);
  waiting.set(code, lang);
  load();
}

function load(): void {
  if (requested) return;
  const src = document.body.dataset['highlightScript'];
  if (!src) return; // a page without the chunk (a capture export, an older host): code stays plain
  requested = true;
  document.addEventListener(HIGHLIGHTER_READY, paintWaiting, { once: true });
  const script = document.createElement('script');
  script.nonce = nonce;
  script.src = src;
  script.addEventListener('error', () => waiting.clear(), { once: true });
  document.head.append(script);
}

/** Colours the blocks drawn before the highlighter came, in idle time. */
function paintWaiting(): void {
  const hl = loaded();
  if (!hl) return waiting.clear();
  inIdleSteps(
    () => waiting.size > 0,
    () => {
      // Detached ones too: a block far from the viewport is out of the document and comes back as it is.
      const [code, lang] = waiting.entries().next().value as [HTMLElement, string];
      waiting.delete(code);
      paint(hl, code, lang);
    },
  );
}

function paint(hl: Highlighter, code: HTMLElement, lang: string): void {
  const text = code.textContent ?? '';
  let tree: readonly HighlightNode[] | null = null;
  try {
    for (const name of lang.toLowerCase().split(' ')) if ((tree = hl.highlight(text, name))) break;
  } catch {
    return; // a grammar that throws leaves the block plain
  }
  if (!tree) return;
  const frag = code.ownerDocument.createDocumentFragment();
  for (const node of tree) frag.appendChild(build(code.ownerDocument, node));
  // Only when the spans hold exactly the code: never show something other than what the agent wrote.
  if (frag.textContent !== text) return;
  code.replaceChildren(frag);
  code.classList.add('hl');
}

function build(doc: Document, node: HighlightNode): Node {
  if (typeof node === 'string') return doc.createTextNode(node);
  const span = doc.createElement('span');
  // `title.function` -> `hl-title hl-title-function`: the first word is the colour family, the rest refines it.
  const parts = node.scope.split('.').filter(Boolean);
  if (parts.length) span.className = parts.map((_, i) => `hl-${parts.slice(0, i + 1).join('-')}`).join(' ');
  for (const child of node.children) span.appendChild(build(doc, child));
  return span;
}
