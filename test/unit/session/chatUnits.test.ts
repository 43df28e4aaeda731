// The seams of the chat controller's units: the traffic numbers every message and client event once and
// hands each to capture, conformance, store and persistence, each guarded on its own; the connection is
// the only writer of the attached session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, type Direction, type StoreDelta } from '../../../src/common/store';
import { CLIENT_EVENT_NOTE } from '../../../src/common/store/clientEvents';
import { ChatTraffic, type TrafficDeps } from '../../../src/node/chat/chatTraffic';
import { checkMessage } from '../../../src/common/jsonrpc/rpc';

const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }],
  ['agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } }],
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's1' } }],
];
const chunk = (text: string): unknown => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
});

interface Seen {
  captured: [string, number][];
  persisted: number[];
  recorded: string[];
  applied: StoreDelta[][];
  stored: string[][];
  logged: string[];
}

function traffic(store: MessageStore, over: Partial<TrafficDeps> = {}): { traffic: ChatTraffic; seen: Seen } {
  const seen: Seen = { captured: [], persisted: [], recorded: [], applied: [], stored: [], logged: [] };
  const t = new ChatTraffic({
    store,
    sinks: {
      capture: (dir, _msg, seq) => void seen.captured.push([dir, seq]),
      persist: (_dir, _msg, _changes, seq) => void seen.persisted.push(seq),
      recorded: (e) => void seen.recorded.push(e.event),
    },
    log: (level, message) => void seen.logged.push(`${level}: ${message}`),
    ...over,
  });
  t.onAgentStored((keys) => void seen.stored.push([...keys]));
  t.onDidApply((changes) => void seen.applied.push([...changes]));
  return { traffic: t, seen };
}

test('traffic numbers messages after the restored entries, so seqs stay unique across restarts', () => {
  const store = new MessageStore();
  wire.forEach(([d, m], i) => store.ingest(d, m, i + 1));
  store.ingest('agent->client', chunk('hello'), 41);
  store.attach('s1');
  const { traffic: t, seen } = traffic(store);
  t.wire('agent->client', chunk(' again'));
  t.record({ event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'noted' } });
  assert.deepEqual(seen.captured, [
    ['agent->client', 42],
    ['note', 43],
  ]);
  assert.deepEqual(seen.persisted, [42]);
  assert.deepEqual(seen.recorded, ['notice']);
  // The supervisor hears which entries of the attached session (the store's) the store kept.
  assert.deepEqual(seen.stored, [[store.session('s1')?.entries.at(-1)?.key]]);
  assert.equal(seen.applied.length, 2);
});

test('one read of streamed chunks is one store step, shown once the read is over; each line is still captured and saved', async () => {
  const store = new MessageStore();
  const { traffic: t, seen } = traffic(store);
  wire.forEach(([d, m]) => t.wire(d, m));
  store.attach('s1');
  // As the transport's tap hands them on: checked once, one read's lines one after another.
  const tap = (m: unknown) => {
    const c = checkMessage(m);
    assert.ok(c.ok);
    t.wire('agent->client', m, undefined, c);
  };
  tap(chunk('Hello'));
  const shownBefore = seen.applied.length;
  for (let i = 0; i < 50; i++) tap(chunk(` ${i}`));
  assert.equal(seen.applied.length, shownBefore, 'the held chunks are shown once, after the read');
  await Promise.resolve();
  assert.equal(seen.applied.length, shownBefore + 1);
  const [d] = seen.applied.at(-1) ?? [];
  assert.ok(d?.type === 'entryUpdated');
  assert.equal(d.entry.stats.chunks, 51);
  assert.deepEqual(seen.persisted, [1, 2, 3, 4, ...Array.from({ length: 51 }, (_, i) => 5 + i)]);
  assert.equal(seen.captured.length, 55);
  assert.deepEqual(seen.stored.at(-1), [d.entry.key]);
});

test('a failing capture costs neither the store its message nor persistence its record', () => {
  const store = new MessageStore();
  const { traffic: t, seen } = traffic(store, {
    sinks: {
      capture: () => {
        throw new Error('disk full');
      },
      persist: (_d, _m, _c, seq) => void seen.persisted.push(seq),
      recorded: (e) => void seen.recorded.push(e.event),
    },
  });
  wire.forEach(([d, m]) => t.wire(d, m));
  t.wire('agent->client', chunk('kept'));
  t.record({ event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'kept too' } });
  assert.deepEqual(seen.persisted, [1, 2, 3, 4, 5]);
  assert.deepEqual(seen.recorded, ['notice']);
  assert.equal(store.session('s1')?.entries.length, 1);
  assert.equal(store.notices('s1').length, 1);
  assert.ok(
    seen.logged.some((l) => l.startsWith('error: could not capture message 5')),
    seen.logged.join('\n'),
  );
});

test('a failing save costs the store nothing and is logged with the message number', () => {
  const store = new MessageStore();
  const captured: unknown[] = [];
  const { traffic: t, seen } = traffic(store, {
    sinks: {
      capture: (_d, msg) => void captured.push(msg),
      persist: () => {
        throw new Error('read-only');
      },
      recorded: () => {
        throw new Error('read-only');
      },
    },
  });
  wire.forEach(([d, m]) => t.wire(d, m));
  t.record({ event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'shown' } });
  assert.equal(store.notices('s1').length, 1);
  assert.deepEqual(captured.at(-1), { text: CLIENT_EVENT_NOTE, event: { event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'shown' } } });
  assert.ok(seen.logged.includes('error: could not save message 5: read-only'), seen.logged.join('\n'));
});

test('a skipped line is a notice (when a message was lost) and a numbered capture note the tree hears of', () => {
  const store = new MessageStore();
  let noted = 0;
  const { traffic: t, seen } = traffic(store);
  t.onDidNote(() => void noted++);
  wire.forEach(([d, m]) => t.wire(d, m));
  store.attach('s1');
  t.skippedLine('{"jsonrpc":', 'not JSON', true, 'Demo');
  assert.deepEqual(seen.captured.slice(-2), [
    ['note', 5],
    ['note', 6],
  ]);
  assert.equal(store.notices('s1')[0]?.title, 'A message from Demo was skipped: not JSON.');
  assert.equal(noted, 1);
});

test('the connection is the only writer of the attached session (MessageStore.attach)', () => {
  const root = path.resolve(__dirname, '../../..');
  const writers = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .filter((f) =>
      readFileSync(path.join(root, 'src', f), 'utf8')
        .split('\n')
        .some((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /\bstore\.attach\(/.test(line)),
    )
    .map((f) => f.split(path.sep).join('/'))
    .sort();
  // The journal only replays what the connection recorded (restore).
  assert.deepEqual(writers, ['node/chat/chatConnection.ts', 'node/persistence/journal.ts']);
});
