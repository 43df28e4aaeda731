// CPU time from a Chromium trace (the `toplevel` category): every top-level task carries `tdur`, the CPU
// time its thread spent on it. CPU time, unlike wall time, does not grow when the machine is shared and
// the thread waits for a core, so figures built from it hold still under load.

/** The trace's events (Chromium writes either a bare array or `{ traceEvents }`). */
function traceEvents(buffer) {
  const t = JSON.parse(buffer.toString('utf8'));
  return t.traceEvents ?? t;
}

/** `{ pid -> process name }` and `{ "pid:tid" -> thread name }` from the trace's metadata events. */
function names(events) {
  const processes = new Map();
  const threads = new Map();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') processes.set(e.pid, e.args?.name);
    if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name);
  }
  return { processes, threads };
}

/**
 * The outermost top-level tasks of each thread, as `[start, end, cpuMs]` sorted by start (µs timestamps):
 * a task run inside another (a nested run loop) is already in its parent's CPU time.
 */
function tasksByThread(events) {
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !e.cat?.includes('toplevel') || !(e.dur > 0) || typeof e.tdur !== 'number') continue;
    const k = `${e.pid}:${e.tid}`;
    if (!byThread.has(k)) byThread.set(k, []);
    byThread.get(k).push([e.ts, e.ts + e.dur, e.tdur / 1000]);
  }
  for (const [k, list] of byThread) {
    list.sort((a, b) => a[0] - b[0]);
    const outer = [];
    for (const t of list) {
      const last = outer[outer.length - 1];
      if (last && t[0] < last[1]) continue;
      outer.push(t);
    }
    byThread.set(k, outer);
  }
  return byThread;
}

/** CPU ms of `tasks` inside [from, to): a task cut by the window counts in proportion to its overlap. */
function cpuIn(tasks, from, to) {
  let sum = 0;
  for (const [a, b, cpu] of tasks) {
    if (b <= from || a >= to) continue;
    sum += (cpu * (Math.min(to, b) - Math.max(from, a))) / (b - a);
  }
  return sum;
}

/**
 * A trace read for CPU time: the renderer processes (one per page), their main threads, and the page's
 * `performance.mark`s (timestamps in the trace's clock).
 */
export function readTrace(buffer) {
  const events = traceEvents(buffer);
  const { processes, threads } = names(events);
  const tasks = tasksByThread(events);
  const renderers = [...processes].filter(([, n]) => n === 'Renderer').map(([pid]) => pid);
  const mainOf = (pid) => tasks.get([...threads].find(([k, n]) => k.startsWith(`${pid}:`) && n === 'CrRendererMain')?.[0] ?? '') ?? [];
  // Tracing's own work would bill the measurement to the page: its thread, and the IO thread that ships
  // its buffers (at rest that is all the IO thread does).
  const ownThreads = (pid) => [...tasks].filter(([k]) => k.startsWith(`${pid}:`) && !/^(Perfetto|Chrome_ChildIOThread)/.test(threads.get(k) ?? '')).map(([, t]) => t);
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && (e.ph === 'I' || e.ph === 'R' || e.ph === 'n' || e.ph === 'i')).sort((a, b) => a.ts - b.ts);
  return {
    renderers,
    /** Marks named by `test` (a RegExp), with their pid, in time order. */
    marks: (test) => marks.filter((m) => test.test(m.name)),
    mark(name) {
      const m = marks.find((x) => x.name === name);
      if (!m) throw new Error(`no mark ${name} in the trace`);
      return m;
    },
    /** CPU ms of the renderer `pid`'s main thread in [from, to) (µs). */
    mainCpu: (pid, from, to) => cpuIn(mainOf(pid), from, to),
    /** CPU ms of the renderer `pid`'s threads in [from, to) (µs): main, compositor, workers (not tracing's). */
    processCpu: (pid, from, to) => ownThreads(pid).reduce((n, t) => n + cpuIn(t, from, to), 0),
    /** Main-thread CPU ms in each interval between consecutive marks of `marks`. */
    frameCpu(pid, frameMarks) {
      const out = [];
      for (let i = 0; i + 1 < frameMarks.length; i++) out.push(cpuIn(mainOf(pid), frameMarks[i].ts, frameMarks[i + 1].ts));
      return out;
    },
    /** The longest main-thread task's CPU ms in [from, to). */
    longestTask(pid, from, to) {
      return Math.max(
        0,
        ...mainOf(pid)
          .filter(([a, b]) => b > from && a < to)
          .map((t) => t[2]),
      );
    },
    /** Which threads of `pid` were busy in [from, to): `{ name: cpuMs }`, for finding what runs at rest. */
    threadCpu(pid, from, to) {
      const out = {};
      for (const [k, t] of tasks) if (k.startsWith(`${pid}:`)) out[threads.get(k) ?? k] = Math.round(cpuIn(t, from, to) * 100) / 100;
      return out;
    },
  };
}

export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}
