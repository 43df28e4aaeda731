// Layers by runtime: src/common and webview/ may not import `vscode` or a Node built-in; src/node may
// not import `vscode`; webview/ may import only src/common (and browser-safe packages).
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

test('the layering check itself fails on a forbidden import', () => {
  assert.equal(runtimeImport('vscode'), 'the VS Code API');
  assert.equal(runtimeImport('node:child_process'), 'a Node built-in');
  assert.equal(runtimeImport('fs'), 'a Node built-in');
  assert.equal(runtimeImport('zod'), null);
});
