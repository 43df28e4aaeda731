// The esbuild options of every bundle, in one place: scripts/build.mjs builds them, and the bundle tests
// (test/unit/build/) build them in memory with a metafile to check what each bundle contains.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_DEFINE } from './hostGlobals.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {{ production: boolean }} options production: minified, no source maps (what the .vsix and the npm
 *   package ship; a shipped `sourceMappingURL` would point at a map that is not there).
 * @returns {Record<'extension' | 'cli' | 'demoAgent' | 'webview' | 'highlighter' | 'hostSuite', import('esbuild').BuildOptions | null>}
 */
export function bundles({ production }) {
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
  // Extension-host Mocha suite: one file per test module (Mocha addFile()s them), mocha resolved at run time.
  const hostSuite = path.join(root, 'test/host');
  // The CLI's reports name its version and documentation (src/node/cli/package.ts).
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const packageInfo = { 'process.env.ACP_CHAT_VERSION': JSON.stringify(manifest.version), 'process.env.ACP_CHAT_HOMEPAGE': JSON.stringify(manifest.homepage) };
  const hostEntries = existsSync(hostSuite)
    ? readdirSync(hostSuite)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `test/host/${f}`)
    : [];
  return {
    // The extension: `vscode` is provided by the extension host.
    extension: { ...node, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
    // Headless client and store tools (`reduce`, `run`, `check`); also the npm package's `acp-chat` bin.
    cli: { ...node, entryPoints: ['src/node/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, define: { ...NODE_DEFINE, ...packageInfo } },
    // The built-in demo agent: a real ACP agent over stdio, started as a child process.
    demoAgent: { ...node, entryPoints: ['src/node/demoAgent/main.ts'], outfile: 'dist/demo-agent.js' },
    // The chat panel's script: runs in the webview (a browser), imports only src/common.
    webview: { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' },
    // Syntax highlighting for the panel's code blocks (highlight.js and its grammars): a script of its own,
    // which the panel loads when it first draws a code block (webview/codeHighlight.ts).
    highlighter: { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/highlighter/main.ts'], outfile: 'dist/highlight.js' },
    hostSuite: hostEntries.length ? { ...node, entryPoints: hostEntries, outdir: 'dist/test/host', external: ['vscode', 'mocha'] } : null,
  };
}
