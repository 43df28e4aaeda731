/**
 * Issue 39 class 9: a session/load replay that resends a shown message in other words does not rewrite
 * it: what was shown is kept, the difference is a diagnostic and a mark on the message (`replayDiffers`),
 * carried to the panel (view entry, wire) and printed by `reduce`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store/store';
import { toReduceOutput } from '../../../src/common/store/reduceOutput';
import { toViewEntry } from '../../../src/common/webview/viewEntry';
import { decodeEntry, encodeEntry } from '../../../src/common/webview/wire';

const rec = (id: number | null, body: object) => ({ jsonrpc: '2.0', ...(id === null ? {} : { id }), ...body });
const chunk = (kind: string, text: string, messageId?: string) =>
  rec(null, { method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: kind, ...(messageId ? { messageId } : {}), content: { type: 'text', text } } } });

function shownThenLoaded(replayed: string): MessageStore {
  const store = new MessageStore();
  store.ingest('client->agent', rec(1, { method: 'session/new', params: { cwd: '/w', mcpServers: [] } }));
  store.ingest('agent->client', rec(1, { result: { sessionId: 's' } }));
  store.ingest('client->agent', rec(2, { method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'What is it?' }] } }));
  store.ingest('agent->client', chunk('agent_message_chunk', 'The answer is 42, ', 'a1'));
  store.ingest('agent->client', chunk('agent_message_chunk', 'as computed.', 'a1'));
  store.ingest('agent->client', rec(2, { result: { stopReason: 'end_turn' } }));
  store.ingest('client->agent', rec(3, { method: 'session/load', params: { sessionId: 's', cwd: '/w', mcpServers: [] } }));
  store.ingest('agent->client', chunk('user_message_chunk', 'What is it?'));
  store.ingest('agent->client', chunk('agent_message_chunk', replayed));
  store.ingest('agent->client', chunk('agent_message_chunk', ' And a later sentence.'));
  store.ingest('agent->client', rec(3, { result: {} }));
  return store;
}
const agentText = (store: MessageStore) => {
  const e = store.session('s')?.entries.find((x) => x.kind === 'agent_message');
  assert.ok(e && e.kind === 'agent_message');
  return e;
};

test('a replay in other words keeps the shown text, says so, and marks the message for the panel and reduce', () => {
  const store = shownThenLoaded('The answer is 42, as we computed it.');
  assert.equal(store.session('s')?.entries.filter((x) => x.kind === 'agent_message').length, 1, 'matched, not appended');
  const e = agentText(store);
  assert.deepEqual(e.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), 'The answer is 42, as computed.');
  assert.equal(e.replayDiffers, true);
  assert.match(
    store
      .diagnostics()
      .map((d) => `${d.severity} ${d.message}`)
      .join('\n'),
    /warning .*replay.*differs from what was shown.*as we computed it/,
  );
  const view = toViewEntry(e);
  assert.deepEqual(decodeEntry(encodeEntry(view)), view);
  assert.equal((decodeEntry(encodeEntry(view)) as { replayDiffers?: boolean }).replayDiffers, true);
  const reduced = toReduceOutput(store).sessions[0]?.entries.find((x) => x['kind'] === 'agent_message');
  assert.equal(reduced?.['replayDiffers'], true);
});

test('a replay that only says more than was shown extends the message, unmarked (a turn cut short)', () => {
  const store = shownThenLoaded('The answer is 42, as computed. Then more.');
  const e = agentText(store);
  assert.match(e.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), /^The answer is 42, as computed\.\s*Then more\./);
  assert.equal(e.replayDiffers, undefined);
});
