// What the shipped bundles contain, from esbuild's metafile of the production build (built in memory, the
// same options as scripts/build.mjs --production). zod belongs to the host side: the webview only renders
// what the host sends, and zod would be most of its bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';

/** The packaged webview bundle's budget (minified). */
const WEBVIEW_BUDGET_BYTES = 300 * 1024;
/** The code highlighter's, a script of its own loaded on the first code block (webview/codeHighlight.ts). */
const HIGHLIGHTER_BUDGET_BYTES = 160 * 1024;

async function metafileOf(name: 'webview' | 'highlighter'): Promise<{ bytes: number; inputs: string[] }> {
  const { bundles } = await import('../../../scripts/bundles.mjs');
  const options = bundles({ production: true })[name];
  assert.ok(options, `no ${name} bundle`);
  const result = await esbuild.build({ ...options, write: false, metafile: true, logLevel: 'silent' });
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
  assert.equal(outputs.length, 1, `one ${name} output`);
  const [, output] = outputs[0] as [string, esbuild.Metafile['outputs'][string]];
  const inputs = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([file]) => file);
  return { bytes: output.bytes, inputs };
}

test('the production webview bundle has no zod in it and stays within its budget', async () => {
  const { bytes, inputs } = await metafileOf('webview');
  const zod = inputs.filter((f) => /node_modules\/zod\//.test(f));
  assert.deepEqual(zod, [], 'a value import of a module that builds zod schemas (contract.ts, protocol/*) reached the webview');
  assert.ok(bytes <= WEBVIEW_BUDGET_BYTES, `webview bundle ${bytes} bytes > ${WEBVIEW_BUDGET_BYTES}`);
  // The check can fail: the webview does bundle its Markdown renderer.
  assert.ok(inputs.some((f) => /node_modules\/markdown-it\//.test(f)));
});

test('highlight.js is a bundle of its own, within its budget, and none of it is in the webview bundle', async () => {
  const webview = await metafileOf('webview');
  assert.deepEqual(
    webview.inputs.filter((f) => /node_modules\/highlight\.js\//.test(f)),
    [],
    'highlight.js must load lazily, not with the panel',
  );
  const highlighter = await metafileOf('highlighter');
  assert.ok(highlighter.inputs.some((f) => /node_modules\/highlight\.js\/(lib|es)\/languages\/typescript/.test(f)));
  assert.ok(highlighter.bytes <= HIGHLIGHTER_BUDGET_BYTES, `highlighter bundle ${highlighter.bytes} bytes > ${HIGHLIGHTER_BUDGET_BYTES}`);
});

test('production bundles are minified and carry no source-map reference', async () => {
  const { bundles } = await import('../../../scripts/bundles.mjs');
  for (const [name, options] of Object.entries(bundles({ production: true }))) {
    if (!options || name === 'hostSuite') continue;
    assert.equal(options.minify, true, name);
    assert.equal(options.sourcemap, false, name);
  }
});
