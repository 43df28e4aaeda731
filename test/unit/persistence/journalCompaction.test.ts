// A long streamed turn survives a reload whole: the extension snapshots every 2,000 journal records
// while messages keep arriving in batches (one batch per stdout read), and no record may be lost to
// a compaction racing the writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { textOf, type Direction, type MessageStore } from '../../../src/common/store';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { chunk, ok, req } from '../store/helpers';

const word = (i: number) => `w${String(i).padStart(6, '0')} `;

/** A turn of `n` chunks of one agent message, ending with ENDMARK and the prompt's answer. */
function turn(n: number): [Direction, unknown][] {
  const wire: [Direction, unknown][] = [
    ['client->agent', req(1, AgentMethods.sessionNew, { cwd: '/ws', mcpServers: [] })],
    ['agent->client', ok(1, { sessionId: 's' })],
    ['client->agent', req(2, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'flood' }] })],
  ];
  for (let i = 0; i < n; i++) wire.push(['agent->client', chunk('s', 'agent_message_chunk', word(i), 'm1')]);
  wire.push(['agent->client', chunk('s', 'agent_message_chunk', 'ENDMARK', 'm1')]);
  wire.push(['agent->client', ok(2, { stopReason: 'end_turn' })]);
  return wire;
}

const answer = (s: MessageStore) =>
  s
    .session('s')
    ?.entries.filter((e) => e.kind === 'agent_message')
    .map((e) => (e.kind === 'tool_call' || e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction' ? '' : textOf(e.content)))
    .join('');
const turnOpen = (s: MessageStore) => s.toJSON().pending['client->agent'].length > 0;

/** Feeds `wire` the way the extension does: batches of `batch` messages, the event loop turning between reads. */
async function stream(n: number, batch: number): Promise<{ live: MessageStore; restored: MessageStore; logs: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'compaction-'));
  try {
    const logs: string[] = [];
    const p1 = await FilePersistence.create(dir, (m) => logs.push(m));
    const live = p1.restore('chat', () => undefined).store;
    await p1.flush();
    const wire = turn(n);
    for (let i = 0; i < wire.length; i += batch) {
      wire.slice(i, i + batch).forEach(([d, m], j) => p1.append('chat', d, m, live.ingest(d, m, i + j + 1), i + j + 1));
      await new Promise((r) => setImmediate(r));
    }
    await p1.close(); // the window closes: everything written, the chat's lock let go
    const p2 = await FilePersistence.create(dir, (m) => logs.push(m));
    assert.ok((await p2.prepare('chat')).ok, 'the reloaded window takes the chat');
    const restored = p2.restore('chat', (m) => logs.push(m)).store;
    return { live, restored, logs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('5,000 chunks in batches with compactions: nothing is lost on reload', async () => {
  const { live, restored, logs } = await stream(5000, 7);
  assert.deepEqual(logs, []);
  assert.equal(answer(restored), answer(live));
});

test('a 20,000-chunk turn reloads with the whole answer and the turn ended', async () => {
  const { live, restored, logs } = await stream(20_000, 13);
  assert.deepEqual(logs, []);
  const text = answer(restored) ?? '';
  assert.ok(text.endsWith(`${word(19_999)}ENDMARK`), `the answer ends with …${text.slice(-40)}`);
  assert.equal(text, answer(live));
  assert.equal(turnOpen(live), false);
  assert.equal(turnOpen(restored), false, 'the prompt is answered after the reload too');
});
