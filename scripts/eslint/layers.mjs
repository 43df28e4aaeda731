// The layer rules of docs/ARCHITECTURE.md as ESLint rules (they replace the hand-written scan that was
// test/unit/layering.test.ts). Layers by runtime: src/common and webview/ may not import `vscode` or a Node
// built-in; src/node may not import `vscode`; every file in src/vscode imports `vscode` (what needs no VS Code
// lives below it); webview/ may import only src/common (and browser-safe packages); no relative import climbs
// from a lower layer into a higher one (common < node < vscode; none into webview/); and no two source files
// import each other, directly or around a cycle (narrow interfaces instead).
// Every import form counts, type-only ones included (they still couple layers): import/export ... from,
// a bare `import 'x'`, `import('x')` (also in a type), and `require('x')`.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** @typedef {'common' | 'node' | 'vscode' | 'webview'} Layer */

/** The layer of a path from the repo root (posix or native separators), or null outside the source layers. */
export function layerOf(file) {
  const [top, sub] = file.split(/[\\/]/);
  if (top === 'webview') return 'webview';
  return top === 'src' && (sub === 'common' || sub === 'node' || sub === 'vscode') ? sub : null;
}

/** What each layer may import by relative path: only itself and the layers below it. */
const allowed = { common: ['common'], node: ['common', 'node'], vscode: ['common', 'node', 'vscode'], webview: ['webview', 'common'] };

const runtimeImport = (spec) => (spec === 'vscode' ? 'the VS Code API' : nodeBuiltins.has(spec) ? 'a Node built-in' : null);

/**
 * Why `file` (repo-relative) may not import `spec`, or null when it may.
 * @returns {string | null}
 */
export function forbidden(spec, file) {
  const from = layerOf(file);
  if (from === null) return null;
  if (from !== 'vscode') {
    const bad = from === 'node' ? (spec === 'vscode' ? 'the VS Code API' : null) : runtimeImport(spec);
    if (bad) return `${from === 'webview' ? 'webview/' : `src/${from}`} may not import ${bad}`;
  }
  if (!spec.startsWith('.')) return null; // a package (zod, markdown-it, dompurify ...)
  const to = layerOf(path.relative(root, path.resolve(root, path.dirname(file), spec)));
  if (to === null) return 'outside the source layers';
  if (allowed[from].includes(to)) return null;
  const name = (l) => (l === 'webview' ? 'webview/' : `src/${l}`);
  return `${name(from)} may not import from ${name(to)}`;
}

/** Calls `visit(specifier, node)` for every import form in the file. */
function importVisitors(visit) {
  const literal = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node : null);
  const source = (node) => {
    const s = literal(node.source);
    if (s) visit(s.value, s);
  };
  return {
    ImportDeclaration: source,
    ExportNamedDeclaration: source,
    ExportAllDeclaration: source,
    ImportExpression: source,
    TSImportType(node) {
      const arg = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
      const s = literal(arg);
      if (s) visit(s.value, s);
    },
    CallExpression(node) {
      if (node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
      const s = literal(node.arguments[0]);
      if (s) visit(s.value, s);
    },
  };
}

const repoPath = (context) => path.relative(root, context.filename);

const importsRule = {
  meta: { type: 'problem', docs: { description: 'imports stay within the layers by runtime (docs/ARCHITECTURE.md)' }, schema: [] },
  create(context) {
    const file = repoPath(context);
    return importVisitors((spec, node) => {
      const why = forbidden(spec, file);
      if (why) context.report({ node, message: `imports '${spec}': ${why}` });
    });
  },
};

const vscodeGlueRule = {
  meta: { type: 'problem', docs: { description: 'every file in src/vscode imports vscode' }, schema: [] },
  create(context) {
    if (layerOf(repoPath(context)) !== 'vscode') return {};
    let seen = false;
    return {
      ...importVisitors((spec) => {
        if (spec === 'vscode') seen = true;
      }),
      'Program:exit'(node) {
        if (!seen)
          context.report({
            node,
            loc: { line: 1, column: 0 },
            message: 'src/vscode is VS Code glue only: this file does not import vscode, so it belongs in src/node or src/common',
          });
      },
    };
  },
};

// The import graph of the source files, read from disk once per lint run: a cycle is a fact about several
// files, so each file's rule looks past its own text. The scan is the one the old test used (a regex over
// the text), which sees every import form above.
const importRe = /\b(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a text imports, re-exports or requires. */
export function importsOf(text) {
  return [...text.matchAll(importRe)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The source file a relative specifier names (absolute path), or null when it is not a source file. */
function resolveSource(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec).replace(/\.(js|ts)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

/**
 * The first cycle through `start` in the graph `edges` gives (a function from a file to the files it imports),
 * as the list of files from `start` back to it, or null.
 */
export function cycleThrough(start, edges) {
  const seen = new Set();
  const walk = (node, trail) => {
    for (const next of edges(node)) {
      if (next === start) return [...trail, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...trail, next]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

const graph = new Map();
function sourceEdges(file) {
  let out = graph.get(file);
  if (!out) {
    out = importsOf(readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveSource(file, s))
      .filter((f) => f !== null && layerOf(path.relative(root, f)) !== null);
    graph.set(file, out);
  }
  return out;
}

const noCycleRule = {
  meta: { type: 'problem', docs: { description: 'no import cycles between source files' }, schema: [] },
  create(context) {
    const file = context.filename;
    if (layerOf(path.relative(root, file)) === null || !existsSync(file)) return {};
    return {
      'Program:exit'(node) {
        graph.delete(file); // this file's own text may be newer than the cache (an editor's unsaved buffer is not read)
        const cycle = cycleThrough(file, sourceEdges);
        if (cycle)
          context.report({ node, loc: { line: 1, column: 0 }, message: `import cycle: ${cycle.map((f) => path.relative(root, f)).join(' -> ')} (narrow interfaces instead)` });
      },
    };
  },
};

export default { meta: { name: 'acp-chat-layers' }, rules: { imports: importsRule, 'vscode-glue': vscodeGlueRule, 'no-cycle': noCycleRule } };
