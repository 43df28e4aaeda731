// The extension bundle reads no browser global: VS Code's extension host logs a PendingMigrationError
// at activation for every dependency that reads `navigator` (zod does, probing whether eval works).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../..');

type Bundles = (o: { production: boolean }) => Record<string, esbuild.BuildOptions | null>;

/** The shipped extension bundle's options (scripts/bundles.mjs), built in memory with `define` replaced. */
async function bundle(define: Record<string, string> | undefined): Promise<string> {
  const { bundles } = (await import(path.join(root, 'scripts/bundles.mjs'))) as { bundles: Bundles };
  const options = bundles({ production: false }).extension;
  assert.ok(options);
  const r = await esbuild.build({ ...options, outfile: undefined, sourcemap: false, write: false, logLevel: 'silent', define: define ?? options.define });
  return r.outputFiles[0]?.text ?? '';
}

test('the extension bundle never reads navigator', async () => {
  assert.match(await bundle({}), /\bnavigator\b/, 'a dependency reads navigator (else this test checks nothing)');
  assert.doesNotMatch(await bundle(undefined), /\bnavigator\b/);
});
