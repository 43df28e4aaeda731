// session/load replay matching at scale (issue 39): reduce a capture of N shown messages, then the same
// capture followed by a session/load whose replay resends all N (no message ids: matched by alignment).
// The figure is the ratio of the second to the first; near-linear matching keeps it within 2. A third capture
// replays every message in other words (each shown message kept and marked), against the same baseline.
// CPU time of this process (GC included; a collection forced before each reduce, so none pays for the
// garbage of the one before), in interleaved rounds (bench/lib/rounds.ts): each figure is the median of its
// per-round ratios, with their spread.
// Prints one JSON object of named figures as the last stdout line (scripts/bench.mjs collects it).
//   node --import tsx --expose-gc bench/replay.bench.ts [MESSAGES] [ROUNDS]
import { MessageStore } from '../src/common/store';
import { AgentMethods, ClientMethods } from '../src/common/protocol/methods';
import { cpuMs, interleavedRounds, median, ratioFigure, round } from './lib/rounds';

const N = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 7);
const SESSION = 'sess_replay';
const rec = (dir: string, msg: object) => JSON.stringify({ dir, msg: { jsonrpc: '2.0', ...msg } });
const update = (u: object) => rec('agent->client', { method: ClientMethods.sessionUpdate, params: { sessionId: SESSION, update: u } });
const words = (i: number) => `message ${i}: the store matches a replay against what was shown, ${'word '.repeat(i % 7)}in order.`;

function shown(): string[] {
  const out = [
    rec('client->agent', { id: 0, method: AgentMethods.initialize, params: { protocolVersion: 1 } }),
    rec('agent->client', { id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } }),
    rec('client->agent', { id: 1, method: AgentMethods.sessionNew, params: { cwd: '/ws', mcpServers: [] } }),
    rec('agent->client', { id: 1, result: { sessionId: SESSION } }),
  ];
  for (let t = 0; t < N / 2; t++) {
    const id = 10 + t;
    out.push(rec('client->agent', { id, method: AgentMethods.sessionPrompt, params: { sessionId: SESSION, prompt: [{ type: 'text', text: words(2 * t) }] } }));
    out.push(update({ sessionUpdate: 'agent_message_chunk', messageId: `a${t}`, content: { type: 'text', text: words(2 * t + 1) } }));
    out.push(rec('agent->client', { id, result: { stopReason: 'end_turn' } }));
  }
  return out;
}

/**
 * `other`: the replay tells every message in other words after the same start (the agent's history differs
 * from what was shown): each is matched to its shown message, which keeps its text and is marked.
 */
function replay(other: boolean): string[] {
  const told = (i: number) => (other ? words(i).replace('in order.', 'out of order, in other words.') : words(i));
  const id = 10 + N;
  const out = [rec('client->agent', { id, method: AgentMethods.sessionLoad, params: { sessionId: SESSION, cwd: '/ws', mcpServers: [] } })];
  for (let t = 0; t < N / 2; t++) {
    out.push(update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: told(2 * t) } }));
    out.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: told(2 * t + 1) } }));
  }
  out.push(rec('agent->client', { id, result: {} }));
  return out;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** CPU ms to reduce `lines` into a fresh store; `check` sees the store after. */
function reduce(lines: readonly string[], check?: (store: MessageStore) => void): number {
  gc();
  const store = new MessageStore();
  const t0 = cpuMs();
  lines.forEach((l, i) => store.ingestLine(l, i + 1));
  const ms = cpuMs() - t0;
  check?.(store);
  return ms;
}

/** Every shown message matched (none appended); `marked` of them said to differ from their replay. */
const matched = (marked: number) => (store: MessageStore) => {
  const entries = store.session(SESSION)?.entries ?? [];
  const differs = entries.filter((e) => (e.kind === 'user_message' || e.kind === 'agent_message') && e.replayDiffers === true).length;
  if (entries.length !== N || differs !== marked)
    throw new Error(`the replay was not matched: ${entries.length} entries (expected ${N}), ${differs} marked as differing (expected ${marked})`);
};

async function main(): Promise<void> {
  const base = shown();
  const same = [...base, ...replay(false)];
  const other = [...base, ...replay(true)];
  // Warm up every path once (and check what each reduce does).
  reduce(base);
  reduce(same, matched(0));
  reduce(other, matched(N));
  const t = await interleavedRounds(ROUNDS, { shown: () => reduce(base), same: () => reduce(same), other: () => reduce(other) });
  console.log(
    `CPU ms per round: shown ${t.shown.map((x) => x.toFixed(0)).join('/')}, shown + replay ${t.same.map((x) => x.toFixed(0)).join('/')}, shown + replay in other words ${t.other.map((x) => x.toFixed(0)).join('/')}`,
  );
  const figures = {
    'replay.messages': N,
    'replay.reduceShownCpuMs': round(median(t.shown), 0),
    'replay.reduceShownAndReplayCpuMs': round(median(t.same), 0),
    ...ratioFigure('replay.ratioToShown', t.same, t.shown),
    'replay.ratioToShown.goal': '<= 2',
    'replay.reduceShownAndOtherWordsCpuMs': round(median(t.other), 0),
    ...ratioFigure('replay.otherWordsRatioToShown', t.other, t.shown),
    'replay.otherWordsRatioToShown.goal': '<= 2',
  };
  console.log(JSON.stringify(figures));
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
