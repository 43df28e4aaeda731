// Terminal output buffering (OutputTail) under a flood. Baseline measured in the same run: copying every
// chunk once (the least any buffer that keeps output must do).
//   terminal.tailOverCopy      — appending 128 MiB in 64 KiB chunks with the client's maximum limit, then
//                                reading the output once / the baseline (stays flat as the stream grows:
//                                the buffer is never copied whole per chunk)
//   terminal.heldOverLimit     — the most bytes held at any point / the limit (memory stays near the limit)
import { MAX_OUTPUT_BYTES, OutputTail } from '../src/node/terminals';

const CHUNK = 64 * 1024;
const TOTAL = 128 * 1024 * 1024;
const chunk = Buffer.alloc(CHUNK, 'x');

function baselineCopy(): number {
  const t = performance.now();
  let n = 0;
  for (let i = 0; i < TOTAL; i += CHUNK) n += Buffer.from(chunk).length;
  if (n !== TOTAL) throw new Error('baseline miscounted');
  return performance.now() - t;
}

function tail(): { ms: number; held: number } {
  const out = new OutputTail(MAX_OUTPUT_BYTES);
  let held = 0;
  const t = performance.now();
  // Each chunk is a fresh buffer, as a pipe delivers it.
  for (let i = 0; i < TOTAL; i += CHUNK) {
    out.append(Buffer.from(chunk));
    held = Math.max(held, out.held);
  }
  const { text, truncated } = out.read();
  if (!truncated || text.length !== MAX_OUTPUT_BYTES) throw new Error(`kept ${text.length} bytes`);
  return { ms: performance.now() - t, held };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base: number[] = [];
const runs: number[] = [];
let held = 0;
for (let i = 0; i < 5; i++) {
  base.push(baselineCopy());
  const r = tail();
  runs.push(r.ms);
  held = Math.max(held, r.held);
}
console.log(`tail ${median(runs).toFixed(1)} ms vs copy ${median(base).toFixed(1)} ms for ${TOTAL / 1024 / 1024} MiB; held at most ${held} bytes (limit ${MAX_OUTPUT_BYTES})`);
console.log(JSON.stringify({ 'terminal.tailOverCopy': +(median(runs) / median(base)).toFixed(2), 'terminal.heldOverLimit': +(held / MAX_OUTPUT_BYTES).toFixed(3) }));
