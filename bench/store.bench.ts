// Message-store ingest throughput vs plain JSON.parse of the same capture lines, in the same run.
// Prints one JSON object of named figures as the last stdout line (scripts/bench.mjs collects it).
//   node --import tsx --expose-gc bench/store.bench.ts [LINES]
import { MessageStore } from '../src/common/store';
import { AgentMethods, ClientMethods } from '../src/common/protocol/methods';

const N = Number(process.argv[2] ?? 1_000_000);
const SESSION = 'sess_bench';
const words = ['the ', 'store ', 'appends ', 'chunks ', 'in ', 'constant ', 'time, ', 'naïve ', 'or ', 'not. ', '✓ ', '\n'];

function header(): string[] {
  return [
    JSON.stringify({ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 0, method: AgentMethods.initialize, params: { protocolVersion: 1 } } }),
    JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } } }),
    JSON.stringify({ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: AgentMethods.sessionNew, params: { cwd: '/ws', mcpServers: [] } } }),
    JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: SESSION } } }),
  ];
}

/** Realistic streaming: short text chunks with messageIds, a few long messages, seq/t_ms like real captures. */
function chunkLines(n: number): string[] {
  const out: string[] = new Array(n);
  const perMessage = Math.ceil(n / 8);
  for (let i = 0; i < n; i++) {
    const m = Math.floor(i / perMessage);
    const update = {
      sessionUpdate: m % 4 === 1 ? 'agent_thought_chunk' : 'agent_message_chunk',
      content: { type: 'text', text: words[i % words.length] },
      messageId: `msg_${m}`,
    };
    out[i] = JSON.stringify({
      seq: i + 5,
      t_ms: 1000 + i,
      dir: 'agent->client',
      msg: { jsonrpc: '2.0', method: ClientMethods.sessionUpdate, params: { sessionId: SESSION, update } },
    });
  }
  return out;
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

const lines = chunkLines(N);
const textBytes = lines.reduce((n, l) => {
  const rec: { msg: { params: { update: { content: { text: string } } } } } = JSON.parse(l);
  return n + Buffer.byteLength(rec.msg.params.update.content.text);
}, 0);

const BLOCK = 10_000;

/**
 * One measured pass. The two paths alternate in blocks of BLOCK lines, so load changes on a busy
 * machine hit both alike: plain JSON.parse of a block, then the full store path (ingestLine: parse +
 * validate + reduce) on the same block.
 */
function pass(): { parseSeconds: number; storeSeconds: number; heapBytes: number; store: MessageStore } {
  gc();
  const before = process.memoryUsage().heapUsed;
  let k = 0;
  const store = new MessageStore({ newKey: () => `k${k++}`, now: () => 0 });
  header().forEach((l, i) => store.ingestLine(l, i + 1));
  let parseNs = 0n;
  let storeNs = 0n;
  let sink = 0;
  for (let start = 0; start < lines.length; start += BLOCK) {
    const end = Math.min(lines.length, start + BLOCK);
    const t0 = process.hrtime.bigint();
    for (let i = start; i < end; i++) {
      const rec: unknown = JSON.parse(lines[i] as string);
      if (rec !== null) sink++;
    }
    const t1 = process.hrtime.bigint();
    for (let i = start; i < end; i++) store.ingestLine(lines[i] as string, i + 5);
    const t2 = process.hrtime.bigint();
    parseNs += t1 - t0;
    storeNs += t2 - t1;
  }
  if (sink !== lines.length) throw new Error('unreachable');
  gc();
  const heapBytes = process.memoryUsage().heapUsed - before;
  return { parseSeconds: Number(parseNs) / 1e9, storeSeconds: Number(storeNs) / 1e9, heapBytes, store };
}

// Warm up both paths on a slice, then keep each path's best of two passes.
{
  const warm = new MessageStore();
  header().forEach((l) => warm.ingestLine(l));
  for (let i = 0; i < Math.min(50_000, lines.length); i++) {
    warm.ingestLine(lines[i] as string);
    JSON.parse(lines[i] as string);
  }
}
let bestParse = Infinity;
let bestStore = Infinity;
let heap = 0;
for (let round = 0; round < 2; round++) {
  const r = pass();
  bestParse = Math.min(bestParse, r.parseSeconds);
  bestStore = Math.min(bestStore, r.storeSeconds);
  heap = r.heapBytes;
  const s = r.store.session(SESSION);
  const stored = s ? s.entries.reduce((n, e) => n + (e.kind === 'tool_call' ? 0 : e.stats.bytes), 0) : 0;
  if (stored !== textBytes || r.store.diagnostics().length > 0) throw new Error(`store lost text: ${stored} of ${textBytes} bytes, ${r.store.diagnostics().length} diagnostics`);
}

const figures = {
  'store.chunksPerSecond': Math.round(N / bestStore),
  'store.jsonParseChunksPerSecond': Math.round(N / bestParse),
  'store.ratioToJsonParse': Number((bestParse / bestStore).toFixed(3)),
  'store.bytesPerTextByte': Number((heap / textBytes).toFixed(2)),
  'store.bytesPerTextByte.goal': '<= 3',
};
console.log(`lines: ${N}, text bytes: ${textBytes}`);
console.log(JSON.stringify(figures));
