// End to end, agent stdout to serialised webview posts (issue 14). A flood agent (bench/fixtures/
// floodAgent.mjs) runs as a real child process and streams CHUNKS agent_message_chunk notifications;
// two clients drain it over the same kind of pipes, alternately:
//   baseline — split lines + JSON.parse + answer the three requests (the least any client must do);
//   pipeline — what the chat panel runs: AcpClient (transport) -> tap -> MessageStore.ingest ->
//              panelDeltasFor -> PatchBatcher (a flush every 16 ms frame) -> JSON.stringify of each post,
//              bundled as it ships (lib/shipped.ts), not as tsx runs it module by module.
// Figures: e2e.ratioToBaseline (baseline time / pipeline time, goal >= 0.85), the pipeline's
// retained heap after GC per text byte, and the CLI's peak resident memory for a 1,000,000-chunk turn
// (`cli.js run` against the same agent, measured by /usr/bin/time when it is installed).
// Through the CLI (e2e.cliRatioToBaseline, goal >= 0.6): the same turn drained by processes of their own over
// real pipes, alternately in interleaved rounds: the baseline client (fixtures/baselineClient.mjs: split +
// JSON.parse, spawning the agent itself) against `cli.js run` (the extension's client code, printing the
// transcript), each timed from its spawn to its exit.
// The baseline is bound by the flood agent's own speed (both run at once on the machine's cores), so
// the ratio also says how much of the agent's pace the pipeline keeps up with.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FLOOD_AGENT as AGENT, floodEnv as agentEnv } from './lib/pipeline';
import type * as Pipeline from './lib/pipeline';
import { interleavedRounds, median, ratioFigure, round } from './lib/rounds';
import { shipped } from './lib/shipped';

const CHUNKS = 300_000;
/** Interleaved rounds of baseline and pipeline (BENCH_E2E_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_E2E_ROUNDS ?? 9);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
/** The pipeline as it ships (bundled, lib/shipped.ts); the agent's path is passed from here, not the bundle's. */
const { runPipeline } = shipped<typeof Pipeline>('bench/lib/pipeline.ts');

async function baseline(): Promise<number> {
  const t = performance.now();
  const child = spawn(process.execPath, [AGENT], { env: agentEnv(CHUNKS), stdio: ['pipe', 'pipe', 'inherit'] });
  const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
  let rest = '';
  let n = 0;
  await new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) {
        const m = JSON.parse(l) as { id?: number; method?: string };
        if (m.method) n++;
        else if (m.id === 1) send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/', mcpServers: [] } });
        else if (m.id === 2) send({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: 'flood', prompt: [{ type: 'text', text: 'go' }] } });
        else if (m.id === 3) resolve();
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
  });
  const ms = performance.now() - t;
  child.kill();
  if (n !== CHUNKS) throw new Error(`baseline saw ${n} chunks`);
  return ms;
}

async function pipeline(): Promise<{ ms: number; posted: number; retained: number; textBytes: number }> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const { ms, posted, store, sessionId } = await runPipeline(CHUNKS, { agent: { script: AGENT, env: agentEnv(CHUNKS) } });
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  const entries = store.session(sessionId)?.entries ?? [];
  const textBytes = entries.reduce((n, e) => n + (e.kind === 'tool_call' ? 0 : e.stats.bytes), 0);
  if (entries.length !== 2) throw new Error(`pipeline kept ${entries.length} entries`);
  // Keep the store alive until measured.
  if (!store.session(sessionId)) throw new Error('unreachable');
  return { ms, posted, retained, textBytes };
}

/** Wall ms of one process run to its exit (it must exit 0), stdout discarded. */
function processMs(args: string[]): Promise<number> {
  const t = performance.now();
  const child = spawn(process.execPath, args, { env: agentEnv(CHUNKS), stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`${args.join(' ')} exited with ${code}`)))));
}

/** Peak resident set of `cli.js run` draining a 1,000,000-chunk turn, in MB (null without /usr/bin/time or a build). */
function cliPeakMb(): number | null {
  const cli = path.join(__dirname, '../dist/cli.js');
  if (!existsSync('/usr/bin/time') || !existsSync(cli)) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, cli, 'run', '--grace', '0', '--timeout', '600', '--prompt', 'go', '--', process.execPath, AGENT], {
    env: agentEnv(1_000_000),
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const kb = Number(r.stderr.trim().split('\n').pop());
  if (r.status !== 0 || !Number.isFinite(kb)) throw new Error(`cli run failed (${r.status}): ${r.stderr.slice(-500)}`);
  return Math.round(kb / 1024);
}

async function main(): Promise<void> {
  await pipeline(); // warm up
  let last = { ms: 0, posted: 0, retained: 0, textBytes: 1 };
  // Interleaved rounds (bench/lib/rounds.ts): the figure is the median of the per-round ratios, so load
  // that comes and goes between a baseline and its pipeline run moves one round, not the figure.
  const t = await interleavedRounds(ROUNDS, {
    baseline,
    pipeline: async () => {
      last = await pipeline();
      return last.ms;
    },
  });
  const cli = path.join(__dirname, '../dist/cli.js');
  const c = existsSync(cli)
    ? await interleavedRounds(ROUNDS, {
        baseline: () => processMs([path.join(__dirname, 'fixtures/baselineClient.mjs')]),
        cli: () => processMs([cli, 'run', '--grace', '0', '--timeout', '600', '--prompt', 'go', '--', process.execPath, AGENT]),
      })
    : null;
  const cliMb = cliPeakMb();
  console.log(
    `${CHUNKS} chunks: baseline ${t.baseline.map((x) => x.toFixed(0)).join('/')} ms, pipeline ${t.pipeline.map((x) => x.toFixed(0)).join('/')} ms; ${last.textBytes} text bytes, ${last.posted} bytes posted, ${last.retained} bytes retained; cli peak ${cliMb ?? '?'} MB`,
  );
  console.log(
    c
      ? `through the CLI: baseline client ${c.baseline.map((x) => x.toFixed(0)).join('/')} ms, cli.js run ${c.cli.map((x) => x.toFixed(0)).join('/')} ms`
      : 'through the CLI: no build (dist/cli.js)',
  );
  console.log(
    JSON.stringify({
      ...ratioFigure('e2e.ratioToBaseline', t.baseline, t.pipeline),
      'e2e.ratioToBaseline.goal': '>= 0.85',
      ...(c ? ratioFigure('e2e.cliRatioToBaseline', c.baseline, c.cli) : {}),
      'e2e.cliRatioToBaseline.goal': '>= 0.6',
      'e2e.baselineMs': round(median(t.baseline), 0),
      'e2e.pipelineMs': round(median(t.pipeline), 0),
      'e2e.pipelineRetainedBytesPerTextByte': round(last.retained / last.textBytes),
      'e2e.bytesPostedPerTextByte': round(last.posted / last.textBytes),
      'cli.peakRssMbMillionChunks': cliMb,
      'cli.peakRssMbMillionChunks.goal': '< 200',
    }),
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
