// The static checks of `npm test`, two at a time: typecheck, lint, knip and the format check each run one
// program on one core (tsc, typed ESLint, knip, prettier), so on a two-core machine running them in pairs
// takes about the time of the longer of each pair instead of the sum. Each check's output is printed whole
// when it ends, in the order below; the last line is `N passed, N failed` (one per check).
//   node scripts/checks.mjs [NAME ...]   (names: typecheck lint knip format; default all)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The npm scripts behind each check (package.json); the longest first, so the pairs even out. */
const CHECKS = { lint: 'lint', typecheck: 'typecheck', knip: 'knip', format: 'format:check' };
const JOBS = Number(process.env.CHECK_JOBS ?? 2);

const asked = process.argv.slice(2);
const unknown = asked.filter((n) => !(n in CHECKS));
if (unknown.length) {
  console.error(`unknown check ${unknown.join(', ')}; known: ${Object.keys(CHECKS).join(' ')}`);
  process.exit(2);
}
const names = asked.length ? asked : Object.keys(CHECKS);

/** Runs one check; resolves with its exit code, its output and its time. */
function run(name) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', CHECKS[name]], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), out, secs: (Date.now() - t0) / 1000 }));
  });
}

const results = new Map();
const queue = [...names];
const workers = Array.from({ length: Math.min(JOBS, names.length) }, async () => {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) results.set(name, await run(name));
});
await Promise.all(workers);

let passed = 0;
let failed = 0;
for (const name of names) {
  const r = results.get(name);
  console.log(`=== ${name} (npm run ${CHECKS[name]}): ${r.code === 0 ? 'ok' : `FAIL (exit ${r.code})`} in ${r.secs.toFixed(1)} s`);
  if (r.out.trim()) console.log(r.out.trimEnd());
  if (r.code === 0) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
