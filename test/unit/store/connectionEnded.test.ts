/**
 * A connection that went away (the agent exited, or the window that ran it closed) leaves requests nobody
 * can answer: the store marks the permission cards expired and, when the window closed, the running turn
 * interrupted, on their own entries, and forgets the requests so nothing is marked twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { MessageStore, type Direction } from '../../../src/common/store';
import { openedChat } from '../../../src/node/persistence/chatRestore';

const msg = (dir: Direction, m: Record<string, unknown>): [Direction, unknown] => [dir, { jsonrpc: '2.0', ...m }];
const midTurn: [Direction, unknown][] = [
  msg('client->agent', { id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
  msg('agent->client', { id: 0, result: { protocolVersion: 1 } }),
  msg('client->agent', { id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }),
  msg('agent->client', { id: 1, result: { sessionId: 's1' } }),
  msg('client->agent', { id: 2, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'Edit the notes' }] } }),
  msg('agent->client', {
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit notes', kind: 'edit', status: 'pending' } },
  }),
  msg('agent->client', {
    id: 7,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall: { toolCallId: 'c1' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
  }),
];

function storeMidTurn(): MessageStore {
  const store = new MessageStore();
  midTurn.forEach(([d, m], i) => store.ingest(d, m, i + 1));
  return store;
}

const keyOf = (store: MessageStore, kind: string) => store.session('s1')!.entries.find((e) => e.kind === kind)!.key;

test('the window closed mid-turn: the turn is marked interrupted and the permission expired, each on its entry, once', () => {
  const store = storeMidTurn();
  assert.equal(store.hasUnanswered(), true);
  store.record({ event: 'connection_ended', turn: true });
  const notices = store.notices('s1');
  assert.deepEqual(
    notices.map((n) => [n.entryKey, n.title.split(':')[0]]),
    [
      [keyOf(store, 'tool_call'), 'Permission request expired'],
      [keyOf(store, 'user_message'), 'Interrupted'],
    ],
  );
  assert.equal(store.hasUnanswered(), false);
  store.record({ event: 'connection_ended', turn: true });
  assert.equal(store.notices('s1').length, 2, 'nothing marked twice');
});

test('the agent exited mid-permission: only the permission is marked (the recovery supervisor speaks for the turn)', () => {
  const store = storeMidTurn();
  store.record({ event: 'connection_ended', turn: false });
  assert.deepEqual(
    store.notices('s1').map((n) => n.entryKey),
    [keyOf(store, 'tool_call')],
  );
  assert.equal(store.hasUnanswered(), false);
});

test('a permission that was answered, and a turn that ended, are not marked', () => {
  const store = storeMidTurn();
  store.ingest('client->agent', { jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'selected', optionId: 'ok' } } });
  store.ingest('agent->client', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } });
  assert.equal(store.hasUnanswered(), false);
  store.record({ event: 'connection_ended', turn: true });
  assert.deepEqual(store.notices('s1'), []);
});

test('opening a chat saved mid-turn records the marks, and they are saved with the chat', async () => {
  const saved = MessageStore.fromJSON(JSON.parse(JSON.stringify(storeMidTurn().toJSON())) as unknown).store;
  const opened = await openedChat(mkdtempSync(`${tmpdir()}/acp-opened-`), 'chat1', saved);
  assert.ok(opened.events.some((e) => e.event === 'connection_ended' && e.turn));
  const again = MessageStore.fromJSON(JSON.parse(JSON.stringify(saved.toJSON())) as unknown).store;
  assert.deepEqual(
    again.notices('s1').map((n) => n.title.split(':')[0]),
    ['Permission request expired', 'Interrupted'],
  );
  const reopened = await openedChat(mkdtempSync(`${tmpdir()}/acp-opened-`), 'chat1', again);
  assert.ok(!reopened.events.some((e) => e.event === 'connection_ended'), 'a second opening marks nothing more');
});

test("an expired permission's tool call no longer reads pending: its agent will never finish it (issue 38, item 8)", () => {
  const store = storeMidTurn();
  store.record({ event: 'connection_ended', turn: false });
  const call = store.session('s1')!.entries.find((e) => e.kind === 'tool_call');
  assert.equal(call?.kind === 'tool_call' ? call.status : undefined, 'cancelled');
});

test('the interrupted mark is read back from the last prompt (Retry after a reload mid-turn)', async () => {
  const { lastPromptInterrupted } = await import('../../../src/common/store/connectionEndRules');
  const store = storeMidTurn();
  assert.equal(lastPromptInterrupted(store.session('s1')!.entries, store.notices('s1')), false);
  store.record({ event: 'connection_ended', turn: true });
  assert.equal(lastPromptInterrupted(store.session('s1')!.entries, store.notices('s1')), true);
  store.ingest('client->agent', { jsonrpc: '2.0', id: 9, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'go on' }] } });
  assert.equal(lastPromptInterrupted(store.session('s1')!.entries, store.notices('s1')), false, 'a later prompt is not interrupted');
});
