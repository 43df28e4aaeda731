// Bundled by markdownCases.mjs into the test page: the webview's DOM built from markdown-it tokens next to
// what markdown-it's HTML gives after DOMPurify with the same config (the path it replaced), both
// serialized in a document of their own (nothing loads or runs there).
import DOMPurify from 'dompurify';
import { md, PURIFY } from '../../webview/markdown';
import { tokensToDom } from '../../webview/markdownDom';

const doc = document.implementation.createHTMLDocument('');
const purify = DOMPurify(window);
const serialize = (frag) => {
  const div = doc.createElement('div');
  div.append(frag);
  return div.innerHTML;
};

/** Anything in a built tree that could run script or load what it should not. */
const unsafe = (root) => {
  const found = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (/^(script|iframe|style|form|input|button|object|embed|link|meta|base|svg|math)$/i.test(el.localName)) found.push(el.localName);
    for (const a of Array.from(el.attributes)) {
      if (/^on/i.test(a.name) || a.name === 'style') found.push(`${el.localName}[${a.name}]`);
      if (/^(href|src)$/.test(a.name) && /^\s*(javascript|vbscript|data:(?!image\/(png|gif|jpeg|webp);))/i.test(a.value.replace(/[\u0000-\u0020]/g, '')))
        found.push(`${el.localName}[${a.name}=${a.value}]`);
    }
  }
  return found;
};

window.__markdownProbe = (source) => {
  const frag = tokensToDom(md, md.parse(source, {}), doc, (t, n, v) => purify.isValidAttribute(t, n, v));
  const found = unsafe(frag);
  return { built: serialize(frag), purified: serialize(purify.sanitize(md.render(source), PURIFY)), unsafe: found };
};
