// One esbuild bundle per runtime (options in scripts/bundles.mjs). `tsc --noEmit` (npm run typecheck) is the
// type gate; esbuild only emits.
//   node scripts/build.mjs [--production] [--watch]
// --production: minified bundles without source maps, as scripts/package.mjs ships them.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bundles, root } from './bundles.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const builds = Object.values(bundles({ production })).filter((b) => b !== null);

function copyAssets() {
  // Codicons' font and CSS are served to the webview from dist/, so the .vsix needs no node_modules.
  const codicons = path.join(root, 'node_modules/@vscode/codicons/dist');
  mkdirSync(path.join(root, 'dist/codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(path.join(codicons, f), path.join(root, 'dist/codicons', f));
}

/** A production build leaves no maps of an earlier development build beside its bundles. */
function removeMaps() {
  for (const b of builds) if (b.outfile) rmSync(path.join(root, `${b.outfile}.map`), { force: true });
}

const t0 = Date.now();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  copyAssets();
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('build: watching');
} else {
  if (production) removeMaps();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  copyAssets();
  console.log(`build: ${builds.length} bundles in ${Date.now() - t0} ms${production ? ' (production)' : ''}`);
}
