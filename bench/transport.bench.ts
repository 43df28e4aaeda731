// NDJSON transport throughput. Figures are ratios against a baseline measured in the same run:
// splitting the same bytes on "\n" and JSON.parse-ing each line (the least any reader must do).
//   transport.readerOverParse  — NdjsonMessageReader (chunked input, envelope check, tap) / baseline
//   transport.writerOverStringify — NdjsonMessageWriter (every message written into a stream, and the
//                                   writes awaited) / JSON.stringify, on what a client writes: the
//                                   client->agent messages of the recorded real agents (initialize,
//                                   session/new, prompts, permission answers, file reads, ...), cycled
//                                   to 50,000 messages
//   transport.encodeOverStringify — the least a writer must do: JSON.stringify each message and encode it
//                                   as UTF-8 into one preallocated buffer / JSON.stringify (the floor of
//                                   the ratio above: a pipe takes bytes, not strings)
//   transport.writerOverEncode    — the writer / that floor: what the writer adds to the least it must do
//   transport.writerOverStringifyAgentChunks — the writer on the reader's messages (streamed chunks with
//                                   non-ASCII text, which V8 holds as two-byte strings, slower to encode:
//                                   the floor alone is ~1.4x JSON.stringify there), for scale
// All in CPU time (see cpuMs), in 80 interleaved rounds (bench/lib/rounds.ts): each ratio is the median of
// its per-round ratios, with their spread.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { NdjsonMessageReader } from '../src/node/transport/ndjson';
import { NdjsonMessageWriter } from '../src/node/transport/ndjsonWriter';
import { cpuMs, interleavedRounds, median, ratioFigure } from './lib/rounds';

const N = 50_000;
const msgs = Array.from({ length: N }, (_, i) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: `chunk ${i} héllo ✅` } } },
}));
const transcripts = path.join(__dirname, '../test/fixtures/transcripts');
const sent = readdirSync(transcripts)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .flatMap((f) => readFileSync(path.join(transcripts, f), 'utf8').split('\n').filter(Boolean))
  .map((l) => JSON.parse(l) as { dir?: string; msg: object })
  .filter((r) => r.dir === 'client->agent')
  .map((r) => r.msg);
if (sent.length === 0) throw new Error('no client->agent messages in the recorded transcripts');
// Copies, so no two entries share an object (as 50,000 messages written one after another would not).
const written = Array.from({ length: N }, (_, i) => structuredClone(sent[i % sent.length]) as object);
const bytes = Buffer.from(msgs.map((m) => JSON.stringify(m)).join('\n') + '\n');
// Real pipes deliver ~64 KiB chunks that cut lines anywhere.
const chunks: Buffer[] = [];
for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));

function baselineParse(): number {
  const t = cpuMs();
  let n = 0;
  for (const line of bytes.toString('utf8').split('\n')) if (line) (JSON.parse(line) as unknown) && n++;
  if (n !== N) throw new Error('baseline miscounted');
  return cpuMs() - t;
}

async function reader(): Promise<number> {
  const input = new PassThrough();
  let n = 0;
  const r = new NdjsonMessageReader(input, { tap: () => undefined });
  const done = new Promise<void>((resolve) => r.onClose(() => resolve()));
  const t = cpuMs();
  r.listen(() => n++);
  for (const c of chunks) input.write(c);
  input.end();
  await done;
  if (n !== N) throw new Error(`reader delivered ${n}`);
  return cpuMs() - t;
}

function baselineStringify(of: readonly object[]): number {
  const t = cpuMs();
  let len = 0;
  for (const m of of) len += (JSON.stringify(m) + '\n').length;
  if (len === 0) throw new Error('empty');
  return cpuMs() - t;
}

const writtenBytes = written.reduce((n: number, m) => n + Buffer.byteLength(JSON.stringify(m)) + 1, 0);
function baselineEncode(): number {
  const out = Buffer.allocUnsafe(writtenBytes);
  const t = cpuMs();
  let at = 0;
  for (const m of written) {
    at += out.write(JSON.stringify(m), at, 'utf8');
    out[at++] = 0x0a;
  }
  if (at !== writtenBytes) throw new Error(`encoded ${at} of ${writtenBytes} bytes`);
  return cpuMs() - t;
}

async function writer(of: readonly object[]): Promise<number> {
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  const w = new NdjsonMessageWriter(sink);
  const t = cpuMs();
  // Writes settle in order, so the last one's promise settles after every other (no Promise.all over
  // 50,000 promises: that would be the bench's cost, a tenth of the writer's).
  let last: Promise<void> = Promise.resolve();
  for (const m of of) last = w.write(m as Parameters<NdjsonMessageWriter['write']>[0]);
  await last;
  return cpuMs() - t;
}

async function main(): Promise<void> {
  // Rounds of 20-70 ms each: on a shared 2-core virtual machine, CPU time too grows with the host's load
  // (time the hypervisor takes is billed to the running thread), so many rounds, each ratio within one.
  const t = await interleavedRounds(80, {
    parse: baselineParse,
    reader,
    stringify: () => baselineStringify(written),
    encode: baselineEncode,
    writer: () => writer(written),
    stringifyChunks: () => baselineStringify(msgs),
    writerChunks: () => writer(msgs),
  });
  const figures = {
    ...ratioFigure('transport.readerOverParse', t.reader, t.parse, 2),
    ...ratioFigure('transport.writerOverStringify', t.writer, t.stringify, 2),
    'transport.writerOverStringify.goal': '<= 1.5',
    ...ratioFigure('transport.writerOverEncode', t.writer, t.encode, 2),
    ...ratioFigure('transport.encodeOverStringify', t.encode, t.stringify, 2),
    ...ratioFigure('transport.writerOverStringifyAgentChunks', t.writerChunks, t.stringifyChunks, 2),
    'transport.readerMessagesPerSecond': Math.round(N / (median(t.reader) / 1000)),
  };
  const ms = (xs: number[]) => median(xs).toFixed(1);
  console.log(
    `median per round: reader ${ms(t.reader)} ms vs parse ${ms(t.parse)} ms; writer ${ms(t.writer)} ms vs stringify ${ms(t.stringify)} ms, stringify + UTF-8 encode ${ms(t.encode)} ms (${N} messages; ${sent.length} recorded ones cycled for the writer)`,
  );
  console.log(JSON.stringify(figures));
}

void main();
