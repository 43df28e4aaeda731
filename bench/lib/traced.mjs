// A figure's work traced with the calibration around it, for the webview benches: the calibration (a fixed
// DOM workload, webviewPage.mjs `calibrate`) is run in the same Chromium right before and after the figure,
// under the same trace, so the figure's CPU time can be divided by it.
import { percentile, readTrace } from './trace.mjs';

const CALIBRATION_ROUNDS = 4;
const CATEGORIES = ['toplevel', 'blink.user_timing'];
/** One 60 Hz frame, in ms of main-thread CPU. */
const FRAME_MS = 16.7;

/**
 * The goal of every "within one 60 Hz frame" figure, in its ratio's unit (CPU ms over `cal`, the calibration
 * measured in this run around the figure: `traced`'s `cal`), derived the way the paced stream's goal is
 * (webview.bench.mjs PACED_GOAL_MS):
 *   ratio = frame CPU ms / cal        goal: ratio <= FRAME_MS / cal
 *   e.g. a calibration of 126 ms: ratio <= 16.7 / 126 = 0.133, met exactly when the frame took <= 16.7 ms.
 * No calibration from another run goes into it: the constant 35 ms it replaces (a quiet machine's best
 * calibration when the goals were set, 16.7 / 35 = 0.477) let a 40 ms frame pass in a run whose own
 * calibration was 126 ms.
 */
export function frameGoal(cal) {
  return `ratio <= ${round(FRAME_MS / cal, 3)} (one 60 Hz frame: ${FRAME_MS} ms / ${round(cal)} ms, this run's calibration around the figure)`;
}

/**
 * `traced(target, fn)` runs `fn` under a browser-wide trace and returns its result, the trace read for CPU
 * time, and the calibration measured in the same trace right before and after it (`cal`, ms of CPU, the
 * median of CALIBRATION_ROUNDS rounds run in `target`, a page or a frame with the bench's helpers): on a
 * virtual machine even CPU time grows when the host is busy (time the hypervisor takes from a busy guest
 * is billed to the thread that was running), so the calibration is taken as close to the figure as it can
 * be, and grows with it. `calibration` holds every round measured (the lowest is the run's calibration).
 */
export function tracer(browser) {
  const calibration = [];
  const traced = async (target, fn) => {
    const page = typeof target.page === 'function' ? target.page() : target;
    await browser.startTracing(page, { categories: CATEGORIES });
    const rounds = (from) =>
      Array.from({ length: CALIBRATION_ROUNDS }, (_, i) => from + i).reduce((p, i) => p.then(() => target.evaluate((r) => window.__bench.calibrate(r), i)), Promise.resolve());
    await rounds(0);
    const result = await fn();
    await rounds(CALIBRATION_ROUNDS);
    // A task's trace event is written when it ends, and a thread's events reach the trace at its next task.
    await target.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    const trace = readTrace(await browser.stopTracing());
    const cal = Array.from({ length: 2 * CALIBRATION_ROUNDS }, (_, i) => between(trace, `cal-${i}`));
    calibration.push(...cal);
    return { result, trace, cal: percentile(cal, 0.5) };
  };
  return { traced, calibration };
}

/** Main-thread CPU ms between `<name>-start` and `<name>-end` (or `end`). */
export function between(trace, name, end = `${name}-end`) {
  const a = trace.mark(`${name}-start`);
  return trace.mainCpu(a.pid, a.ts, trace.mark(end).ts);
}

/** A figure's CPU ms over the calibration measured around it (`traced`'s `cal`): its `.ratio`. */
export function ratio(cpuMs, cal) {
  return round(cpuMs / cal, 3);
}

export function round(x, d = 1) {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
