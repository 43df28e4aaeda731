// The extension bundle reads no browser global: VS Code's extension host logs a PendingMigrationError
// at activation for every dependency that reads `navigator` (zod does, probing whether eval works).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../..');

async function bundle(define: Record<string, string>): Promise<string> {
  const r = await esbuild.build({ absWorkingDir: root, entryPoints: ['src/vscode/extension.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], write: false, logLevel: 'silent', define });
  return r.outputFiles[0]?.text ?? '';
}

test('the extension bundle never reads navigator', async () => {
  const { NODE_DEFINE } = (await import(path.join(root, 'scripts/hostGlobals.mjs'))) as { NODE_DEFINE: Record<string, string> };
  assert.match(await bundle({}), /\bnavigator\b/, 'a dependency reads navigator (else this test checks nothing)');
  assert.doesNotMatch(await bundle(NODE_DEFINE), /\bnavigator\b/);
});
