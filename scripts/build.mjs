// One esbuild bundle per runtime. `tsc --noEmit` (npm run typecheck) is the type gate; esbuild only emits.
//   node scripts/build.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_DEFINE } from './hostGlobals.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', define: NODE_DEFINE };

const builds = [
  // The extension: `vscode` is provided by the extension host.
  { ...node, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // Headless client and store tools (`reduce`, `run`).
  { ...node, entryPoints: ['src/node/cli.ts'], outfile: 'dist/cli.js' },
  // The built-in demo agent: a real ACP agent over stdio, started as a child process.
  { ...node, entryPoints: ['src/node/demoAgent/main.ts'], outfile: 'dist/demo-agent.js' },
  // The chat panel's script: runs in the webview (a browser), imports only src/common.
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' },
];

// Extension-host Mocha suite: one file per test module (Mocha addFile()s them), mocha resolved at run time.
const hostSuite = path.join(root, 'test/host');
if (existsSync(hostSuite)) {
  const entries = readdirSync(hostSuite).filter((f) => f.endsWith('.ts')).map((f) => `test/host/${f}`);
  if (entries.length) builds.push({ ...node, entryPoints: entries, outdir: 'dist/test/host', external: ['vscode', 'mocha'] });
}

function copyAssets() {
  // Codicons' font and CSS are served to the webview from dist/, so the .vsix needs no node_modules.
  const codicons = path.join(root, 'node_modules/@vscode/codicons/dist');
  mkdirSync(path.join(root, 'dist/codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(path.join(codicons, f), path.join(root, 'dist/codicons', f));
}

const t0 = Date.now();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  copyAssets();
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('build: watching');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  copyAssets();
  console.log(`build: ${builds.length} bundles in ${Date.now() - t0} ms${production ? ' (production)' : ''}`);
}
