/**
 * markdown-it tokens -> DOM nodes, without an HTML string in between.
 *
 * Rendering to HTML and letting DOMPurify parse it into a fresh document cost most of a streaming frame
 * (the open block is rendered again each frame). Building the nodes from the tokens is safe by
 * construction instead: elements only from the fixed allowlist below (what markdown-it's renderer emits
 * with raw HTML off), every piece of text a text node (never parsed as markup), and attributes only from
 * a per-tag allowlist, each one also passing DOMPurify's own attribute check (URL schemes, data: URIs,
 * attribute-value breakouts). The result is the same DOM markdown-it's HTML gives after DOMPurify, down
 * to the whitespace between blocks (test/browser/markdownCases.mjs compares the two on a corpus that
 * includes script, handler and javascript: attacks).
 */
import type { MarkdownIt, Token } from 'markdown-it';

/** A token's attributes (values are stringified, as markdown-it's renderer does). */
type Attrs = readonly (readonly [string, string | number])[] | null;

/** Whether DOMPurify would keep this attribute on this element. */
export type AttributeCheck = (tag: string, name: string, value: string) => boolean;

/** The attributes each element may carry; any element not listed here is never created. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  p: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  blockquote: [],
  hr: [],
  ul: [],
  ol: ['start'],
  li: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: [],
  td: [],
  a: ['href', 'title'],
  img: ['src', 'alt', 'title'],
  em: [],
  strong: [],
  s: [],
  code: ['class'],
  pre: [],
  br: [],
};

export function tokensToDom(md: MarkdownIt, tokens: readonly Token[], doc: Document, check: AttributeCheck): DocumentFragment {
  const frag = doc.createDocumentFragment();
  /** Open elements; a token whose tag is not allowed pushes its parent again, so closing stays balanced. */
  const stack: Node[] = [frag];
  const top = (): Node => stack[stack.length - 1]!;
  // appendChild and createTextNode, not the variadic `append`: this runs for every token of every frame.
  const add = (node: Node): void => void top().appendChild(node);
  const text = (data: string): void => add(doc.createTextNode(data));

  const element = (tag: string, attrs: Attrs): Element | null => {
    const allowed = ALLOWED[tag];
    if (!allowed) return null;
    const el = doc.createElement(tag);
    for (const [name, raw] of attrs ?? []) {
      const lc = name.toLowerCase();
      const value = String(raw);
      if (allowed.includes(lc) && check(tag, lc, value)) el.setAttribute(lc, value);
    }
    return el;
  };

  /** markdown-it's Renderer.renderToken: an element from the token's tag, and its line breaks. */
  const renderToken = (list: readonly Token[], i: number): void => {
    const t = list[i]!;
    if (t.hidden) return;
    let prev = i - 1;
    while (prev >= 0 && list[prev]!.hidden && list[prev]!.nesting === 0) prev--;
    if (t.block && t.nesting !== -1 && prev >= 0 && list[prev]!.hidden && list[prev]!.nesting === -1) text('\n');
    if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else {
      const el = element(t.tag, t.attrs);
      if (el) add(el);
      if (t.nesting === 1) stack.push(el ?? top());
    }
    if (!t.block) return;
    let lf = true;
    if (t.nesting === 1) {
      let n = i + 1;
      while (n < list.length && list[n]!.hidden && list[n]!.nesting === 0) n++;
      const next = list[n];
      if (next && (next.type === 'inline' || next.hidden || (next.nesting === -1 && next.tag === t.tag))) lf = false;
    }
    if (lf) text('\n');
  };

  const code = (content: string, attrs: Attrs): Element => {
    const el = element('code', attrs)!;
    el.textContent = content;
    return el;
  };

  const inline = (children: readonly Token[]): void => {
    for (let i = 0; i < children.length; i++) {
      const t = children[i]!;
      switch (t.type) {
        case 'text':
        case 'text_special':
          text(t.content);
          break;
        case 'code_inline':
          add(code(t.content, t.attrs));
          break;
        case 'softbreak':
          text('\n');
          break;
        case 'hardbreak':
          add(element('br', null)!);
          text('\n');
          break;
        case 'image': {
          // As markdown-it's image rule: the alt text is the description rendered as plain text.
          const attrs = (t.attrs ?? []).map(([n, v]) => [n, n === 'alt' ? md.renderer.renderInlineAsText(t.children ?? [], md.options, {}) : v] as const);
          add(element('img', attrs)!);
          break;
        }
        case 'html_inline':
          // Raw HTML is off, so markdown-it never emits this; were it on, it would stay text.
          text(t.content);
          break;
        default:
          renderToken(children, i);
      }
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    switch (t.type) {
      case 'inline':
        inline(t.children ?? []);
        break;
      case 'fence': {
        // As markdown-it's fence rule: the info string's first word names the language.
        const info = t.info ? md.utils.unescapeAll(t.info).trim() : '';
        const lang = info ? (info.split(/(\s+)/g)[0] ?? '') : '';
        const cls = `${md.options.langPrefix}${lang}`;
        const attrs = !info
          ? t.attrs
          : t.attrs?.some(([n]) => n === 'class')
            ? t.attrs.map(([n, v]) => [n, n === 'class' ? `${v} ${cls}` : v] as const)
            : [...(t.attrs ?? []), ['class', cls] as const];
        const pre = element('pre', null)!;
        pre.appendChild(code(t.content, attrs));
        add(pre);
        text('\n');
        break;
      }
      case 'code_block': {
        const pre = element('pre', t.attrs)!;
        pre.appendChild(code(t.content, null));
        add(pre);
        text('\n');
        break;
      }
      case 'html_block':
        text(t.content);
        break;
      default:
        renderToken(tokens, i);
    }
  }
  return frag;
}
