// Layers by runtime: src/common and webview/ may not import `vscode` or a Node built-in; src/node may
// not import `vscode`; every file in src/vscode imports `vscode` (what needs no VS Code lives below it);
// webview/ may import only src/common (and browser-safe packages); and no relative import climbs from a
// lower layer into a higher one (common < node < vscode).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|tsx)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

/** Every module specifier a file imports, re-exports or requires (type-only imports included: they still couple layers). */
export function importsOf(text: string): string[] {
  const specs: string[] = [];
  const re = /\b(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) specs.push((m[1] ?? m[2] ?? m[3]) as string);
  return specs;
}

function violations(dir: string, isForbidden: (spec: string, file: string) => string | null): string[] {
  const out: string[] = [];
  for (const file of sources(dir)) {
    for (const spec of importsOf(readFileSync(path.join(root, file), 'utf8'))) {
      const why = isForbidden(spec, file);
      if (why) out.push(`${file}: imports '${spec}' (${why})`);
    }
  }
  return out;
}

const runtimeImport = (spec: string): string | null =>
  spec === 'vscode' ? 'the VS Code API' : nodeBuiltins.has(spec) ? 'a Node built-in' : null;

test('the import scanner sees every import form', () => {
  const text = `import * as vscode from 'vscode';\nimport type { X } from "node:fs";\nexport { y } from './y';\nimport './side';\nconst p = require('path');\nconst q = await import('os');`;
  assert.deepEqual(importsOf(text), ['vscode', 'node:fs', './y', './side', 'path', 'os']);
});

test('src/common imports neither vscode nor Node built-ins', () => {
  assert.deepEqual(violations('src/common', runtimeImport), []);
});

test('src/node does not import vscode', () => {
  assert.deepEqual(violations('src/node', (s) => (s === 'vscode' ? 'the VS Code API' : null)), []);
});

test('every file in src/vscode imports vscode (VS Code-free code lives in src/node or src/common)', () => {
  const free = sources('src/vscode').filter((file) => !importsOf(readFileSync(path.join(root, file), 'utf8')).includes('vscode'));
  assert.deepEqual(free, []);
});

test('src/node never imports src/vscode', () => {
  const intoVscode = (spec: string, file: string): string | null =>
    spec.startsWith('.') && layerOf(path.relative(root, path.resolve(root, path.dirname(file), spec))) === 'vscode' ? 'the VS Code layer' : null;
  assert.deepEqual(violations('src/node', intoVscode), []);
});

test('webview/ imports only src/common and browser-safe packages', () => {
  const outside = (spec: string, file: string): string | null => {
    const bad = runtimeImport(spec);
    if (bad) return bad;
    if (!spec.startsWith('.')) return null; // a package (markdown-it, dompurify, zod)
    const target = path.relative(root, path.resolve(root, path.dirname(file), spec));
    return target.startsWith('webview') || target.startsWith(path.join('src', 'common')) ? null : 'outside webview/ and src/common';
  };
  assert.deepEqual(violations('webview', outside), []);
});

/** The layer a file belongs to, by its path from the repo root. */
function layerOf(file: string): 'common' | 'node' | 'vscode' | 'webview' | null {
  const [top, sub] = file.split(path.sep);
  if (top === 'webview') return 'webview';
  return top === 'src' && (sub === 'common' || sub === 'node' || sub === 'vscode') ? sub : null;
}

/** What each layer may import by relative path: only itself and the layers below it. */
const allowed: Record<'common' | 'node' | 'vscode', readonly string[]> = {
  common: ['common'],
  node: ['common', 'node'],
  vscode: ['common', 'node', 'vscode'],
};

const climbs = (spec: string, file: string): string | null => {
  if (!spec.startsWith('.')) return null;
  const from = layerOf(file);
  const to = layerOf(path.relative(root, path.resolve(root, path.dirname(file), spec)));
  if (from === null || from === 'webview' || to === null) return to === null ? 'outside the source layers' : null;
  return allowed[from].includes(to) ? null : `src/${from} may not import from ${to === 'webview' ? 'webview/' : `src/${to}`}`;
};

test('no relative import climbs into a higher layer (common < node < vscode; none into webview/)', () => {
  assert.deepEqual([...violations('src/common', climbs), ...violations('src/node', climbs), ...violations('src/vscode', climbs)], []);
});

test('the layering check itself fails on a forbidden import', () => {
  assert.equal(climbs('../node/agentProcess', path.join('src', 'common', 'x.ts')), 'src/common may not import from src/node');
  assert.equal(climbs('../../vscode/chatPanel', path.join('src', 'node', 'acp', 'x.ts')), 'src/node may not import from src/vscode');
  assert.equal(climbs('../../webview/app', path.join('src', 'vscode', 'x.ts')), 'src/vscode may not import from webview/');
  assert.equal(climbs('../common/store', path.join('src', 'vscode', 'x.ts')), null);
  assert.equal(runtimeImport('vscode'), 'the VS Code API');
  assert.equal(runtimeImport('node:child_process'), 'a Node built-in');
  assert.equal(runtimeImport('fs'), 'a Node built-in');
  assert.equal(runtimeImport('zod'), null);
});

/** The relative imports of every source file, resolved to repo paths (extension-less). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of ['src', 'webview']) {
    for (const file of sources(dir)) {
      const from = file.replace(/\.tsx?$/, '');
      const to = importsOf(readFileSync(path.join(root, file), 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => path.relative(root, path.resolve(root, path.dirname(file), s)).replace(/\.tsx?$/, ''));
      graph.set(from, to);
    }
  }
  return graph;
}

test('no import cycles between source files (narrow interfaces instead)', () => {
  const graph = importGraph();
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, stack: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...stack.slice(stack.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? graph.get(`${node}/index`) ?? []) visit(next, [...stack, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  assert.deepEqual(cycles, []);
});

