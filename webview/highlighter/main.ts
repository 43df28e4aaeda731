/**
 * Entry point of dist/highlight.js: highlight.js's core with a set of common languages, loaded by the panel
 * only when the first code block with a language is drawn (codeHighlight.ts), so the panel's own bundle
 * stays within its budget. It returns highlight.js's token tree as plain data (tree.ts), not its HTML.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { inIdleSteps } from './idleSteps';
import { HIGHLIGHTER_GLOBAL, HIGHLIGHTER_READY, type HighlightNode, type Highlighter } from './tree';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  lua,
  makefile,
  markdown,
  php,
  plaintext,
  python,
  ruby,
  rust,
  scss,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
const unregistered = Object.entries(LANGUAGES);

function registered(): void {
  // Names agents write that highlight.js does not alias itself.
  hljs.registerAliases(['jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
  hljs.registerAliases(['tsx', 'mts', 'cts'], { languageName: 'typescript' });
  hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
  hljs.registerAliases(['text', 'txt', 'console'], { languageName: 'plaintext' });
  // Code a grammar trips over is shown as it is, never thrown at the panel.
  hljs.safeMode();
  (globalThis as Record<string, unknown>)[HIGHLIGHTER_GLOBAL] = highlighter;
  document.dispatchEvent(new Event(HIGHLIGHTER_READY));
}

/** highlight.js's emitter tree (an internal but stable shape in v11: `{ scope?, children }` and strings). */
interface EmitterNode {
  readonly scope?: string;
  readonly children?: readonly (EmitterNode | string)[];
}

/** Scope names come from the grammars, but only letters, digits, dots, dashes and underscores are kept. */
const cleanScope = (s: string | undefined): string => (s ?? '').replace(/[^\w.-]/g, '').slice(0, 60);

function toTree(node: EmitterNode | string): HighlightNode {
  if (typeof node === 'string') return node;
  const children = (node.children ?? []).map(toTree);
  const scope = cleanScope(node.scope);
  return scope ? { scope, children } : { scope: '', children };
}

const highlighter: Highlighter = {
  highlight(code, lang) {
    if (!hljs.getLanguage(lang)) return null;
    const result = hljs.highlight(code, { language: lang, ignoreIllegals: true });
    const emitter = (result as unknown as { _emitter?: { rootNode?: EmitterNode } })._emitter;
    const root = emitter?.rootNode;
    return root ? (root.children ?? []).map(toTree) : null;
  },
};

// Registering every grammar takes about 12 ms: a few per idle period, as the panel streams.
inIdleSteps(
  () => unregistered.length > 0,
  () => {
    const next = unregistered.shift();
    if (next) hljs.registerLanguage(...next);
  },
  registered,
);
