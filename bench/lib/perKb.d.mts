// Types of bench/lib/perKb.mjs for its unit test.
export function lastOverFirstPerKb(options: { seconds: number; cpu: (from: number, to: number) => number; kb: (from: number, to: number) => number; window?: number }): {
  ratio: number;
  first: number;
  last: number;
  window: number;
};
