// An agent reached by URL against the same agent over stdio (issue 44 "Speed"): the 300,000-chunk flood
// drained by what the chat panel's host side runs (bench/lib/pipeline.ts: AcpClient -> tap -> store ->
// panel feed -> each post serialised), once with the flood agent as a child process over stdio, once with
// the same flood served over loopback WebSocket (bench/fixtures/floodServer.mjs, a child process too) and
// read through our remote link (src/node/transport/remoteLink.ts: the SDK's WebSocket client opens the
// socket and sends, its text frames are read into the client's byte streams). Each run counts from starting
// the agent's process to the prompt's answer.
//   remote.wsOverStdio — WebSocket throughput / stdio throughput (stdio ms / WebSocket ms), median of the
//                        per-round ratios of interleaved rounds (bench/lib/rounds.ts); goal >= 0.7
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { openRemote } from '../src/node/transport/remoteLink';
import { runPipeline, type FloodLink } from './lib/pipeline';
import { interleavedRounds, median, ratioFigure, round } from './lib/rounds';

const CHUNKS = Number(process.env.BENCH_REMOTE_CHUNKS ?? 300_000);
const ROUNDS = Number(process.env.BENCH_REMOTE_ROUNDS ?? 5);
const SERVER = path.join(__dirname, 'fixtures/floodServer.mjs');

/** Starts the flood server, waits for its port, and opens the remote link to it. */
async function wsFlood(chunks: number): Promise<FloodLink> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, FLOOD_CHUNKS: String(chunks) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (l) => resolve(Number(/^listening (\d+)$/.exec(l)?.[1])));
    child.once('exit', (code) => reject(new Error(`the flood server exited (${code})`)));
  });
  const t = await openRemote(`ws://127.0.0.1:${port}/acp`, {}, () => undefined);
  return {
    input: t.input,
    output: t.output,
    stop: () => {
      t.close();
      child.kill();
    },
  };
}

async function timed(link?: (n: number) => Promise<FloodLink>): Promise<number> {
  const run = await runPipeline(CHUNKS, { link });
  const entries = run.store.session(run.sessionId)?.entries ?? [];
  if (entries.length !== 2) throw new Error(`the pipeline kept ${entries.length} entries`);
  return run.ms;
}

async function main(): Promise<void> {
  await timed(wsFlood); // warm up both paths
  await timed();
  const t = await interleavedRounds(ROUNDS, { stdio: () => timed(), ws: () => timed(wsFlood) });
  console.log(`${CHUNKS} chunks: stdio ${t.stdio.map((x) => x.toFixed(0)).join('/')} ms, WebSocket ${t.ws.map((x) => x.toFixed(0)).join('/')} ms`);
  console.log(
    JSON.stringify({
      ...ratioFigure('remote.wsOverStdio', t.stdio, t.ws),
      'remote.wsOverStdio.goal': '>= 0.7',
      'remote.stdioMs': round(median(t.stdio), 0),
      'remote.wsMs': round(median(t.ws), 0),
    }),
  );
  process.exit(0);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
