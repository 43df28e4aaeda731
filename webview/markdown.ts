/**
 * Agent markdown -> sanitized DOM. Safe by construction: markdown-it with raw HTML off parses the text,
 * and its tokens become nodes through an element and attribute allowlist where every attribute also
 * passes DOMPurify's check (markdownDom.ts); no HTML string is ever parsed. Links are never followed by
 * the webview itself (a delegated click handler posts `openLink`, see main.ts).
 */
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import type { Token } from 'markdown-it';
import { h, icon } from './dom';
import { tokensToDom } from './markdownDom';
import { codeBlockFile } from '../src/common/codeBlockFile';
import { highlightCode } from './codeHighlight';

export const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
// markdown-it refuses `file:` links by default; agents use them for source files, which VS Code opens
// (the click goes through the host's scheme check like every other link). Script schemes stay refused.
md.validateLink = (url: string): boolean => {
  const u = url.trim().toLowerCase();
  if (/^(javascript|vbscript):/.test(u)) return false;
  return !u.startsWith('data:') || /^data:image\/(gif|png|jpeg|webp);/.test(u);
};

/** What DOMPurify is told; the browser tests check the DOM built here equals its output for this config. */
export const PURIFY = {
  RETURN_DOM_FRAGMENT: true as const,
  // Inline styles would be blocked by the CSP anyway; forms and frames have no business in a transcript.
  FORBID_ATTR: ['style'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
};
const purify = DOMPurify(window);
purify.setConfig(PURIFY);
const allowAttribute = (tag: string, name: string, value: string): boolean => purify.isValidAttribute(tag, name, value);

/**
 * Nodes are made in a document of their own, as DOMPurify's were: there an image does not start loading
 * (and trip the CSP) before `decorate` has turned a remote one into a link.
 */
const inert = document.implementation.createHTMLDocument('');

export function renderMarkdown(source: string): DocumentFragment {
  const tokens = md.parse(source, {});
  const frag = tokensToDom(md, tokens, inert, allowAttribute);
  decorate(frag, blockFiles(tokens));
  return frag;
}

/**
 * The file each code block names (codeBlockFile.ts), in document order: markdown-it's block tokens are
 * flat, so the n-th fence or indented block is the n-th `<pre>` built from them.
 */
function blockFiles(tokens: readonly Token[]): (string | null)[] {
  const files: (string | null)[] = [];
  tokens.forEach((t, i) => {
    if (t.type === 'code_block') files.push(null);
    if (t.type !== 'fence') return;
    const before = tokens[i - 1]?.type === 'paragraph_close' ? tokens[i - 2] : undefined;
    const line = before?.type === 'inline' ? (before.content.split('\n').pop() ?? null) : null;
    files.push(codeBlockFile(md.utils.unescapeAll(t.info), line));
  });
  return files;
}

/**
 * Adds what markdown-it does not: colours and actions on code blocks, a scroll wrapper on tables, link
 * titles. One query for all of them: this runs on the open block of a streaming message every frame.
 */
function decorate(root: DocumentFragment, files: readonly (string | null)[]): void {
  let block = 0;
  for (const el of Array.from(root.querySelectorAll('pre, table, a[href], img'))) {
    switch (el.localName) {
      case 'pre':
        codeBlock(el, files[block++] ?? null);
        break;
      case 'table': {
        const wrap = h('div', { class: 'table-wrap' });
        el.replaceWith(wrap);
        wrap.append(el);
        break;
      }
      case 'a':
        el.setAttribute('title', el.getAttribute('href') ?? '');
        break;
      case 'img': {
        // The CSP lets images load only inline (data:); a remote image becomes a link instead of a broken icon.
        const src = el.getAttribute('src') ?? '';
        if (!src.startsWith('data:')) el.replaceWith(h('a', { href: src, title: src }, `🖼 ${el.getAttribute('alt') || src}`));
        break;
      }
    }
  }
}

/** A code block's bar: its language (or file), Copy, Insert at Cursor, and Apply to its file when it names one. */
function codeBlock(pre: Element, file: string | null): void {
  const code = pre.querySelector('code');
  const lang = /language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';
  const ext = file ? (/\.([A-Za-z0-9]+)$/.exec(file)?.[1] ?? '') : '';
  if (code instanceof HTMLElement) highlightCode(code, [lang, ext]);
  const name = file ? (file.split(/[\\/]/).pop() ?? file) : '';
  const action = (cls: string, label: string, glyph: string, extra: Record<string, string> = {}): HTMLElement =>
    h('button', { type: 'button', class: `code-action ${cls}`, title: label, 'aria-label': label, ...extra }, icon(glyph));
  const bar = h(
    'div',
    { class: 'code-bar' },
    h('span', { class: 'code-lang', title: file ?? '' }, file ?? lang),
    h(
      'span',
      { class: 'code-actions' },
      file ? action('code-apply', `Apply to ${name}…`, 'git-pull-request-go-to-changes', { 'data-apply-path': file }) : null,
      action('code-insert', 'Insert at cursor', 'insert'),
      action('code-copy', 'Copy code', 'copy'),
    ),
  );
  const wrap = h('div', { class: 'code-block' });
  pre.replaceWith(wrap);
  wrap.append(bar, pre);
}
