// Restore in place: the turns from a message on are folded into the session that goes on (foldRules.ts).
// The fold is the store's: made once by the `rewound` client event, saved with the session, kept out of a
// session/load replay's matching, carried on by a later restore, and heard by the panel as a session field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore, type Direction } from '../../../src/common/store';
import type { Entry } from '../../../src/common/store/model';
import { CLIENT_EVENT_NOTE } from '../../../src/common/store/clientEvents';
import { panelDeltasFor } from '../../../src/common/webview/panelDeltas';
import { textOf } from '../../../src/common/store/content';
import { sessionChildren } from '../../../src/common/debug/treeModel';

let id = 100;
const req = (method: string, params: unknown): [Direction, unknown] => ['client->agent', { jsonrpc: '2.0', id: ++id, method, params }];
const res = (result: unknown): [Direction, unknown] => ['agent->client', { jsonrpc: '2.0', id, result }];
const chunk = (sessionId: string, kind: 'user_message_chunk' | 'agent_message_chunk', text: string, messageId?: string): [Direction, unknown] => [
  'agent->client',
  { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: kind, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) } } },
];

function feed(store: MessageStore, lines: [Direction, unknown][]): void {
  for (const [d, m] of lines) store.ingest(d, m);
}

/** A prompt of ours and the agent's answer, as the live client sends and hears them. */
function turn(store: MessageStore, sessionId: string, text: string, answer: string, messageId?: string): void {
  feed(store, [req('session/prompt', { sessionId, prompt: [{ type: 'text', text }], ...(messageId ? { messageId } : {}) })]);
  const promptId = id;
  feed(store, [chunk(sessionId, 'agent_message_chunk', answer)]);
  store.ingest('agent->client', { jsonrpc: '2.0', id: promptId, result: { stopReason: 'end_turn' } });
}

function started(): MessageStore {
  const store = new MessageStore();
  feed(store, [req('initialize', { protocolVersion: 1 }), res({ protocolVersion: 1, agentCapabilities: { loadSession: true } })]);
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's1' })]);
  turn(store, 's1', 'one', 'answer one');
  turn(store, 's1', 'two', 'answer two');
  return store;
}

const texts = (entries: readonly Entry[]) =>
  entries.map((e) => (e.kind === 'tool_call' || e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction' ? e.kind : textOf(e.content)));
const keyOf = (store: MessageStore, sessionId: string, text: string) => store.session(sessionId)!.entries.find((e) => e.kind === 'user_message' && textOf(e.content) === text)!.key;

test('into a new session: the history before the message is copied, the turns from it on copied and folded, once', () => {
  const store = started();
  const two = keyOf(store, 's1', 'two');
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  const changes = store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: two });
  const s2 = store.session('s2')!;
  assert.deepEqual(texts(s2.entries), ['one', 'answer one', 'two', 'answer two']);
  // Copies: keys of their own, the source untouched.
  const s1Keys = new Set(store.session('s1')!.entries.map((e) => e.key));
  assert.ok(s2.entries.every((e) => !s1Keys.has(e.key) && e.provenance === 'fork'));
  assert.deepEqual(s2.folds, [{ first: s2.entries[2]!.key, last: s2.entries[3]!.key, from: { sessionId: 's1', key: two } }]);
  assert.equal(store.session('s1')!.folds, undefined);
  // The panel hears the fold as a session field.
  const panel = panelDeltasFor(changes, 's2', () => store.session('s2')).panel;
  assert.ok(panel.some((p) => p.type === 'panel' && 'folds' in p.fields));
  // The same event again (a journal replayed over a snapshot that has it) changes nothing.
  assert.deepEqual(store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: two }), []);
  assert.equal(store.session('s2')!.entries.length, 4);
});

test('into a fork at the message: the fork holds the history before it, only the later turns are copied and folded', () => {
  const forkAt = new MessageStore();
  feed(forkAt, [req('initialize', { protocolVersion: 1 }), res({ protocolVersion: 1 })]);
  feed(forkAt, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's1' })]);
  feed(forkAt, [req('session/prompt', { sessionId: 's1', prompt: [{ type: 'text', text: 'one' }] })]);
  feed(forkAt, [chunk('s1', 'agent_message_chunk', 'answer one')]);
  feed(forkAt, [chunk('s1', 'user_message_chunk', 'two', 'm2'), chunk('s1', 'agent_message_chunk', 'answer two')]);
  const m2 = forkAt.session('s1')!.entries.find((e) => e.kind === 'user_message' && e.messageId === 'm2')!.key;
  feed(forkAt, [req('session/fork', { sessionId: 's1', cwd: '/ws', mcpServers: [], messageId: 'm2' }), res({ sessionId: 's2' })]);
  assert.deepEqual(texts(forkAt.session('s2')!.entries), ['one', 'answer one']);
  forkAt.record({ event: 'rewound', sessionId: 's2', from: 's1', key: m2 });
  const s2 = forkAt.session('s2')!;
  assert.deepEqual(texts(s2.entries), ['one', 'answer one', 'two', 'answer two']);
  assert.deepEqual(s2.folds, [{ first: s2.entries[2]!.key, last: s2.entries[3]!.key, from: { sessionId: 's1', key: m2 } }]);
});

test('a fold survives save and restore, and a session/load replay matches the new turn, never the folded one', () => {
  const store = started();
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: keyOf(store, 's1', 'two') });
  // The user sends the same words again, and gets another answer.
  turn(store, 's2', 'two', 'another answer');
  const { store: back, diagnostics } = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(back.session('s2')!.folds, store.session('s2')!.folds);
  const before = back.session('s2')!.entries;
  // The agent's own history of s2: the new turn only (it never had the folded one).
  feed(back, [req('session/load', { sessionId: 's2', cwd: '/ws', mcpServers: [] })]);
  const loadId = id;
  feed(back, [chunk('s2', 'user_message_chunk', 'two'), chunk('s2', 'agent_message_chunk', 'another answer')]);
  back.ingest('agent->client', { jsonrpc: '2.0', id: loadId, result: {} });
  const after = back.session('s2')!.entries;
  assert.deepEqual(texts(after), texts(before), 'nothing appended, nothing doubled');
  assert.deepEqual(texts(after), ['one', 'answer one', 'two', 'answer two', 'two', 'another answer']);
  // The replay landed on the new turn (provenance and stats of the folded copies untouched).
  assert.deepEqual(
    after.slice(2, 4).map((e) => e.stats),
    before.slice(2, 4).map((e) => e.stats),
  );
});

test('restoring again carries the earlier fold on, and a capture replays the fold once', () => {
  const store = started();
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: keyOf(store, 's1', 'two') });
  turn(store, 's2', 'three', 'answer three');
  const three = store.session('s2')!.entries.find((e) => e.kind === 'user_message' && textOf(e.content) === 'three')!.key;
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's3' })]);
  store.record({ event: 'rewound', sessionId: 's3', from: 's2', key: three });
  const s3 = store.session('s3')!;
  assert.deepEqual(texts(s3.entries), ['one', 'answer one', 'two', 'answer two', 'three', 'answer three']);
  assert.deepEqual(
    s3.folds!.map((f) => [s3.entries.findIndex((e) => e.key === f.first), s3.entries.findIndex((e) => e.key === f.last), f.from.sessionId]),
    [
      [2, 3, 's1'],
      [4, 5, 's2'],
    ],
  );
  // A capture names the message by place; a store replaying it finds the same entries.
  const capture = new MessageStore();
  feed(capture, [req('initialize', { protocolVersion: 1 }), res({ protocolVersion: 1 })]);
  feed(capture, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's1' })]);
  turn(capture, 's1', 'one', 'answer one');
  turn(capture, 's1', 'two', 'answer two');
  feed(capture, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  const note = { text: CLIENT_EVENT_NOTE, event: { event: 'rewound', sessionId: 's2', from: 's1', key: 'k-recorded' }, places: { 'k-recorded': ['s1', 2] } };
  capture.ingestLine(JSON.stringify({ dir: 'note', msg: note }));
  capture.ingestLine(JSON.stringify({ dir: 'note', msg: note }));
  assert.deepEqual(texts(capture.session('s2')!.entries), ['one', 'answer one', 'two', 'answer two']);
  assert.equal(capture.session('s2')!.folds?.length, 1);
});

test('a message that is gone is a diagnostic, and nothing is folded', () => {
  const store = started();
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  const changes = store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: 'nope' });
  assert.ok(changes.some((c) => c.type === 'diagnostic' && /restore in place/.test(c.diagnostic.message)));
  assert.equal(store.session('s2')!.entries.length, 0);
});

test('the Message Tree shows the fold: a row before the folded entries, naming the message restored to', () => {
  const store = started();
  const two = keyOf(store, 's1', 'two');
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: two });
  const nodes = sessionChildren(store.session('s2')!, []);
  const at = nodes.findIndex((n) => n.type === 'detail' && n.label === 'folded (restore in place)');
  assert.equal(at, 2, 'before the first folded entry');
  const row = nodes[at]!;
  assert.ok(row.type === 'detail' && row.description.startsWith('entries 3–4 (2) · restored to message') && row.description.includes('session s1'));
  assert.equal(nodes[at + 1]?.type === 'entry' && nodes[at + 1]?.id.includes(store.session('s2')!.folds![0]!.first), true);
});

test('the session that goes on keeps the chat’s title: the agent’s as the agent’s, the user’s as the user’s; its own title is not replaced', () => {
  const info = (sessionId: string, title: string): [Direction, unknown] => [
    'agent->client',
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'session_info_update', title } } },
  ];
  const store = started();
  feed(store, [info('s1', 'Fix the flaky test')]);
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's2' })]);
  const changes = store.record({ event: 'rewound', sessionId: 's2', from: 's1', key: keyOf(store, 's1', 'two') });
  assert.equal(store.session('s2')!.title, 'Fix the flaky test');
  assert.equal(store.session('s2')!.userTitle, undefined, 'still the agent’s: its next name replaces it');
  assert.ok(
    panelDeltasFor(changes, 's2', () => store.session('s2')).panel.some((p) => p.type === 'panel' && 'title' in p.fields),
    'the tab hears it',
  );
  feed(store, [info('s2', 'Renamed by the agent')]);
  assert.equal(store.session('s2')!.title, 'Renamed by the agent');

  store.record({ event: 'user_title', sessionId: 's1', title: 'Mine' });
  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's3' })]);
  store.record({ event: 'rewound', sessionId: 's3', from: 's1', key: keyOf(store, 's1', 'one') });
  assert.equal(store.session('s3')!.userTitle, 'Mine');
  feed(store, [info('s3', 'The agent’s name')]);
  assert.equal(store.session('s3')!.title, 'Mine', 'the user’s title wins, as in the session it came from');

  feed(store, [req('session/new', { cwd: '/ws', mcpServers: [] }), res({ sessionId: 's4' }), info('s4', 'Its own')]);
  store.record({ event: 'rewound', sessionId: 's4', from: 's1', key: keyOf(store, 's1', 'one') });
  assert.equal(store.session('s4')!.title, 'Its own');
});
