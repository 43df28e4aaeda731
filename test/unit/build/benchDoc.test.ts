// docs/BENCHMARKS.md's generator: every figure from the results, with its goal, ratio, spread and verdict,
// and the machine and date of the run; with a run under load beside it, each figure loaded too, and each
// ratio's move (called out past 20 %).
import { test } from 'node:test';
import assert from 'node:assert/strict';

const results = {
  machine: { node: 'v20.20.2', cpus: 2, cpuModel: 'Test CPU', loadavg: [1.5, 1.2, 1], date: '2026-11-26T01:00:00.000Z' },
  benchmarks: ['bench/store.bench.ts', 'bench/webview.bench.mjs'],
  'store.bytesPerTextByte': 2.02,
  'store.bytesPerTextByte.goal': '<= 3',
  'e2e.ratioToBaseline': 0.4,
  'e2e.ratioToBaseline.goal': '>= 0.5 (stretch 0.7)',
  'e2e.ratioToBaseline.spread': '0.35–0.42 middle half, 0.3–0.5 all 5 rounds',
  'webview.snapshot10kMs': 177,
  'webview.snapshot10kMs.ratio': 3.1,
  'webview.snapshot10kMs.goal': '< 200',
  'webview.parts': { text: 2300, keys: 1700 },
  'webview.scrollP95Ms': 40,
  'webview.scrollP95Ms.ratio': 0.2,
  'webview.scrollP95Ms.goal': 'ratio <= 0.3',
  'cli.peakRssMb': null,
  'cli.peakRssMb.goal': '< 200',
};

test('goals are judged by their leading comparison', async () => {
  const { meets } = await import('../../../scripts/bench-doc.mjs');
  assert.equal(meets(2.02, '<= 3'), true);
  assert.equal(meets(0.4, '>= 0.5 (stretch 0.7)'), false);
  assert.equal(meets(200, '< 200'), false);
  assert.equal(meets(null, '< 200'), null);
  assert.equal(meets(1, 'fast'), null);
  // A goal on the ratio judges the ratio, not the figure.
  assert.equal(meets(900, 'ratio <= 1.5', 1.2), true);
  assert.equal(meets(9, 'ratio <= 1.5 (today 1.2)', 1.6), false);
  assert.equal(meets(9, 'ratio <= 1.5', undefined), null);
});

test('the document has the run, one table per area and every figure with its ratio, goal and verdict', async () => {
  const { benchDoc } = await import('../../../scripts/bench-doc.mjs');
  const doc = benchDoc(results);
  assert.match(doc, /^- Run: 2026-11-26T01:00:00\.000Z$/m);
  assert.match(doc, /^- Machine: 2 CPUs, Test CPU$/m);
  assert.match(doc, /^- Goals met: 3 of 4$/m);
  assert.match(doc, /^- Benchmarks in this run: `bench\/store\.bench\.ts`, `bench\/webview\.bench\.mjs`$/m);
  assert.deepEqual(
    [...doc.matchAll(/^## (\w+)$/gm)].map((m) => m[1]),
    ['store', 'e2e', 'webview', 'cli'],
  );
  assert.match(doc, /^\| `store\.bytesPerTextByte` \| 2\.02 \| — \| <= 3 \| yes \| — \|$/m);
  assert.match(doc, /^\| `e2e\.ratioToBaseline` \| 0\.4 \| — \| >= 0\.5 \(stretch 0\.7\) \| \*\*no\*\* \| 0\.35–0\.42 middle half, 0\.3–0\.5 all 5 rounds \|$/m);
  assert.match(doc, /^\| `webview\.snapshot10kMs` \| 177 \| 3\.1 \| < 200 \| yes \| — \|$/m);
  assert.match(doc, /^\| `webview\.scrollP95Ms` \| 40 \| 0\.2 \| ratio <= 0\.3 \| yes \| — \|$/m);
  assert.match(doc, /^\| `webview\.parts` \| text: 2300, keys: 1700 \|/m);
  assert.match(doc, /^\| `cli\.peakRssMb` \| — \| — \| < 200 \| \? \| — \|$/m);
  // Goals, ratios and spreads are columns of their figure, not rows of their own; no loaded columns without a loaded run.
  assert.doesNotMatch(doc, /`[\w.]+\.(goal|ratio|spread)`/);
  assert.doesNotMatch(doc, /loaded|moved/i);
});

const loaded = {
  machine: { date: '2026-11-26T02:00:00.000Z', cpuLoad: '1 busy process(es), one core each, at most 10800 s', loadavg: [3, 2, 1] },
  benchmarks: ['bench/store.bench.ts', 'bench/webview.bench.mjs'],
  'store.bytesPerTextByte': 2.9,
  'e2e.ratioToBaseline': 0.46,
  'e2e.ratioToBaseline.spread': '0.4–0.5 middle half, 0.3–0.6 all 5 rounds',
  'webview.snapshot10kMs': 400,
  'webview.snapshot10kMs.ratio': 4.03,
  'webview.scrollP95Ms': 41,
  'webview.scrollP95Ms.ratio': 0.21,
};

test('with a loaded run: each figure quiet and loaded, each ratio how far it moved, and moves over 20 % called out', async () => {
  const { benchDoc, moved } = await import('../../../scripts/bench-doc.mjs');
  // A ratio is compared by its in-run ratio when it has one, else by itself when it is one; other figures not at all.
  assert.equal(Math.round((moved(results, loaded, 'webview.snapshot10kMs') ?? NaN) * 100), 30);
  assert.equal(Math.round((moved(results, loaded, 'e2e.ratioToBaseline') ?? NaN) * 100), 15);
  assert.equal(moved(results, loaded, 'store.bytesPerTextByte'), undefined);
  assert.equal(moved(results, undefined, 'e2e.ratioToBaseline'), undefined);
  const doc = benchDoc(results, loaded);
  assert.match(
    doc,
    /^- Loaded run \(`npm run bench -- --load`\): 2026-11-26T02:00:00\.000Z, 1 busy process\(es\), one core each, at most 10800 s; load average at its start 3, 2, 1$/m,
  );
  assert.match(doc, /^- Ratios that moved more than 20 % under load: `webview\.snapshot10kMs` \(\+30 %\)$/m);
  assert.match(doc, /^\| figure \| value \| ratio \| goal \| met \| spread \| loaded \| moved \|$/m);
  assert.match(doc, /^\| `webview\.snapshot10kMs` \| 177 \| 3\.1 \| < 200 \| yes \| — \| 400 \(ratio 4\.03\) \| \*\*\+30 %\*\* \|$/m);
  assert.match(doc, /^\| `e2e\.ratioToBaseline` \| 0\.4 \|.*\| 0\.46 \| \+15 % \|$/m);
  assert.match(doc, /^\| `webview\.scrollP95Ms` \|.*\| 41 \(ratio 0\.21\) \| \+5 % \|$/m);
  assert.match(doc, /^\| `store\.bytesPerTextByte` \|.*\| 2\.9 \|  \|$/m);
  assert.match(doc, /^\| `cli\.peakRssMb` \|.*\| — \|  \|$/m);
});

test("the full soak's figures replace the short day's, with how to read them", async () => {
  const { benchDoc } = await import('../../../scripts/bench-doc.mjs');
  const short = { ...results, 'soak.mode': 'short', 'soak.hostHeapGrowth': 1.5, 'soak.hostHeapGrowth.goal': '<= 1.1', 'soak.rendererHeapByHourMb': '9 9' };
  const full = { machine: { date: '2026-11-27T00:00:00.000Z' }, 'soak.mode': 'full', 'soak.day': '10 hours', 'soak.hostHeapGrowth': 1.02, 'soak.hostHeapGrowth.goal': '<= 1.1' };
  const doc = benchDoc(short, undefined, full);
  assert.match(doc, /^\| `soak\.hostHeapGrowth` \| 1\.02 \| — \| <= 1\.1 \| yes \|/m);
  assert.doesNotMatch(doc, /soak\.rendererHeapByHourMb/, "the short day's figures are gone");
  assert.match(doc, /this is its full day, `npm run soak`: 10 hours/);
  assert.match(doc, /Chrome DevTools \(Memory tab/);
  assert.match(benchDoc(short), /this is its short day, run by `npm run bench`/);
  assert.match(benchDoc(short), /^\| `soak\.hostHeapGrowth` \| 1\.5 \| — \| <= 1\.1 \| \*\*no\*\* \|/m);
});

test("with the full day in place, the loaded run's short day is shown in the soak rows but not compared", async () => {
  const { benchDoc } = await import('../../../scripts/bench-doc.mjs');
  const short = (x: number) => ({ ...results, 'soak.mode': 'short', 'soak.hostCpuPerKbLastOverFirst': x, 'soak.hostCpuPerKbLastOverFirst.goal': '<= 1.1' });
  const full = {
    machine: { date: '2026-11-27T00:00:00.000Z' },
    'soak.mode': 'full',
    'soak.day': '10 hours',
    'soak.hostCpuPerKbLastOverFirst': 0.7,
    'soak.hostCpuPerKbLastOverFirst.goal': '<= 1.1',
  };
  const doc = benchDoc(short(1.1), short(1.02), full);
  assert.match(doc, /^\| `soak\.hostCpuPerKbLastOverFirst` \| 0\.7 \| — \| <= 1\.1 \| yes \| — \| 1\.02 \| {2}\|$/m);
  assert.doesNotMatch(doc, /moved more than 20 %[^\n]*soak\./, 'another day is not called out as moved');
  assert.match(doc, /Its `loaded` column is the loaded run's own short day/);
  // Two short days (no full one) are the same kind of day: compared.
  const shortOnly = benchDoc(short(0.7), short(1.02));
  assert.match(shortOnly, /^\| `soak\.hostCpuPerKbLastOverFirst` \| 0\.7 \|.*\| 1\.02 \| \*\*\+46 %\*\* \|$/m);
  assert.doesNotMatch(shortOnly, /Its `loaded` column/);
});
