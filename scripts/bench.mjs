// `npm run bench`: runs every benchmark in bench/ and writes their figures, by name, to bench-results.json.
// Each benchmark prints one JSON object of named figures as the last line of its stdout. Figures are
// compared with baselines measured in the same run (never with fixed times), so they mean the same on
// any machine.
//   npm run bench [-- --load[=N]] [--only NAME]
//   --load[=N]   the same run under a deliberate CPU load: N busy processes (default 1, one core each;
//                scripts/cpuLoad.mjs), stopped at the end; figures go to bench-results-loaded.json, and
//                docs/BENCHMARKS.md shows them beside the quiet ones (bench-results.json), calling out a ratio
//                that moved more than 20 %
//   --only NAME  only the benchmarks whose file name contains NAME, a quick look: the figures go to
//                bench-results-only[-loaded].json and docs/BENCHMARKS.md is not rewritten
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCpuLoad } from './cpuLoad.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const loadArg = args.find((a) => a === '--load' || a.startsWith('--load='));
const loadProcesses = loadArg === undefined ? 0 : loadArg === '--load' ? 1 : Number(loadArg.slice('--load='.length));
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
const known = (a, i) => a === loadArg || (onlyAt >= 0 && (i === onlyAt || i === onlyAt + 1));
if (!Number.isInteger(loadProcesses) || loadProcesses < 0 || (onlyAt >= 0 && !only) || args.some((a, i) => !known(a, i))) {
  console.error('usage: npm run bench [-- --load[=N]] [--only NAME]');
  process.exit(2);
}
const benches = readdirSync(path.join(root, 'bench'))
  .filter((f) => /\.bench\.(ts|mjs)$/.test(f) && (only === undefined || f.includes(only)))
  .sort();
if (benches.length === 0) {
  console.error(`bench: no benchmark file name contains ${only}`);
  process.exit(2);
}
// What the benchmarks need, the same way `npm test` gets it: system packages (Chromium for the webview
// benchmarks), node_modules (tsx, esbuild, playwright-core) and the VS Code host (code-server, for the
// start and reload figures of bench/startup.bench.mjs; without it a fresh clone's run lost them). Then a
// fresh build, so the figures are for the code in the tree.
for (const [cmd, args] of [
  ['bash', ['scripts/setup.sh']],
  [process.execPath, ['scripts/build.mjs']],
]) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`bench: ${[cmd === process.execPath ? 'node' : cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
const os = await import('node:os');
const results = {
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    platform: `${process.platform}-${process.arch}`,
    loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
    date: new Date().toISOString(),
  },
  /** The benchmarks whose figures are below (a failed one is missing). */
  benchmarks: [],
};
// Started after the setup and the build, so the load is on the benchmarks alone.
const load = loadProcesses > 0 ? startCpuLoad({ processes: loadProcesses }) : null;
if (load) {
  results.machine.cpuLoad = load.description;
  console.log(`bench: under a deliberate CPU load: ${load.description} (pids ${load.pids.join(', ')})`);
}
let failed = 0;
for (const f of benches) {
  console.log(`\n=== bench/${f}`);
  const started = performance.now();
  const args = f.endsWith('.ts') ? ['--import', 'tsx', '--expose-gc', `bench/${f}`] : ['--expose-gc', `bench/${f}`];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
  process.stdout.write(r.stdout);
  // How long each benchmark took, so a run can be planned (a whole run is most of an hour on 2 cores).
  results.machine.seconds = { ...results.machine.seconds, [`bench/${f}`]: Math.round((performance.now() - started) / 1000) };
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
load?.stop();
// A partial run (--only) keeps its own file, so it never stands in for a whole run's figures.
const out = `bench-results${only === undefined ? '' : '-only'}${load ? '-loaded' : ''}.json`;
writeFileSync(path.join(root, out), JSON.stringify(results, null, 2) + '\n');
console.log(`\n${out} written (${benches.length - failed} of ${benches.length} benchmarks)`);
// docs/BENCHMARKS.md is generated from these results only (no figure is written by hand).
if (only === undefined) spawnSync(process.execPath, ['scripts/bench-doc.mjs'], { cwd: root, stdio: 'inherit' });
process.exit(failed ? 1 : 0);
