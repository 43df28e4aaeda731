// Packages the built extension into dist/acp-chat.vsix with vsce (offline; run `node scripts/build.mjs` first).
//   node scripts/package.mjs
// The bundles need no node_modules, so --no-dependencies. Before packing, the file list vsce would ship is
// checked against the allowlist below, so a .vscodeignore mistake (sources, tests, maps) fails here loudly
// instead of bloating the .vsix.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/acp-chat.vsix');
const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
const bundles = ['dist/extension.js', 'dist/cli.js', 'dist/demo-agent.js', 'dist/webview.js'];
/** What the .vsix may contain (mirrors .vscodeignore). */
const allowed = [/^package\.json$/, /^README\.md$/, /^LICENSE$/, /^dist\/(extension|cli|demo-agent|webview)\.js$/, /^dist\/codicons\/.+/, /^media\/.+/];

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

if (!existsSync(vsce)) fail('vsce is missing: run bash scripts/setup.sh (npm ci) first');
const missing = bundles.filter((b) => !existsSync(path.join(root, b)));
if (missing.length) fail(`missing ${missing.join(', ')}: run node scripts/build.mjs first`);

function runVsce(args) {
  const r = spawnSync(process.execPath, [vsce, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) fail(`vsce ${args[0]} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

// LICENSE is optional while the repo has none; without --skip-license vsce would stop and ask on stdin.
const licenseFlag = existsSync(path.join(root, 'LICENSE')) ? [] : ['--skip-license'];
const files = runVsce(['ls', '--no-dependencies']).split('\n').map((l) => l.trim()).filter(Boolean);
const unexpected = files.filter((f) => !allowed.some((re) => re.test(f)));
if (unexpected.length) fail(`.vscodeignore lets through files that must not ship:\n  ${unexpected.join('\n  ')}`);

// The README's screenshots (media/screenshots) ship in the .vsix and are linked relatively, so the
// extension's details page shows them from the installed folder; there is no repository URL to rewrite to.
runVsce(['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', ...licenseFlag, '-o', out]);
const kb = (statSync(out).size / 1024).toFixed(0);
console.log(`package: ${path.relative(root, out)} (${files.length} files, ${kb} KiB): ${files.join(', ')}`);
