// Text chunks joined in the store's ingest (src/common/store/chunkRun.ts): a store fed with `merge` must end
// exactly where the reducer applied chunk by chunk ends (entries, stats, bookkeeping, diagnostics), whatever
// the sequence, the reads in between and the ends of reads; its deltas must describe that state; and a run
// of one message's chunks must cost one step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MessageStore, textOf, type Direction, type Entry, type StoreDelta } from '../../../src/common/store';
import { checkMessage, type CheckedMessage } from '../../../src/common/jsonrpc/rpc';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { chunk, ok, req, update } from './helpers';

type Op =
  | { op: 'chunk'; session: 's' | 't'; kind: string; id: string | null; text: string }
  | { op: 'annotated' | 'tool'; session: 's' | 't' }
  | { op: 'prompt' | 'load' | 'loaded' | 'read' | 'endOfRead' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      op: fc.constant('chunk' as const),
      session: fc.constantFrom('s' as const, 't' as const),
      kind: fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'),
      id: fc.option(fc.constantFrom('a', 'b'), { nil: null }),
      text: fc.constantFrom('', 'x', 'yz', 'é', '\n'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('annotated' as const, 'tool' as const), session: fc.constantFrom('s' as const, 't' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('prompt' as const, 'load' as const, 'loaded' as const, 'read' as const, 'endOfRead' as const) }) },
);

/** The wire messages of one op (none for the merged store's reads and ends of reads). */
function messages(o: Op, i: number): [Direction, unknown][] {
  switch (o.op) {
    case 'chunk':
      return [['agent->client', chunk(o.session, o.kind, o.text, o.id ?? undefined)]];
    case 'annotated':
      // Not a plain text chunk: the zod path, which ends a run.
      return [['agent->client', update(o.session, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'an', annotations: { priority: 1 } } })]];
    case 'tool':
      return [['agent->client', update(o.session, { sessionUpdate: 'tool_call', toolCallId: `tc${i}`, title: 'Read' })]];
    case 'prompt':
      return [['client->agent', req(`p${i}`, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'xyz' }] })]];
    case 'load':
      return [['client->agent', req('load', AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] })]];
    case 'loaded':
      return [['agent->client', ok('load', {})]];
    default:
      return [];
  }
}

function opened(version: number): MessageStore {
  const store = new MessageStore({
    newKey: (() => {
      let n = 0;
      return () => `key-${n++}`;
    })(),
    now: () => 1000,
  });
  const setup: [Direction, unknown][] = [
    ['client->agent', req(0, AgentMethods.initialize, { protocolVersion: version })],
    ['agent->client', ok(0, { protocolVersion: version })],
    ['client->agent', req(1, AgentMethods.sessionNew, { cwd: '/ws', mcpServers: [] })],
    ['agent->client', ok(1, { sessionId: 's' })],
    ['client->agent', req(2, AgentMethods.sessionNew, { cwd: '/ws', mcpServers: [] })],
    ['agent->client', ok(2, { sessionId: 't' })],
  ];
  for (const [dir, msg] of setup) store.ingest(dir, msg);
  return store;
}

const checked = (msg: unknown): CheckedMessage => {
  const c = checkMessage(msg);
  assert.ok(c.ok);
  return c;
};

const messageText = (e: Entry | undefined): string | undefined =>
  e?.kind === 'agent_message' || e?.kind === 'agent_thought' || e?.kind === 'user_message' ? textOf(e.content) : undefined;

/** Each delta's entry as the view would hold it, by key; and every text append must be exactly what changed. */
function viewOf(deltas: readonly StoreDelta[]): Map<string, Entry> {
  const view = new Map<string, Entry>();
  for (const d of deltas) {
    if (d.type !== 'entryInserted' && d.type !== 'entryUpdated') continue;
    if (d.type === 'entryUpdated' && d.appendedText !== undefined) assert.equal(messageText(d.entry), messageText(d.previous) + d.appendedText);
    view.set(d.entry.key, d.entry);
  }
  return view;
}

test('merged chunks leave the store exactly as the reducer applied chunk by chunk, with deltas that say so', () => {
  fc.assert(
    fc.property(fc.constantFrom(1, 2), fc.array(opArb, { maxLength: 60 }), (version, ops) => {
      const plain = opened(version);
      const merged = opened(version);
      const deltas: StoreDelta[] = [];
      let line = 100;
      ops.forEach((o, i) => {
        if (o.op === 'read') {
          // Whoever reads between two messages sees the store current (a run is applied first).
          assert.deepEqual(merged.session('s'), plain.session('s'));
          return;
        }
        if (o.op === 'endOfRead') return void deltas.push(...merged.settle());
        for (const [dir, msg] of messages(o, i)) {
          line++;
          plain.ingestChecked(dir, checked(msg), line);
          deltas.push(...merged.ingestChecked(dir, checked(msg), line, true));
        }
      });
      deltas.push(...merged.settle());
      assert.equal(merged.holding, false);
      assert.deepEqual(merged.toJSON(), plain.toJSON());
      const view = viewOf(deltas);
      for (const s of merged.sessions()) for (const e of s.entries) assert.deepEqual(view.get(e.key), e);
    }),
    { numRuns: 400 },
  );
});

test('one read of one message’s chunks is one store step: one delta, every chunk counted with its line', () => {
  const store = opened(1);
  const texts = Array.from({ length: 100 }, (_, i) => `w${i} `);
  const first = store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'Hi ', 'm')), 1, true);
  assert.deepEqual(
    first.map((d) => d.type),
    ['entryInserted'],
    'the first chunk opens the message at once',
  );
  texts.forEach((t, i) => assert.deepEqual(store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', t, 'm')), i + 2, true), []));
  assert.equal(store.holding, true);
  const settled = store.settle();
  assert.equal(settled.length, 1);
  const d = settled[0];
  assert.ok(d?.type === 'entryUpdated');
  assert.equal(d.appendedText, texts.join(''));
  assert.equal(messageText(d.entry), 'Hi ' + texts.join(''));
  assert.equal(d.entry.stats.chunks, 101);
  assert.deepEqual(d.entry.stats.lines, [[1, 101]]);
  assert.deepEqual(store.settle(), []);
});

test('another message applies the held run first, and its own changes follow', () => {
  const store = opened(1);
  store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'a', 'm')), 1, true);
  store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'b', 'm')), 2, true);
  const next = store.ingestChecked('agent->client', checked(update('s', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' })), 3, true);
  assert.deepEqual(
    next.map((d) => d.type),
    ['entryUpdated', 'entryInserted'],
  );
  assert.equal(next[0]?.type === 'entryUpdated' && next[0].appendedText, 'b');
  // After the tool call, 'm' goes on by its id (not the open entry, a run after it); another id opens its own entry.
  store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'c', 'm')), 4, true);
  store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'd', 'n')), 5, true);
  assert.deepEqual(
    store.session('s')?.entries.map((e) => messageText(e) ?? e.kind),
    ['abc', 'tool_call', 'd'],
  );
});

test('a read of the store between messages applies the held run; its deltas come with the next step', () => {
  const store = opened(1);
  store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'a', 'm')), 1, true);
  store.ingestChecked('agent->client', checked(chunk('s', 'agent_message_chunk', 'b', 'm')), 2, true);
  assert.equal(messageText(store.session('s')?.entries[0]), 'ab');
  const next = store.ingestChecked('client->agent', checked({ jsonrpc: '2.0', method: AgentMethods.sessionCancel, params: { sessionId: 's' } }), 3, true);
  assert.equal(next[0]?.type === 'entryUpdated' && next[0].appendedText, 'b');
});
