// Terminal output buffering (OutputTail) under a flood. Baseline measured in the same run: copying every
// chunk once (the least any buffer that keeps output must do).
//   terminal.tailOverCopy      — appending 128 MiB in 64 KiB chunks with the client's maximum limit, then
//                                reading the output once / the baseline (stays flat as the stream grows:
//                                the buffer is never copied whole per chunk)
//   terminal.heldOverLimit     — the most bytes held at any point / the limit (memory stays near the limit)
// CPU time (all of it is this process's work), in interleaved rounds (bench/lib/rounds.ts): the figure is the
// median of the per-round ratios, with their spread.
import { MAX_OUTPUT_BYTES, OutputTail } from '../src/node/terminals';
import { cpuMs, interleavedRounds, median, ratioFigure, round } from './lib/rounds';

const CHUNK = 64 * 1024;
const TOTAL = 128 * 1024 * 1024;
const chunk = Buffer.alloc(CHUNK, 'x');

function baselineCopy(): number {
  const t = cpuMs();
  let n = 0;
  for (let i = 0; i < TOTAL; i += CHUNK) n += Buffer.from(chunk).length;
  if (n !== TOTAL) throw new Error('baseline miscounted');
  return cpuMs() - t;
}

function tail(): { ms: number; held: number } {
  const out = new OutputTail(MAX_OUTPUT_BYTES);
  let held = 0;
  const t = cpuMs();
  // Each chunk is a fresh buffer, as a pipe delivers it.
  for (let i = 0; i < TOTAL; i += CHUNK) {
    out.append(Buffer.from(chunk));
    held = Math.max(held, out.held);
  }
  const { text, truncated } = out.read();
  if (!truncated || text.length !== MAX_OUTPUT_BYTES) throw new Error(`kept ${text.length} bytes`);
  return { ms: cpuMs() - t, held };
}

let held = 0;
void interleavedRounds(5, {
  copy: baselineCopy,
  tail: () => {
    const r = tail();
    held = Math.max(held, r.held);
    return r.ms;
  },
}).then((t) => {
  console.log(
    `tail ${median(t.tail).toFixed(1)} ms vs copy ${median(t.copy).toFixed(1)} ms for ${TOTAL / 1024 / 1024} MiB; held at most ${held} bytes (limit ${MAX_OUTPUT_BYTES})`,
  );
  console.log(JSON.stringify({ ...ratioFigure('terminal.tailOverCopy', t.tail, t.copy, 2), 'terminal.heldOverLimit': round(held / MAX_OUTPUT_BYTES) }));
});
