// The benches' shared machinery for figures that hold (issue 45): interleaved rounds and their per-round
// ratios (bench/lib/rounds.ts), a stream's last over first cost per KB (bench/lib/perKb.mjs), and the bounded
// CPU load of `npm run bench -- --load` (scripts/cpuLoad.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { interleavedRounds, ratioFigure, roundRatios } from '../../../bench/lib/rounds';
import { lastOverFirstPerKb } from '../../../bench/lib/perKb.mjs';
import { until } from '../../helpers/until.mjs';

test('interleaved rounds run every step once a round, the order reversed every other round', async () => {
  const order: string[] = [];
  let n = 0;
  const step = (name: string) => () => {
    order.push(name);
    return ++n;
  };
  const costs = await interleavedRounds(3, { base: step('base'), fig: step('fig'), other: async () => step('other')() });
  assert.deepEqual(order, ['base', 'fig', 'other', 'other', 'fig', 'base', 'base', 'fig', 'other']);
  assert.deepEqual(costs, { base: [1, 6, 7], fig: [2, 5, 8], other: [3, 4, 9] });
});

test('a ratio figure is the median of the per-round ratios, with its middle half and range', () => {
  // One round hit by load (the 9) moves the range, not the figure.
  const r = roundRatios([2, 2.2, 9, 2.1, 1.9], [1, 1, 1, 1, 1]);
  assert.equal(r.median, 2.1);
  assert.deepEqual([r.q1, r.q3, r.min, r.max], [2, 2.2, 1.9, 9]);
  assert.deepEqual(ratioFigure('x.aOverB', [2, 2.2, 9, 2.1, 1.9], [1, 1, 1, 1, 1]), { 'x.aOverB': 2.1, 'x.aOverB.spread': '2–2.2 middle half, 1.9–9 all 5 rounds' });
  assert.equal(roundRatios([3, 1], [1, 1]).median, 2);
  assert.throws(() => roundRatios([1, 2], [1]), /same rounds/);
});

/** CPU ticks a process has used (Linux /proc), or null once it is gone. */
function ticks(pid: number): number | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

test('the CPU load: busy children that burn CPU, end on stop(), and end by themselves at their deadline', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const { startCpuLoad } = await import('../../../scripts/cpuLoad.mjs');
  const load = startCpuLoad({ processes: 1, maxSeconds: 60 });
  const [pid] = load.pids;
  assert.ok(pid);
  assert.match(load.description, /1 busy process/);
  await until(() => (ticks(pid) ?? 0) > 5, 'the child burns CPU', 20_000);
  load.stop();
  await until(() => ticks(pid) === null, 'stop() ends the child', 20_000);
  const short = startCpuLoad({ processes: 1, maxSeconds: 1 });
  const [other] = short.pids;
  assert.ok(other);
  await until(() => ticks(other) === null, 'the child ends at its deadline', 20_000);
});

test('a stream’s last over first CPU per KB takes the median second of each stretch: one second a burst hit does not decide it', () => {
  // 40 s at 10 KB a second, 2 ms per KB throughout, but second 35 cost ten times as much; second 0 (warm-up) too.
  const msPerKb = (s: number) => (s === 35 || s === 0 ? 20 : 2);
  const cpu = (from: number, to: number) => {
    let ms = 0;
    for (let s = from; s < to; s++) ms += msPerKb(s) * 10;
    return ms;
  };
  const flat = lastOverFirstPerKb({ seconds: 40, cpu, kb: (from, to) => (to - from) * 10 });
  assert.deepEqual(flat, { ratio: 1, first: 2, last: 2, window: 10 });
  // Costs that do grow are seen: the last ten seconds at 3 ms per KB.
  const growing = lastOverFirstPerKb({ seconds: 40, cpu: (from, to) => (from >= 30 ? 30 : 20) * (to - from), kb: (from, to) => (to - from) * 10 });
  assert.equal(growing.ratio, 1.5);
  // A second that streamed nothing is left out, not a division by zero; a short stream gets shorter stretches.
  const short = lastOverFirstPerKb({ seconds: 10, cpu: (from, to) => to - from, kb: (from) => (from === 2 ? 0 : 1) });
  assert.deepEqual(short, { ratio: 1, first: 1, last: 1, window: 3 });
});
