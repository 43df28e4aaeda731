import { entryIdentity } from '../../../src/common/debug/treeModel';
// Store behaviour beyond the conformance vectors: change events, stats, echo, cancel, replay
// provenance, v2 prompt ids, modes and config options, diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store';
import { chunk, connected, err, ok, req, update } from './helpers';
import { AgentMethods, ClientMethods } from '../../../src/common/protocol/methods';

test('a text chunk reports appendedText; a non-text block does not', () => {
  const store = connected();
  const first = store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Hel', 'm1'));
  assert.deepEqual(
    first.map((c) => c.type),
    ['entryInserted'],
  );
  const second = store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'lo', 'm1'));
  assert.equal(second.length, 1);
  const c = second[0];
  assert.ok(c && c.type === 'entryUpdated');
  assert.equal(c.appendedText, 'lo');
  assert.equal(c.index, 0);
  const link = store.ingest(
    'agent->client',
    update('s', { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'resource_link', uri: 'file:///a', name: 'a' } }),
  );
  assert.ok(link[0] && link[0].type === 'entryUpdated' && link[0].appendedText === undefined);
  const after = store.ingest('agent->client', chunk('s', 'agent_message_chunk', '!', 'm1'));
  assert.ok(after[0] && after[0].type === 'entryUpdated' && after[0].appendedText === '!');
  const e = store.session('s')?.entries[0];
  assert.ok(e && e.kind === 'agent_message');
  assert.deepEqual(e.content, [
    { type: 'text', text: 'Hello' },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { type: 'text', text: '!' },
  ]);
});

test('entries are immutable values: an update replaces the object, old snapshots keep their content', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'A', 'm1'));
  const before = store.session('s')?.entries[0];
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'B', 'm1'));
  const after = store.session('s')?.entries[0];
  assert.notEqual(before, after);
  assert.ok(
    before &&
      before.kind !== 'tool_call' &&
      before.kind !== 'elicitation' &&
      before.kind !== 'subagent' &&
      before.kind !== 'compaction' &&
      after &&
      after.kind !== 'tool_call' &&
      after.kind !== 'elicitation' &&
      after.kind !== 'subagent' &&
      after.kind !== 'compaction',
  );
  assert.deepEqual(before.content, [{ type: 'text', text: 'A' }]);
  assert.deepEqual(after.content, [{ type: 'text', text: 'AB' }]);
  assert.equal(before.key, after.key);
});

test('stats count chunks, upserts, UTF-8 bytes and run-length encode capture lines', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'é', 'm1'), 10);
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'a', 'm1'), 11);
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'b', 'm2'), 12);
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', '✓', 'm1'), 13);
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'c', 'm1'), 14);
  const e = store.session('s')?.entries[0];
  assert.ok(e);
  assert.equal(e.stats.chunks, 4);
  assert.equal(e.stats.upserts, 0);
  assert.equal(e.stats.bytes, 2 + 1 + 3 + 1);
  assert.deepEqual(e.stats.lines, [
    [10, 11],
    [13, 14],
  ]);
  assert.ok(e.stats.firstSeen < e.stats.lastSeen);
});

test('malformed input is a line-numbered error diagnostic and changes nothing', () => {
  const store = connected();
  const changes = store.ingestLine(
    '{"dir":"agent->client","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","title":"x"}}}}',
    7,
  );
  assert.equal(changes.length, 1);
  const c = changes[0];
  assert.ok(c && c.type === 'diagnostic');
  assert.equal(c.diagnostic.severity, 'error');
  assert.equal(c.diagnostic.line, 7);
  assert.match(c.diagnostic.message, /toolCallId/);
  store.ingestLine('{"dir":"agent->cl', 8);
  store.ingestLine('[1]', 9);
  store.ingestLine('{"dir":"sideways","msg":{}}', 10);
  store.ingestLine('{"dir":"agent->client","msg":{"jsonrpc":"1.0","method":"x"}}', 11);
  assert.deepEqual(
    store.diagnostics().map((d) => [d.severity, d.line]),
    [
      ['error', 7],
      ['error', 8],
      ['error', 9],
      ['error', 10],
      ['error', 11],
    ],
  );
  assert.deepEqual(store.ingestLine('{"dir":"note","text":"spawn"}', 12), []);
  assert.equal(store.session('s')?.entries.length, 0);
});

test('a malformed optional field falls back with a warning; the update applies', () => {
  const store = connected();
  store.ingest(
    'agent->client',
    update('s', {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'T',
      locations: 'nope',
      content: [{ type: 'content', content: { type: 'text', text: 'ok' } }, { type: 'diff' }, { type: 'bogus', x: 1 }],
    }),
  );
  const e = store.session('s')?.entries[0];
  assert.ok(e && e.kind === 'tool_call');
  assert.deepEqual(e.locations, []);
  // A known type with bad fields is skipped; an unknown type is kept whole (the unions are open).
  assert.deepEqual(e.content.slice(1), [{ type: 'unsupported', raw: { type: 'bogus', x: 1 } }]);
  assert.deepEqual(
    store.diagnostics().map((d) => d.severity),
    ['warning', 'warning'],
  );
});

test('the local prompt shows at once; a diverging echo is replaced by the agent text, not shown twice', () => {
  const store = connected();
  const changes = store.ingest('client->agent', req(5, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Fix it' }] }));
  assert.ok(changes.some((c) => c.type === 'entryInserted' && c.entry.provenance === 'local'));
  store.ingest('agent->client', chunk('s', 'user_message_chunk', 'Fix', 'u1'));
  store.ingest('agent->client', chunk('s', 'user_message_chunk', ' that', 'u1'));
  store.ingest('agent->client', ok(5, { stopReason: 'end_turn' }));
  const entries = store.session('s')?.entries ?? [];
  assert.equal(entries.length, 1);
  const e = entries[0];
  assert.ok(e && e.kind === 'user_message');
  assert.equal(e.messageId, 'u1');
  assert.equal(e.provenance, 'local');
  assert.deepEqual(e.content, [{ type: 'text', text: 'Fix that' }]);
});

test('v2: the session/prompt response messageId names the local user message', () => {
  const store = connected(2);
  store.ingest('client->agent', req(5, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Go' }] }));
  store.ingest('agent->client', ok(5, { messageId: 'u7' }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'user_message', messageId: 'u7', content: [{ type: 'text', text: 'Go' }] }));
  const entries = store.session('s')?.entries ?? [];
  assert.equal(entries.length, 1);
  assert.equal(entries[0]?.kind === 'user_message' ? entries[0].messageId : null, 'u7');
  assert.equal(entries[0]?.key, 'key-0');
});

test('v2: user_message arriving before the prompt response still merges into the local prompt', () => {
  const store = connected(2);
  store.ingest('client->agent', req(5, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Go' }] }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'user_message', messageId: 'u7', content: [{ type: 'text', text: 'Go' }] }));
  store.ingest('agent->client', ok(5, { messageId: 'u7' }));
  assert.equal(store.session('s')?.entries.length, 1);
  assert.deepEqual(store.diagnostics(), []);
});

test('session/cancel marks unfinished tool calls cancelled, keeping provenance and history', () => {
  const store = connected();
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'completed' }));
  store.ingest('client->agent', { jsonrpc: '2.0', method: AgentMethods.sessionCancel, params: { sessionId: 's' } });
  const [a, b] = store.session('s')?.entries ?? [];
  assert.ok(a && a.kind === 'tool_call' && b && b.kind === 'tool_call');
  assert.equal(a.status, 'cancelled');
  assert.equal(a.provenance, 'live');
  assert.deepEqual(
    a.statusHistory.map((h) => h.status),
    ['in_progress', 'cancelled'],
  );
  assert.equal(b.status, 'completed');
});

test('a tool call links to the agent message it followed, or to the message its messageId names', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Let me look', 'm1'));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read' }));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Now', 'm2'));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Edit', messageId: 'm1' }));
  const [m1, c1, , c2] = store.session('s')?.entries ?? [];
  assert.ok(c1 && c1.kind === 'tool_call' && c2 && c2.kind === 'tool_call' && m1);
  assert.equal(c1.parentKey, m1.key);
  assert.equal(c2.parentKey, m1.key);
});

test('session/load: matched entries keep key and provenance; unmatched replayed ones are appended as replay', () => {
  const store = connected();
  store.ingest('client->agent', req(5, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Q' }] }));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'A', 'old-id'));
  store.ingest('agent->client', ok(5, { stopReason: 'end_turn' }));
  const keys = store.session('s')?.entries.map((e) => e.key);
  store.ingest('client->agent', req(6, AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', chunk('s', 'user_message_chunk', 'Q', 'new-u'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'A', 'new-a'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'B', 'new-b'));
  store.ingest('agent->client', ok(6, { modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] } }));
  const entries = store.session('s')?.entries ?? [];
  assert.deepEqual(entries.map((e) => e.key).slice(0, 2), keys);
  assert.deepEqual(entries.map(entryIdentity), ['new-u', 'new-a', 'new-b']);
  assert.deepEqual(
    entries.map((e) => e.provenance),
    ['local', 'live', 'replay'],
  );
  assert.equal(store.session('s')?.currentModeId, 'ask');
  // After the load window, the same id appends live again.
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'C', 'new-b'));
  const last = store.session('s')?.entries[2];
  assert.ok(last && last.kind !== 'tool_call' && last.kind !== 'elicitation' && last.kind !== 'subagent' && last.kind !== 'compaction');
  assert.deepEqual(last.content, [{ type: 'text', text: 'BC' }]);
});

test('session/resume replays nothing and keeps the transcript', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'A', 'm1'));
  store.ingest('client->agent', req(6, AgentMethods.sessionResume, { sessionId: 's', cwd: '/ws' }));
  store.ingest('agent->client', ok(6, {}));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'B', 'm1'));
  const e = store.session('s')?.entries[0];
  assert.ok(e && e.kind !== 'tool_call' && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'compaction');
  assert.deepEqual(e.content, [{ type: 'text', text: 'AB' }]);
});

test('a failed session/set_mode does not change the mode; config options come from results and updates', () => {
  const store = connected();
  store.ingest('client->agent', req(7, AgentMethods.sessionSetMode, { sessionId: 's', modeId: 'code' }));
  store.ingest('agent->client', err(7, -32602, 'no such mode'));
  assert.equal(store.session('s')?.currentModeId, null);
  store.ingest('client->agent', req(8, AgentMethods.sessionSetConfigOption, { sessionId: 's', configId: 'model', value: 'b' }));
  store.ingest('agent->client', ok(8, { configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'b', options: [] }] }));
  assert.equal(store.session('s')?.configOptions[0]?.currentValue, 'b');
  store.ingest('agent->client', update('s', { sessionUpdate: 'config_option_update', configOptions: [] }));
  assert.deepEqual(store.session('s')?.configOptions, []);
  store.ingest('agent->client', update('s', { sessionUpdate: 'usage_update', used: 5, size: 100 }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'session_info_update', title: 'T' }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'session_info_update', updatedAt: '2026-01-01T00:00:00Z' }));
  assert.deepEqual(store.session('s')?.usage, { used: 5, size: 100 });
  assert.equal(store.session('s')?.title, 'T');
  store.ingest('agent->client', update('s', { sessionUpdate: 'session_info_update', title: null }));
  assert.equal(store.session('s')?.title, null);
  assert.equal(store.session('s')?.updatedAt, '2026-01-01T00:00:00Z');
});

test('v1 tool_call_update patch keeps rawInput on null; v2 clears it', () => {
  for (const [version, want] of [
    [1, { p: 1 }],
    [2, null],
  ] as const) {
    const store = connected(version);
    store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'T', rawInput: { p: 1 } }));
    store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call_update', toolCallId: 'c', rawInput: null }));
    const e = store.session('s')?.entries[0];
    assert.ok(e && e.kind === 'tool_call');
    assert.deepEqual(e.rawInput, want);
  }
});

test('toJSON/fromJSON keeps everything, including pending requests and the replay window', () => {
  const store = connected();
  store.ingest('client->agent', req(7, AgentMethods.sessionSetMode, { sessionId: 's', modeId: 'code' }));
  store.ingest('client->agent', req(8, AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'A', 'm1'), 3);
  const saved = JSON.parse(JSON.stringify(store.toJSON())) as unknown;
  const { store: back, diagnostics } = MessageStore.fromJSON(saved);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(back.toJSON(), saved);
  back.ingest('agent->client', ok(7, {}));
  back.ingest('agent->client', ok(8, {}));
  assert.equal(back.session('s')?.currentModeId, 'code');
  assert.equal(back.session('s')?.entries[0]?.provenance, 'replay');
});

test('fromJSON is tolerant: bad entries are reported and skipped, keyless entries get a stable key', () => {
  const saved = JSON.parse(JSON.stringify(connected().toJSON())) as { sessions: { entries: unknown[] }[] };
  const s0 = saved.sessions[0];
  assert.ok(s0);
  s0.entries.push(
    { kind: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'kept' }], meta: null },
    { kind: 'agent_message', key: 'x' },
    { kind: 'tool_call', key: 'tc', toolCallId: 'c', title: 'T', toolKind: 'read', status: 'pending', content: [], locations: [], rawInput: null, rawOutput: null },
  );
  const a = MessageStore.fromJSON(saved);
  const b = MessageStore.fromJSON(saved);
  assert.equal(a.diagnostics.length, 1);
  assert.match(a.diagnostics[0]?.message ?? '', /entry 1/);
  const ka = a.store.session('s')?.entries.map((e) => e.key);
  assert.deepEqual(
    ka,
    b.store.session('s')?.entries.map((e) => e.key),
  );
  assert.equal(ka?.length, 2);
  assert.equal(MessageStore.fromJSON({ nope: true }).diagnostics[0]?.severity, 'error');
  assert.equal(MessageStore.fromJSON(null).store.sessions().length, 0);
});

test('request ids of the two directions are separate spaces', () => {
  const store = connected();
  store.ingest('client->agent', req(9, AgentMethods.sessionSetMode, { sessionId: 's', modeId: 'code' }));
  store.ingest('agent->client', req(9, ClientMethods.fsReadTextFile, { sessionId: 's', path: '/a' }));
  store.ingest('client->agent', ok(9, { content: '' })); // answers the agent's request, not set_mode
  assert.equal(store.session('s')?.currentModeId, null);
  store.ingest('agent->client', ok(9, null));
  assert.equal(store.session('s')?.currentModeId, 'code');
});

test('a very long stream keeps text exact (ropes are flattened along the way)', () => {
  const store = connected();
  let want = '';
  for (let i = 0; i < 5000; i++) {
    const t = `${i % 10}`;
    want += t;
    store.ingest('agent->client', chunk('s', 'agent_message_chunk', t, 'm'));
  }
  const e = store.session('s')?.entries[0];
  assert.ok(e && e.kind !== 'tool_call' && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'compaction');
  assert.equal(e.content.length, 1);
  assert.equal(e.content[0]?.type === 'text' ? e.content[0].text : '', want);
  assert.equal(e.stats.chunks, 5000);
});

test('a prompt sent again after the agent never answered it is the entry already shown, not a second copy', () => {
  const store = connected();
  const prompt = (id: number, text: string) => store.ingest('client->agent', req(id, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text }] }));
  prompt(5, 'Fix the bug');
  // The agent died without answering; the same prompt is resent on the next connection.
  prompt(1, 'Fix the bug');
  const users = () => (store.session('s')?.entries ?? []).filter((e) => e.kind === 'user_message');
  assert.equal(users().length, 1);
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Done', 'm1'));
  store.ingest('agent->client', ok(1, { stopReason: 'end_turn' }));
  // Answered, then sent again on purpose: a new turn, a new entry.
  prompt(2, 'Fix the bug');
  assert.equal(users().length, 2);
  // A different prompt after an unanswered one is its own entry.
  prompt(3, 'Something else');
  assert.equal(users().length, 3);
});
