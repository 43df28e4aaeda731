// Builds the production bundles and packages them into dist/acp-chat.vsix with vsce (offline).
//   node scripts/package.mjs
// The bundles need no node_modules, so --no-dependencies. Before packing, the file list vsce would ship is
// checked against the allowlist below, so a .vscodeignore mistake (sources, tests, maps, screenshots) fails
// here loudly instead of bloating the .vsix. test/unit/build/vsix.test.ts checks the packed result.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { root } from './bundles.mjs';

const out = path.join(root, 'dist/acp-chat.vsix');
const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
/** What the .vsix may contain (mirrors .vscodeignore). */
const allowed = [
  /^(package\.json|README\.md|CHANGELOG\.md|LICENSE)$/,
  /^dist\/(extension|cli|demo-agent|webview|highlight)\.js$/,
  /^dist\/codicons\/codicon\.(css|ttf)$/,
  /^media\/(chat\.css|icon\.png)$/,
  /^media\/icons\/[\w-]+\.svg$/,
];

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function run(args, what) {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) fail(`${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

if (!existsSync(vsce)) fail('vsce is missing: run bash scripts/setup.sh (npm ci) first');
// The .vsix always ships production bundles, whatever the last development build left in dist/.
process.stdout.write(run([path.join(root, 'scripts/build.mjs'), '--production'], 'the production build'));

const files = run([vsce, 'ls', '--no-dependencies'], 'vsce ls')
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);
const unexpected = files.filter((f) => !allowed.some((re) => re.test(f)));
if (unexpected.length) fail(`.vscodeignore lets through files that must not ship:\n  ${unexpected.join('\n  ')}`);

// vsce rewrites the README's relative links against package.json's `repository`, so the screenshots (not
// packaged) load from there on the Marketplace and in the Extensions view.
run([vsce, 'package', '--no-dependencies', '-o', out], 'vsce package');
const kb = (statSync(out).size / 1024).toFixed(0);
console.log(`package: ${path.relative(root, out)} (${files.length} files, ${kb} KiB): ${files.join(', ')}`);
