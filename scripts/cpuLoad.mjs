// A deliberate, bounded CPU load for `npm run bench -- --load` (issue 45, "figures that hold"): busy child
// processes that spin on a core each while the benchmarks run, so a figure that moves with load shows it
// in docs/BENCHMARKS.md (quiet beside loaded). Bounded three ways: a fixed number of processes, a deadline
// each one keeps itself (it exits when the deadline passes), and the parent's stop() or its exit
// (the IPC channel closes when the parent goes, and a busy child notices between its slices).
//   node scripts/cpuLoad.mjs --busy SECONDS   (what each child runs)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** How long one busy slice spins before the child looks at its channel and deadline again. */
const SLICE_MS = 50;

/**
 * Starts `processes` busy children, each ending by itself after `maxSeconds`. Returns what the load is
 * (for the results) and `stop()`, which ends them (by their pids, once; also run when this process exits).
 */
export function startCpuLoad({ processes = 1, maxSeconds = 3 * 3600 } = {}) {
  const children = Array.from({ length: processes }, () => fork(fileURLToPath(import.meta.url), ['--busy', String(maxSeconds)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
  };
  process.once('exit', stop);
  return { description: `${processes} busy process(es), one core each, at most ${maxSeconds} s`, pids: children.map((c) => c.pid), stop };
}

function busy(seconds) {
  const end = Date.now() + seconds * 1000;
  process.on('disconnect', () => process.exit(0));
  const slice = () => {
    if (Date.now() > end) process.exit(0);
    const until = Date.now() + SLICE_MS;
    let x = 0;
    while (Date.now() < until) x = (x * 31 + 7) % 1000003;
    // Between slices the event loop runs, so a closed channel (the parent gone) ends the child.
    setImmediate(slice, x);
  };
  slice();
}

if (process.argv[2] === '--busy') busy(Number(process.argv[3]) || 60);
