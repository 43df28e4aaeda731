import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageStore } from '../../../src/common/store/store';
import { toViewEntry } from '../../../src/common/webview/viewEntry';
import { decodeEntry, encodeEntry } from '../../../src/common/webview/wire';
import { entryToMarkdown } from '../../../src/common/export/markdown';

const SCHEMA = { type: 'object', properties: { question_0: { type: 'string', title: 'New line', oneOf: [{ const: 'Add a TODO line', title: 'Add a TODO line' }] } } };
const req = (id: number, params: unknown) => ({ jsonrpc: '2.0', id, method: 'elicitation/create', params });
const res = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });

function opened(): MessageStore {
  const store = new MessageStore();
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  store.ingest('agent->client', res(1, { sessionId: 's' }));
  return store;
}
const last = (store: MessageStore) => store.session('s')?.entries.at(-1);

test('a session-scoped elicitation becomes a transcript entry; the response records the answer', () => {
  const store = opened();
  store.ingest('agent->client', req(0, { sessionId: 's', toolCallId: 't1', mode: 'form', message: 'Which line?', requestedSchema: SCHEMA }));
  const asked = last(store);
  assert.ok(asked?.kind === 'elicitation');
  assert.deepEqual([asked.status, asked.message, asked.toolCallId, asked.requestId, asked.answer], ['pending', 'Which line?', 't1', 0, null]);
  store.ingest('client->agent', res(0, { action: 'accept', content: { question_0: 'Add a TODO line' } }));
  const answered = last(store);
  assert.ok(answered?.kind === 'elicitation');
  assert.equal(answered.key, asked.key);
  assert.equal(answered.status, 'accept');
  assert.deepEqual(answered.answer, { question_0: 'Add a TODO line' });
  assert.match(entryToMarkdown(answered), /\*\*Question\*\* — Which line\? \*\(accept\)\*\n\n- question_0: Add a TODO line/);
  // The webview gets the same entry back from the wire.
  assert.deepEqual(decodeEntry(encodeEntry(toViewEntry(answered))), toViewEntry(answered));
});

test('decline, cancel and an error answer are recorded; request-scoped ones make no entry', () => {
  const store = opened();
  store.ingest('agent->client', req(0, { requestId: 9, mode: 'form', message: 'Before any session', requestedSchema: SCHEMA }));
  assert.equal(store.session('s')?.entries.length, 0);
  store.ingest('client->agent', res(0, { action: 'decline' }));
  for (const [id, answer, status] of [
    [1, { result: { action: 'decline' } }, 'decline'],
    [2, { result: { action: 'cancel' } }, 'cancel'],
    [3, { error: { code: -32602, message: 'bad' } }, 'error'],
  ] as const) {
    store.ingest('agent->client', req(id, { sessionId: 's', mode: 'form', message: 'Q', requestedSchema: SCHEMA }));
    store.ingest('client->agent', { jsonrpc: '2.0', id, ...answer });
    const e = last(store);
    assert.ok(e?.kind === 'elicitation');
    assert.equal(e.status, status);
  }
  assert.deepEqual(store.diagnostics(), []);
});

test('URL mode: elicitation/complete marks it done; the entry survives a save and restore', () => {
  const store = opened();
  store.ingest('agent->client', req(4, { sessionId: 's', mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://auth.example.com/x' }));
  store.ingest('client->agent', res(4, { action: 'accept' }));
  store.ingest('agent->client', { jsonrpc: '2.0', method: 'elicitation/complete', params: { elicitationId: 'e1' } });
  const e = last(store);
  assert.ok(e?.kind === 'elicitation');
  assert.deepEqual([e.status, e.completed, e.url, e.elicitationId], ['accept', true, 'https://auth.example.com/x', 'e1']);
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.store.session('s')?.entries, store.session('s')?.entries);
});

test('a pending elicitation saved mid-question is answered after restore (the pending request is kept)', () => {
  const store = opened();
  store.ingest('agent->client', req(5, { sessionId: 's', mode: 'form', message: 'Q', requestedSchema: SCHEMA }));
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON()))).store;
  back.ingest('client->agent', res(5, { action: 'cancel' }));
  const e = back.session('s')?.entries.at(-1);
  assert.ok(e?.kind === 'elicitation');
  assert.equal(e.status, 'cancel');
});
