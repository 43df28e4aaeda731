/**
 * Interleaved rounds, for every bench whose figure is a ratio to a baseline run apart from it (issue 45,
 * "figures that hold"): a baseline measured once and a figure measured later see different loads on a
 * shared machine (e2e.ratioToBaseline moved 0.57-0.98 on the same code). So each round runs the baseline
 * and the figure one right after the other, the figure is the median of the per-round ratios (a round that
 * a burst of load hit is one outlier, not the result), and its spread (the middle half and the whole range
 * of the per-round ratios) is reported beside it as `<figure>.spread`.
 */

/** One measured step: its cost (CPU ms, wall ms, µs per chunk: the same unit for the steps compared). */
export type Step = () => number | Promise<number>;

/**
 * CPU time this process has used, in ms (all its threads, so GC helpers count): time spent waiting for a
 * core while other jobs run is not the code's cost. Child processes are not included.
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Runs `rounds` rounds of every step and returns each step's costs, one per round. Steps run in the order
 * given on even rounds and in reverse on odd ones, so load that rises or falls during a round hits the
 * first and the last step alike over the run.
 */
export async function interleavedRounds<K extends string>(rounds: number, steps: Record<K, Step>): Promise<Record<K, number[]>> {
  const names = Object.keys(steps) as K[];
  const costs = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) costs[name].push(await steps[name]());
  }
  return costs;
}

export interface RoundRatios {
  /** The median of the per-round ratios (for an even count, the mean of the two middle ones). */
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** The middle half of the per-round ratios: the first and third quartile (nearest rank). */
  readonly q1: number;
  readonly q3: number;
  /** Round by round: `num[i] / den[i]`. */
  readonly ratios: readonly number[];
}

/** The per-round ratios `num[i] / den[i]` of two steps measured in the same rounds. */
export function roundRatios(num: readonly number[], den: readonly number[]): RoundRatios {
  if (num.length !== den.length || num.length === 0) throw new Error(`ratios need the same rounds on both sides (${num.length} and ${den.length})`);
  const ratios = num.map((x, i) => x / (den[i] as number));
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const at = (q: number) => sorted[q < 0.5 ? Math.floor(q * (sorted.length - 1)) : Math.ceil(q * (sorted.length - 1))] as number;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, q1: at(0.25), q3: at(0.75), ratios };
}

export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * How a spread reads in bench-results.json and docs/BENCHMARKS.md: `1.55–1.63 middle half, 1.52–1.71 all
 * 7 rounds` (the middle half says how steady the figure is; the whole range, how far one round strayed).
 */
function spreadText(r: RoundRatios, digits = 3): string {
  const f = (x: number) => round(x, digits);
  return `${f(r.q1)}–${f(r.q3)} middle half, ${f(r.min)}–${f(r.max)} all ${r.ratios.length} rounds`;
}

/** A ratio figure as bench-results.json holds it: `name` (the median per-round ratio) and `name.spread`. */
export function ratioFigure(name: string, num: readonly number[], den: readonly number[], digits = 3): Record<string, number | string> {
  const r = roundRatios(num, den);
  return { [name]: round(r.median, digits), [`${name}.spread`]: spreadText(r, digits) };
}

/** The median of `xs` (the mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  return roundRatios(
    xs,
    xs.map(() => 1),
  ).median;
}
