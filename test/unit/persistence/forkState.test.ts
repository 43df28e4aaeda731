// A fork shows what the chat showed: the fork's chat state carries the session's plan, usage and title,
// the terminal views its tool cards name, and the Changes summaries moved to the fork's own entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore, type Direction } from '../../../src/common/store';
import { forkChatState } from '../../../src/common/chats/chatState';
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
      { id: 'c1', sessionId: 's1', afterKey: last.key, ended: true, files: [{ path: '/ws/a.txt', oldText: 'a', agentText: 'b', source: 'write', state: 'pending', note: null, blocked: null, added: 1, removed: 1 }] },
      { id: 'c2', sessionId: 'other', afterKey: null, ended: true, files: [{ path: '/ws/b.txt', oldText: null, agentText: 'x', source: 'write', state: 'kept', note: null, blocked: null, added: 1, removed: 0 }] },
    ],
  });

  const withoutChanges = forkChatState({ store }, 's1', 'f1');
  assert.equal(withoutChanges.store.changes(), undefined, 'no Changes: none recorded');
  store.record({ event: 'changes', saved: changes });
  store.record({ event: 'notice', sessionId: 's1', notice: { severity: 'warning', title: 'about the source' } });
  const fork = forkChatState({ store }, 's1', 'f1');
  assert.deepEqual(fork.store.sessions().map((s) => s.sessionId), ['f1'], 'only the fork’s session');
  const f = fork.store.session('f1')!;
  assert.deepEqual(f.entries.map((e) => e.kind), source.entries.map((e) => e.kind), 'the shared history');
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
