// A stream's cost per KB at its end over its start (webview.paced60sLastOverFirstPerKb,
// webviewSubagents.lastOverFirstPerKb): 1 means the cost does not grow with what the stream has shown.
import { percentile } from './trace.mjs';

/**
 * CPU per KB in the stream's last `window` seconds over its first (from second 1: in the first, the code
 * runs before the JIT has compiled it), each the median of the stretch's one-second costs. A window's
 * total let one second that a burst of load hit (another job, the hypervisor billing a pause to the
 * thread) decide the figure: on this machine the same code gave 1.12 and 2.03 that way. `cpu(from, to)`
 * and `kb(from, to)` take seconds from the stream's start; seconds that streamed nothing are left out.
 */
export function lastOverFirstPerKb({ seconds, cpu, kb, window = 10 }) {
  const w = Math.min(window, Math.floor((seconds - 1) / 3));
  const median = (from) => {
    const costs = [];
    for (let s = from; s < from + w; s++) {
      const k = kb(s, s + 1);
      if (k > 0) costs.push(cpu(s, s + 1) / k);
    }
    return percentile(costs, 0.5);
  };
  const first = median(1);
  const last = median(seconds - w);
  return { ratio: last / first, first, last, window: w };
}
