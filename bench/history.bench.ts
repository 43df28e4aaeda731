// History at scale: 1,000 chats of 500 messages each (their search files, the format the chats keep:
// src/common/history/searchLines.ts) and a chat list of 1,000 records, in a scratch folder.
//   history.firstResultsMs        a keystroke's query to its first results (HistoryQuery, ripgrep when found) (goal <= 100)
//   history.fullSearchOverRg      a full search (every hit, checked and unescaped) / `rg -F -i` over the same files,
//                                 rounds interleaved, the median of the per-round ratios with its spread (goal <= 2)
//   history.listOpenMs            the side bar list's first page from the 1,000-record index (goal <= 16, one frame)
//   history.heapIndexOverOneChat  host heap with one open chat and the 1,000-chat index / with one chat and a
//                                 one-chat index (goal <= 1.2)
// Not measured here: window start to first paint with 1,000 chats (the index is read once, the search
// files only when searching; bench/startup.bench.mjs measures the chat's first paint).
// `--short` (or BENCH_HISTORY_CHATS / BENCH_HISTORY_MESSAGES) makes a small history to check the bench itself.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { escapeField, SEARCH_HEADER } from '../src/common/history/searchLines';
import { searchHistory } from '../src/node/history/historySearch';
import { HistoryQuery } from '../src/node/history/historyQuery';
import { ChatIndex, type ChatRecord } from '../src/common/chats/chatIndex';
import { MessageStore } from '../src/common/store';
import { interleavedRounds, ratioFigure } from './lib/rounds';

const short = process.argv.includes('--short');
const CHATS = Number(process.env['BENCH_HISTORY_CHATS'] ?? (short ? 100 : 1000));
const MESSAGES = Number(process.env['BENCH_HISTORY_MESSAGES'] ?? (short ? 100 : 500));
const ROUNDS = short ? 3 : 7;
const WORDS = 'the parser streams tokens while the agent edits files and runs tests in a terminal then explains what changed'.split(' ');

const rg = (() => {
  try {
    execFileSync('rg', ['--version']);
    return 'rg';
  } catch {
    return undefined;
  }
})();

function sentence(i: number, n: number): string {
  const out: string[] = [];
  for (let w = 0; w < n; w++) out.push(WORDS[(i * 7 + w * 13) % WORDS.length]!);
  // One message in 97 mentions the walrus: a query with matches spread over most chats.
  if (i % 97 === 0) out.push('walrus');
  return out.join(' ');
}

function generate(dir: string): ChatRecord[] {
  const records: ChatRecord[] = [];
  for (let c = 0; c < CHATS; c++) {
    const id = `chat-bench-${String(c).padStart(6, '0')}`;
    const record: ChatRecord = {
      id,
      agentId: c % 3 ? 'demo' : 'claude',
      title: `Chat ${c} about ${WORDS[c % WORDS.length]}`,
      sessionId: `s-${c}`,
      createdAt: c,
      updatedAt: Date.now() - c * 60_000,
      folder: c % 2 ? '/work/a' : '/work/b',
      ended: 'finished',
    };
    records.push(record);
    const lines = [`${SEARCH_HEADER}\t${escapeField(JSON.stringify(record))}`];
    for (let m = 0; m < MESSAGES; m++) {
      const kind = m % 5 === 0 ? 'user' : m % 5 === 3 ? 'tool' : 'agent';
      lines.push(`${kind}\t${id}-k${m}\t${escapeField(sentence(c * MESSAGES + m, kind === 'agent' ? 60 : 12))}`);
    }
    writeFileSync(path.join(dir, `${id}.search.txt`), lines.join('\n') + '\n');
  }
  return records;
}

const now = () => performance.now();

function source(dir: string, records: ChatRecord[]) {
  return {
    records: () => records,
    live: () => undefined,
    title: (id: string) => records.find((r) => r.id === id)?.title ?? id,
    agentName: (id: string) => id,
    dir: () => dir,
    rg: () => rg,
    now: () => Date.now(),
  };
}

async function firstResults(dir: string, records: ChatRecord[]): Promise<number> {
  const times: number[] = [];
  let seq = 0;
  for (const text of ['wa', 'wal', 'walr', 'walru', 'walrus', 'tests in', 'explains what']) {
    let first: number | undefined;
    const t = now();
    const q = new HistoryQuery(source(dir, records), (m) => {
      if (m.type === 'results' && m.groups.some((g) => g.hits.length > 0) && first === undefined) first = now() - t;
    });
    await q.run(++seq, text, {});
    if (first !== undefined) times.push(first);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

async function ours(dir: string): Promise<{ ms: number; hits: number }> {
  const t = now();
  let hits = 0;
  await searchHistory({ dir, query: 'walrus', ...(rg !== undefined ? { rg } : {}), onHits: (h) => (hits += h.length) });
  return { ms: now() - t, hits };
}

function plainRg(dir: string): Promise<{ ms: number; lines: number }> {
  const t = now();
  return new Promise((resolve, reject) => {
    const child = spawn(rg ?? 'rg', ['-F', '-i', '--no-config', 'walrus', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (b: Buffer) => {
      for (const x of b) if (x === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', () => resolve({ ms: now() - t, lines }));
  });
}

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function oneChat(): MessageStore {
  const store = new MessageStore();
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } });
  for (let m = 0; m < MESSAGES; m++)
    store.ingest('agent->client', {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', messageId: `m${m}`, content: { type: 'text', text: sentence(m, 60) } } },
    });
  return store;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'history-bench-'));
  try {
    const records = generate(dir);
    const firstMs = await firstResults(dir, records);
    let counts = { hits: 0, lines: 0 };
    await ours(dir); // warm the page cache for both
    // Interleaved rounds (bench/lib/rounds.ts): the figure is the median of the per-round ratios, with its spread.
    const { mine, base } = await interleavedRounds(ROUNDS, {
      mine: async () => {
        const a = await ours(dir);
        counts = { ...counts, hits: a.hits };
        return a.ms;
      },
      base: async () => {
        const b = rg !== undefined ? await plainRg(dir) : { ms: NaN, lines: 0 };
        counts = { ...counts, lines: b.lines };
        return b.ms;
      },
    });
    const t = now();
    const q = new HistoryQuery(source(dir, records), () => undefined);
    await q.run(1, '', {});
    const listMs = now() - t;
    const store = oneChat();
    const one = new ChatIndex({ chats: records.slice(0, 1), focused: [] });
    const h1 = heapAfterGc();
    const big = new ChatIndex({ chats: records.map((r) => ({ ...r })), focused: [] });
    const h2 = heapAfterGc();
    const best = (xs: number[]) => Math.min(...xs);
    const r = (x: number) => Math.round(x * 1000) / 1000;
    console.log(
      `${CHATS} chats × ${MESSAGES} messages; ${rg ? 'ripgrep' : 'no ripgrep: JS reader'}; full search ${mine.map((x) => x.toFixed(0)).join('/')} ms, rg ${base.map((x) => x.toFixed(0)).join('/')} ms (${counts.hits} hits, rg ${counts.lines} lines)`,
    );
    console.log(
      JSON.stringify({
        'history.firstResultsMs': r(firstMs),
        'history.firstResultsMs.goal': '<= 100',
        ...ratioFigure('history.fullSearchOverRg', mine, base),
        'history.fullSearchOverRg.goal': '<= 2',
        'history.fullSearchMs': r(best(mine)),
        'history.rgMs': r(best(base)),
        'history.listOpenMs': r(listMs),
        'history.listOpenMs.goal': '<= 16',
        'history.heapIndexOverOneChat': r(h2 / h1),
        'history.heapIndexOverOneChat.goal': '<= 1.2',
        'history.chats': CHATS,
        'history.messagesPerChat': MESSAGES,
      }),
    );
    void [store, one, big];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
