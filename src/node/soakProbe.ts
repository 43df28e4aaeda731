/**
 * The soak benchmark's window into the extension host (bench/soak.bench.mjs), installed only when the
 * host runs with ACP_CHAT_SOAK_PROBE=<dir>, never for users. On SIGUSR2 it reads `<dir>/ask.json`
 * ({ seq, snapshot?, profile?, cpuOnly? }) and answers in `<dir>/answer-<seq>.json` with the process's
 * memory and CPU time, after a full collection (not with cpuOnly) and, when asked, a heap snapshot written
 * to `<dir>/<snapshot>`; `profile: "start"` starts a CPU profile of this process and `profile: "<file>"`
 * writes it (Chrome DevTools' .cpuprofile; bench/firstPaintProfile.mjs). A signal rather than a command:
 * it needs no workbench UI, so it works the same between any two steps.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { Session } from 'node:inspector';
import type { IDisposable } from '../common/util/lifecycle';

/** What one answer holds (the bench reads it as JSON). */
export interface SoakProbeAnswer {
  readonly seq: number;
  readonly pid: number;
  /** After a full garbage collection. */
  readonly heapUsed: number;
  readonly external: number;
  readonly rss: number;
  /** process.cpuUsage(): user + system, in microseconds since the process started. */
  readonly cpuMicros: number;
  readonly snapshot?: string;
}

/** A full GC on demand: `gc` exposed for this process from here on (test-only; the probe is never on for users). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  return typeof gc === 'function' ? () => void gc() : () => undefined;
}

export function soakProbe(dir: string): IDisposable {
  const gc = collector();
  let profiler: Session | undefined;
  const profile = (what: string): void => {
    if (what === 'start') {
      profiler ??= new Session();
      profiler.connect();
      profiler.post('Profiler.enable', () => profiler?.post('Profiler.setSamplingInterval', { interval: 200 }, () => profiler?.post('Profiler.start')));
      return;
    }
    const session = profiler;
    profiler = undefined;
    session?.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(path.join(dir, path.basename(what)), JSON.stringify(result.profile));
      session.disconnect();
    });
  };
  const answer = (): void => {
    const ask: unknown = JSON.parse(readFileSync(path.join(dir, 'ask.json'), 'utf8'));
    const seq = typeof ask === 'object' && ask !== null && 'seq' in ask && typeof ask.seq === 'number' ? ask.seq : -1;
    const snapshotName = typeof ask === 'object' && ask !== null && 'snapshot' in ask && typeof ask.snapshot === 'string' ? path.basename(ask.snapshot) : undefined;
    const profileAsk = typeof ask === 'object' && ask !== null && 'profile' in ask && typeof ask.profile === 'string' ? ask.profile : undefined;
    // `cpuOnly`: no collection, whose own CPU would count in the caller's idle window.
    const cpuOnly = typeof ask === 'object' && ask !== null && 'cpuOnly' in ask && ask.cpuOnly === true;
    if (profileAsk !== undefined) profile(profileAsk);
    else if (!cpuOnly) gc();
    const snapshot = snapshotName !== undefined ? writeHeapSnapshot(path.join(dir, snapshotName)) : undefined;
    const m = process.memoryUsage();
    const cpu = process.cpuUsage();
    const out: SoakProbeAnswer = {
      seq,
      pid: process.pid,
      heapUsed: m.heapUsed,
      external: m.external,
      rss: m.rss,
      cpuMicros: cpu.user + cpu.system,
      ...(snapshot !== undefined ? { snapshot: path.basename(snapshot) } : {}),
    };
    // Written whole, then renamed: the bench never reads half an answer.
    const file = path.join(dir, `answer-${seq}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(out));
    renameSync(`${file}.tmp`, file);
  };
  const onSignal = (): void => {
    try {
      answer();
    } catch (e) {
      writeFileSync(path.join(dir, 'probe-error.txt'), e instanceof Error ? (e.stack ?? e.message) : String(e));
    }
  };
  process.on('SIGUSR2', onSignal);
  // Said once, so the bench knows which process to signal (the extension host) and that the probe is on.
  writeFileSync(path.join(dir, `ready-${process.pid}.json`), JSON.stringify({ pid: process.pid }));
  return { dispose: () => void process.off('SIGUSR2', onSignal) };
}
