// A fork shows what the chat showed: the fork's chat state carries the session's plan, usage and title,
// the terminal views its tool cards name, and the Changes summaries moved to the fork's own entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore, type Direction } from '../../../src/common/store';
import { forkChatState } from '../../../src/common/chats/chatState';
import { announcementOf, rootOf } from '../../../src/common/store/sessionTree';
import { restoreChanges, savedChanges } from '../../../src/common/changes/persist';

const upd = (update: unknown): [Direction, unknown] => ['agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } }];
const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }],
  ['agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } }],
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's1' } }],
  ['client->agent', { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'build it' }] } }],
  upd({ sessionUpdate: 'plan', entries: [{ content: 'step one', priority: 'high', status: 'completed' }] }),
  upd({ sessionUpdate: 'tool_call', toolCallId: 'tc1', title: 'make', kind: 'execute', status: 'completed', content: [{ type: 'terminal', terminalId: 'term-1' }] }),
  upd({ sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'done' } }),
  upd({ sessionUpdate: 'usage_update', used: 1200, size: 200000 }),
  upd({ sessionUpdate: 'session_info_update', title: 'Building it' }),
  ['agent->client', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }],
  ['client->agent', { jsonrpc: '2.0', id: 3, method: 'session/fork', params: { sessionId: 's1', cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 3, result: { sessionId: 'f1' } }],
];

test('a fork’s chat state holds everything the source session showed', () => {
  const store = new MessageStore();
  wire.forEach(([d, m], i) => store.ingest(d, m, i + 1));
  const source = store.session('s1')!;
  assert.ok(source.plan && source.usage && source.title, 'the source shows a plan, usage and a title');
  const last = source.entries.at(-1)!;
  store.record({ event: 'terminal', sessionId: 's1', terminalId: 'term-1', append: 'built\n', exit: { exitCode: 0, signal: null } });
  const terminals = store.session('s1')!.terminals;
  const changes = savedChanges({
    seq: 2,
    sets: [
      {
        id: 'c1',
        sessionId: 's1',
        afterKey: last.key,
        ended: true,
        files: [{ path: '/ws/a.txt', oldText: 'a', agentText: 'b', source: 'write', state: 'pending', note: null, blocked: null, added: 1, removed: 1 }],
      },
      {
        id: 'c2',
        sessionId: 'other',
        afterKey: null,
        ended: true,
        files: [{ path: '/ws/b.txt', oldText: null, agentText: 'x', source: 'write', state: 'kept', note: null, blocked: null, added: 1, removed: 0 }],
      },
    ],
  });

  const withoutChanges = forkChatState({ store }, 's1', 'f1');
  assert.equal(withoutChanges.store.changes(), undefined, 'no Changes: none recorded');
  store.record({ event: 'changes', saved: changes });
  store.record({ event: 'notice', sessionId: 's1', notice: { severity: 'warning', title: 'about the source' } });
  const fork = forkChatState({ store }, 's1', 'f1');
  assert.deepEqual(
    fork.store.sessions().map((s) => s.sessionId),
    ['f1'],
    'only the fork’s session',
  );
  const f = fork.store.session('f1')!;
  assert.deepEqual(
    f.entries.map((e) => e.kind),
    source.entries.map((e) => e.kind),
    'the shared history',
  );
  assert.deepEqual(f.plan, source.plan);
  assert.deepEqual(f.usage, source.usage);
  assert.equal(f.title, 'Building it (fork)', 'the source’s title, told apart from it (issue 38, item 4)');
  assert.deepEqual(f.terminals, terminals, 'the terminal cards keep their output');
  assert.deepEqual(fork.store.notices('f1'), [], 'the source’s notices stay with it');
  const sets = restoreChanges(fork.store.changes()).state.sets;
  assert.equal(sets.length, 1, 'the source session’s Changes only');
  assert.equal(sets[0]!.sessionId, 'f1');
  assert.equal(sets[0]!.afterKey, f.entries.at(-1)!.key, 'shown after the fork’s copy of the same entry');
  assert.notEqual(sets[0]!.afterKey, last.key);
});

test('a fork carries the subagent sessions of the cards it holds (any depth, entries and keys as they are), not those of cards left behind', () => {
  const on = (sessionId: string, update: unknown): [Direction, unknown] => ['agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } }];
  const store = new MessageStore();
  const lines: [Direction, unknown][] = [
    ...wire.slice(0, 5),
    on('s1', { sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Read notes', state: { state: 'running' } }),
    on('c1', { sessionUpdate: 'agent_message_chunk', messageId: 'c1-a', content: { type: 'text', text: 'reading' } }),
    on('c1', { sessionUpdate: 'subagent_update', sessionId: 'g1', title: 'Look deeper', state: { state: 'idle', stopReason: 'end_turn' } }),
    on('g1', { sessionUpdate: 'agent_message_chunk', messageId: 'g1-a', content: { type: 'text', text: 'deeper' } }),
    on('s1', { sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'end_turn' } }),
    on('s1', { sessionUpdate: 'agent_message_chunk', messageId: 'a2', content: { type: 'text', text: 'and now a second one' } }),
    on('s1', { sessionUpdate: 'subagent_update', sessionId: 'c2', title: 'After the branch point', state: { state: 'idle', stopReason: 'end_turn' } }),
    on('c2', { sessionUpdate: 'agent_message_chunk', messageId: 'c2-a', content: { type: 'text', text: 'later' } }),
    ['agent->client', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }],
    // Forked at the message a2: the card of c2 (after it) stays behind, and so does c2.
    ['client->agent', { jsonrpc: '2.0', id: 3, method: 'session/fork', params: { sessionId: 's1', cwd: '/ws', mcpServers: [], messageId: 'a2' } }],
    ['agent->client', { jsonrpc: '2.0', id: 3, result: { sessionId: 'f1' } }],
  ];
  lines.forEach(([d, m], i) => store.ingest(d, m, i + 1));
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error'),
    [],
  );
  const fork = forkChatState({ store }, 's1', 'f1').store;
  assert.deepEqual(
    fork
      .sessions()
      .map((s) => s.sessionId)
      .sort(),
    ['c1', 'f1', 'g1'],
  );
  const card = fork.session('f1')!.entries.find((e) => e.kind === 'subagent');
  assert.equal(card?.kind === 'subagent' ? card.childSessionId : null, 'c1');
  assert.equal(fork.session('c1')!.parentSessionId, 'f1', "the child hangs under the fork's card");
  assert.equal(fork.session('g1')!.parentSessionId, 'c1', 'and its own child under it');
  for (const id of ['c1', 'g1'])
    assert.deepEqual(
      fork.session(id)!.entries.map((e) => e.key),
      store.session(id)!.entries.map((e) => e.key),
      `${id}: the same entries and keys`,
    );
  // What Open and expand ask of the fork's store: the child is a subagent under the fork's session.
  assert.equal(rootOf(fork, 'g1'), 'f1');
  assert.equal(announcementOf(fork, 'g1')?.title, 'Look deeper');
  // Saved and restored, the tree is the same.
  const again = MessageStore.fromJSON(JSON.parse(JSON.stringify(fork.toJSON()))).store;
  assert.equal(again.session('g1')?.parentSessionId, 'c1');
  assert.equal(again.session('c1')?.parentSessionId, 'f1');
});
