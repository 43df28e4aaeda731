// The layer rules (scripts/eslint/layers.mjs, run over the tree by the `lint` stage of scripts/test.sh) report
// every kind of violation the hand-written layering test used to find: each case below lints a small text as
// if it were a file at that path, through the repository's own eslint.config.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';
import { cycleThrough, forbidden, importsOf } from '../../../scripts/eslint/layers.mjs';

const root = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The layer rules' messages for `text` linted as the (not existing) file `file`. */
async function layerErrors(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  assert.ok(result, 'linted');
  return result.messages.filter((m) => m.ruleId?.startsWith('layers/')).map((m) => `${m.ruleId}: ${m.message}`);
}

test('src/common imports neither vscode nor Node built-ins, in any import form', async () => {
  const text = [
    `import * as vscode from 'vscode';`,
    `import type { Stats } from 'node:fs';`,
    `export { join } from 'path';`,
    `import 'os';`,
    `const cp = require('child_process');`,
    `const u = await import('node:url');`,
    `type T = import('node:net').Socket;`,
    `import { z } from 'zod';`,
    `export { cp, u, vscode };`,
    `export type { Stats, T, z };`,
  ].join('\n');
  assert.deepEqual(await layerErrors('src/common/lintFixture.ts', text), [
    "layers/imports: imports 'vscode': src/common may not import the VS Code API",
    "layers/imports: imports 'node:fs': src/common may not import a Node built-in",
    "layers/imports: imports 'path': src/common may not import a Node built-in",
    "layers/imports: imports 'os': src/common may not import a Node built-in",
    "layers/imports: imports 'child_process': src/common may not import a Node built-in",
    "layers/imports: imports 'node:url': src/common may not import a Node built-in",
    "layers/imports: imports 'node:net': src/common may not import a Node built-in",
  ]);
});

test('src/node may use Node but not vscode, nor import src/vscode', async () => {
  const text = `import { readFileSync } from 'node:fs';\nimport * as vscode from 'vscode';\nimport { x } from '../vscode/extension';\nexport { readFileSync, vscode, x };`;
  assert.deepEqual(await layerErrors('src/node/lintFixture.ts', text), [
    "layers/imports: imports 'vscode': src/node may not import the VS Code API",
    "layers/imports: imports '../vscode/extension': src/node may not import from src/vscode",
  ]);
});

test('every file in src/vscode imports vscode', async () => {
  assert.deepEqual(await layerErrors('src/vscode/lintFixture.ts', `import { x } from '../common/text';\nexport { x };`), [
    'layers/vscode-glue: src/vscode is VS Code glue only: this file does not import vscode, so it belongs in src/node or src/common',
  ]);
  assert.deepEqual(await layerErrors('src/vscode/lintFixture.ts', `import * as vscode from 'vscode';\nimport { x } from '../node/cli';\nexport { vscode, x };`), []);
});

test('webview/ imports only src/common and browser-safe packages', async () => {
  const text = [
    `import MarkdownIt from 'markdown-it';`,
    `import { a } from '../src/common/text';`,
    `import { b } from './app';`,
    `import { c } from '../src/node/cli';`,
    `import { d } from '../scripts/bundles.mjs';`,
    `import * as vscode from 'vscode';`,
    `import { e } from 'node:path';`,
    `export { MarkdownIt, a, b, c, d, e, vscode };`,
  ].join('\n');
  assert.deepEqual(await layerErrors('webview/lintFixture.ts', text), [
    "layers/imports: imports '../src/node/cli': webview/ may not import from src/node",
    "layers/imports: imports '../scripts/bundles.mjs': outside the source layers",
    "layers/imports: imports 'vscode': webview/ may not import the VS Code API",
    "layers/imports: imports 'node:path': webview/ may not import a Node built-in",
  ]);
});

test('no relative import climbs into a higher layer (common < node < vscode; none into webview/)', () => {
  assert.equal(forbidden('../node/agentProcess', 'src/common/x.ts'), 'src/common may not import from src/node');
  assert.equal(forbidden('../../vscode/chatPanel', 'src/node/acp/x.ts'), 'src/node may not import from src/vscode');
  assert.equal(forbidden('../../webview/app', 'src/vscode/x.ts'), 'src/vscode may not import from webview/');
  assert.equal(forbidden('../../webview/app', 'src/common/x.ts'), 'src/common may not import from webview/');
  assert.equal(forbidden('../../scripts/bundles.mjs', 'src/node/x.ts'), 'outside the source layers');
  assert.equal(forbidden('../common/store', 'src/vscode/x.ts'), null);
  assert.equal(forbidden('../common/store', 'src/node/x.ts'), null);
  assert.equal(forbidden('zod', 'src/common/x.ts'), null);
});

test('the import cycle check finds a cycle through a file, and only then', () => {
  const edges = (graph: Record<string, string[]>) => (n: string) => graph[n] ?? [];
  assert.deepEqual(cycleThrough('a', edges({ a: ['b'], b: ['c'], c: ['a'] })), ['a', 'b', 'c', 'a']);
  assert.deepEqual(cycleThrough('a', edges({ a: ['a'] })), ['a', 'a']);
  assert.equal(cycleThrough('a', edges({ a: ['b', 'c'], b: ['c'], c: [] })), null);
  // A cycle elsewhere in the graph is that file's to report, and the walk still ends.
  assert.equal(cycleThrough('a', edges({ a: ['b'], b: ['c'], c: ['b'] })), null);
});

test('the import scanner behind the cycle check sees every import form', () => {
  const text = `import * as vscode from 'vscode';\nimport type { X } from "node:fs";\nexport { y } from './y';\nimport './side';\nconst p = require('path');\nconst q = await import('os');`;
  assert.deepEqual(importsOf(text), ['vscode', 'node:fs', './y', './side', 'path', 'os']);
});

test('a source file over 400 lines gets a warning, not an error', async () => {
  const [result] = await eslint.lintText(`${'export const a = 1;\n'.repeat(401)}`, { filePath: path.join(root, 'src/common/lintFixture.ts') });
  assert.deepEqual(
    result?.messages.map((m) => [m.ruleId, m.severity]),
    [['max-lines', 1]],
  );
  const [short] = await eslint.lintText(`${'export const a = 1;\n'.repeat(400)}`, { filePath: path.join(root, 'src/common/lintFixture.ts') });
  assert.deepEqual(short?.messages, []);
});
