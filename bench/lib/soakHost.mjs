// What the soak benchmark (bench/soak.bench.mjs) reads from outside the workbench: the processes code-server
// started (from /proc, Linux only, as the host stages run), the extension host's open files, its memory and
// CPU through the extension's test-only probe (src/node/soakProbe.ts), and the renderer's heap and DOM
// counters through the Chrome DevTools Protocol.
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { until } from '../../test/helpers/until.mjs';

/** pid -> { ppid, name, cmd } of every process now. */
function processTable() {
  const table = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces: the fields after its last `)`.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ').trim();
      table.set(Number(d), { ppid: Number(fields[1]), name: stat.slice(stat.indexOf('(') + 1, close), cmd });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The processes below `pid` (not itself), each { pid, name, cmd }. */
export function descendants(pid) {
  const table = processTable();
  const out = [];
  const walk = (p) => {
    for (const [child, info] of table) {
      if (info.ppid !== p) continue;
      out.push({ pid: child, ...info });
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** A short, stable name for a process in the report: the script or binary it runs. */
export function processLabel(p) {
  const m = /(extensionHostProcess|ptyHost|fileWatcher|demo-agent\.js|server-main|entry\.js|bootstrap-fork)/.exec(p.cmd);
  if (p.cmd.includes('--type=extensionHost')) return 'extensionHost';
  if (p.cmd.includes('--type=ptyHost')) return 'ptyHost';
  if (p.cmd.includes('--type=fileWatcher')) return 'fileWatcher';
  return m?.[1] ?? p.name;
}

/** How many files, sockets and pipes `pid` has open. */
export function openFiles(pid) {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Each open file of `pid` by kind (socket, pipe, anon_inode:..., or the file's directory), for the report. */
export function openFileKinds(pid) {
  const kinds = {};
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '?';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      // closed meanwhile
    }
    const kind = /^(socket|pipe|anon_inode:[^\]]+)/.exec(target)?.[1] ?? path.dirname(target);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/** The extension-host side of the probe: which host process answers, and asking it. */
export function hostProbe(dir) {
  let seq = 0;
  const seen = new Set();
  return {
    /** The extension host whose probe said ready and was not seen before (a new one after a reload). */
    async next(timeoutMs = 180_000) {
      const pid = await until(
        () => {
          for (const f of readdirSync(dir)) {
            const m = /^ready-(\d+)\.json$/.exec(f);
            if (m && !seen.has(Number(m[1])) && existsSync(`/proc/${m[1]}`)) return Number(m[1]);
          }
          return undefined;
        },
        'a new extension host with the soak probe on',
        timeoutMs,
      );
      seen.add(pid);
      return pid;
    },
    /**
     * Memory after a full GC and CPU time of host `pid`; `snapshot`: a heap snapshot written to dir/snapshot
     * first; `cpuOnly`: no GC (for idle windows); `profile`: 'start' or the file to write the CPU profile to.
     */
    async ask(pid, { snapshot, cpuOnly, profile } = {}) {
      const n = ++seq;
      writeFileSync(path.join(dir, 'ask.json'), JSON.stringify({ seq: n, snapshot, cpuOnly, profile }));
      process.kill(pid, 'SIGUSR2');
      const file = path.join(dir, `answer-${n}.json`);
      await until(
        () => existsSync(file),
        () =>
          `the probe's answer ${n} from extension host ${pid}${existsSync(path.join(dir, 'probe-error.txt')) ? `: ${readFileSync(path.join(dir, 'probe-error.txt'), 'utf8')}` : ''}`,
        120_000,
      );
      return JSON.parse(readFileSync(file, 'utf8'));
    },
  };
}

/**
 * The page's renderer after a full GC: its JS heap (the workbench and the webviews of the same origin share
 * it), and Chromium's DOM counters (documents, nodes, listeners), where a webview that leaks shows too.
 */
export async function rendererMemory(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const dom = await cdp.send('Memory.getDOMCounters');
    return { heapUsed: heap.usedSize, documents: dom.documents, nodes: dom.nodes, listeners: dom.jsEventListeners };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
