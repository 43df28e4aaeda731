// Several chats streaming at once. The host side of the chat panel (bench/lib/pipeline.ts: transport,
// store, panel patches, serialization) drains flood agents, one chat alone and four chats at once, in
// alternating rounds; each agent is its own child process, so this process's CPU time is the host's.
//   multi.fourChatsOverOne  host CPU per chunk with four chats streaming at once / with one chat: what
//                           running chats side by side costs beyond their chunks (goal <= 1.2)
// CPU time, not wall time: four agents and this process share the machine's cores, and the wall time
// would measure the agents' pace. The panels' side of four chats at once (their frames, and the renderer's
// CPU per streamed KB four at once over one) is bench/webviewPanels.bench.mjs.
import { runPipeline } from './lib/pipeline';
import { cpuMs, interleavedRounds, median, ratioFigure, round } from './lib/rounds';

const CHUNKS = 100_000;
const ROUNDS = 5;

/** Host CPU µs per chunk with `chats` chats streaming CHUNKS chunks each at once. */
async function perChunk(chats: number): Promise<number> {
  const t = cpuMs();
  const runs = await Promise.all(Array.from({ length: chats }, () => runPipeline(CHUNKS)));
  const used = cpuMs() - t;
  for (const r of runs) if (r.store.session(r.sessionId)?.entries.length !== 2) throw new Error('a chat lost entries');
  return (used * 1000) / (chats * CHUNKS);
}

async function main(): Promise<void> {
  await perChunk(1); // warm up
  // Interleaved rounds (bench/lib/rounds.ts): the median of the per-round ratios, with their spread.
  const t = await interleavedRounds(ROUNDS, { one: () => perChunk(1), four: () => perChunk(4) });
  console.log(`host CPU per chunk: one chat ${t.one.map((x) => x.toFixed(2)).join('/')} µs, four at once ${t.four.map((x) => x.toFixed(2)).join('/')} µs (${CHUNKS} chunks each)`);
  console.log(
    JSON.stringify({
      ...ratioFigure('multi.fourChatsOverOne', t.four, t.one),
      'multi.fourChatsOverOne.goal': '<= 1.2',
      'multi.oneChatHostCpuUsPerChunk': round(median(t.one)),
      'multi.fourChatsHostCpuUsPerChunk': round(median(t.four)),
    }),
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
