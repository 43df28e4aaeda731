// Types of scripts/cpuLoad.mjs for its unit test.
export function startCpuLoad(options?: { processes?: number; maxSeconds?: number }): { description: string; pids: number[]; stop: () => void };
