// session/load replay matching at scale (issue 39): reduce a capture of N shown messages, then the same
// capture followed by a session/load whose replay resends all N (no message ids: matched by alignment).
// The figure is the ratio of the second to the first; near-linear matching keeps it within 2.
// Prints one JSON object of named figures as the last stdout line (scripts/bench.mjs collects it).
//   node --import tsx bench/replay.bench.ts [MESSAGES]
import { MessageStore } from '../src/common/store';
import { AgentMethods, ClientMethods } from '../src/common/protocol/methods';

const N = Number(process.argv[2] ?? 20_000);
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

/** `other`: the replay tells every message in other words (the agent's history differs from what was shown). */
function replay(other: boolean): string[] {
  const told = (i: number) => (other ? `retold ${i}: ${words(i).split('').reverse().join('')}` : words(i));
  const id = 10 + N;
  const out = [rec('client->agent', { id, method: AgentMethods.sessionLoad, params: { sessionId: SESSION, cwd: '/ws', mcpServers: [] } })];
  for (let t = 0; t < N / 2; t++) {
    out.push(update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: told(2 * t) } }));
    out.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: told(2 * t + 1) } }));
  }
  out.push(rec('agent->client', { id, result: {} }));
  return out;
}

function reduce(lines: readonly string[]): { seconds: number; store: MessageStore } {
  const store = new MessageStore();
  const t0 = process.hrtime.bigint();
  lines.forEach((l, i) => store.ingestLine(l, i + 1));
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, store };
}

const base = shown();
const same = [...base, ...replay(false)];
const other = [...base, ...replay(true)];
let bestBase = Infinity;
let bestSame = Infinity;
let bestOther = Infinity;
let entries = 0;
for (let pass = 0; pass < 3; pass++) {
  bestBase = Math.min(bestBase, reduce(base).seconds);
  const r = reduce(same);
  bestSame = Math.min(bestSame, r.seconds);
  entries = r.store.session(SESSION)?.entries.length ?? 0;
  bestOther = Math.min(bestOther, reduce(other).seconds);
}
if (entries !== N) throw new Error(`the replay was not matched: ${entries} entries, expected ${N}`);
const figures = {
  'replay.messages': N,
  'replay.reduceShownSeconds': Number(bestBase.toFixed(3)),
  'replay.reduceShownAndReplaySeconds': Number(bestSame.toFixed(3)),
  'replay.ratioToShown': Number((bestSame / bestBase).toFixed(3)),
  'replay.ratioToShown.goal': '<= 2',
  'replay.reduceShownAndOtherWordsSeconds': Number(bestOther.toFixed(3)),
  'replay.otherWordsRatioToShown': Number((bestOther / bestBase).toFixed(3)),
  'replay.otherWordsRatioToShown.goal': '<= 2',
};
console.log(JSON.stringify(figures));
