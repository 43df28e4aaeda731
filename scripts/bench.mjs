// `npm run bench`: runs every benchmark in bench/ and writes their figures, by name, to bench-results.json.
// Each benchmark prints one JSON object of named figures as the last line of its stdout. Figures are
// compared with baselines measured in the same run (never with fixed times), so they mean the same on
// any machine.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = readdirSync(path.join(root, 'bench')).filter((f) => /\.bench\.(ts|mjs)$/.test(f)).sort();
// What the benchmarks need, the same way `npm test` gets it: system packages (Chromium for the webview
// benchmarks), node_modules (tsx, esbuild, playwright-core) and the VS Code host (code-server, for the
// start and reload figures of bench/startup.bench.mjs; without it a fresh clone's run lost them). Then a
// fresh build, so the figures are for the code in the tree.
for (const [cmd, args] of [['bash', ['scripts/setup.sh']], [process.execPath, ['scripts/build.mjs']]]) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`bench: ${[cmd === process.execPath ? 'node' : cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
const os = await import('node:os');
const results = {
  machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, platform: `${process.platform}-${process.arch}`, loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100), date: new Date().toISOString() },
  /** The benchmarks whose figures are below (a failed one is missing). */
  benchmarks: [],
};
let failed = 0;
for (const f of benches) {
  console.log(`\n=== bench/${f}`);
  const args = f.endsWith('.ts') ? ['--import', 'tsx', '--expose-gc', `bench/${f}`] : ['--expose-gc', `bench/${f}`];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
  process.stdout.write(r.stdout);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  try {
    if (r.status !== 0) throw new Error(`exit ${r.status}`);
    Object.assign(results, JSON.parse(last));
    results.benchmarks.push(`bench/${f}`);
  } catch (e) {
    failed++;
    console.error(`bench/${f} failed: ${e.message}`);
  }
}
writeFileSync(path.join(root, 'bench-results.json'), JSON.stringify(results, null, 2) + '\n');
console.log(`\nbench-results.json written (${benches.length - failed} of ${benches.length} benchmarks)`);
// docs/BENCHMARKS.md is generated from these results only (no figure is written by hand).
spawnSync(process.execPath, ['scripts/bench-doc.mjs'], { cwd: root, stdio: 'inherit' });
process.exit(failed ? 1 : 0);
