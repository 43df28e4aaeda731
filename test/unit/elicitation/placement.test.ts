import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageStore } from '../../../src/common/store/store';
import { questionHosts } from '../../../src/common/webview/questionPlacement';
import { toViewEntry } from '../../../src/common/webview/viewEntry';
import askUserQuestion from '../../fixtures/elicitation/ask-user-question.json';

const res = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const ask = (id: number, toolCallId: string | undefined, message = 'Which line should I add to notes.txt?') => ({
  jsonrpc: '2.0',
  id,
  method: 'elicitation/create',
  params: { sessionId: 's', ...(toolCallId ? { toolCallId } : {}), mode: 'form', message, requestedSchema: askUserQuestion },
});
const toolCall = (toolCallId: string) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId, title: 'AskUserQuestion', kind: 'other', status: 'pending' } },
});

function opened(): MessageStore {
  const store = new MessageStore();
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  store.ingest('agent->client', res(1, { sessionId: 's' }));
  return store;
}
const entries = (store: MessageStore) => store.session('s')?.entries ?? [];
const keyOf = (store: MessageStore, pred: (e: ReturnType<typeof entries>[number]) => boolean) => entries(store).find(pred)?.key;

test("a question tied to a tool call the store holds is drawn on that tool call's card; its answer stays on the question's entry", () => {
  const store = opened();
  store.ingest('agent->client', toolCall('toolu_1'));
  store.ingest('agent->client', ask(0, 'toolu_1'));
  const tool = keyOf(store, (e) => e.kind === 'tool_call');
  const question = keyOf(store, (e) => e.kind === 'elicitation');
  assert.ok(tool && question);
  assert.deepEqual([...questionHosts(entries(store).map(toViewEntry))], [[question, tool]]);
  store.ingest('client->agent', res(0, { action: 'accept', content: { question_0: 'Add a TODO line' } }));
  // One owner: the tool call entry gains nothing; the question's entry holds the answer, and after a
  // save and restore the same question is placed on the same card.
  const after = entries(store).find((e) => e.key === tool);
  assert.ok(after?.kind === 'tool_call' && !('answer' in after));
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON()))).store;
  const restored = back.session('s')?.entries ?? [];
  assert.deepEqual([...questionHosts(restored.map(toViewEntry))], [[question, tool]]);
  const q = restored.find((e) => e.key === question);
  assert.ok(q?.kind === 'elicitation');
  assert.deepEqual([q.status, q.answer], ['accept', { question_0: 'Add a TODO line' }]);
});

test('a question for an unknown tool call, or for none, is its own card', () => {
  const store = opened();
  store.ingest('agent->client', toolCall('toolu_1'));
  store.ingest('agent->client', ask(0, 'toolu_unknown'));
  store.ingest('agent->client', ask(1, undefined));
  assert.equal(questionHosts(entries(store).map(toViewEntry)).size, 0);
});

test('several questions on one card queue there; a tool call reported after its question still takes it', () => {
  const store = opened();
  store.ingest('agent->client', toolCall('toolu_1'));
  store.ingest('agent->client', ask(0, 'toolu_1', 'First?'));
  store.ingest('agent->client', ask(1, 'toolu_1', 'Second?'));
  store.ingest('agent->client', ask(2, 'toolu_2', 'Early?'));
  store.ingest('agent->client', toolCall('toolu_2'));
  const byMessage = new Map(entries(store).flatMap((e) => (e.kind === 'elicitation' ? [[e.message, e.key] as const] : [])));
  const tools = entries(store)
    .filter((e) => e.kind === 'tool_call')
    .map((e) => e.key);
  const hosts = questionHosts(entries(store).map(toViewEntry));
  assert.deepEqual([hosts.get(byMessage.get('First?')!), hosts.get(byMessage.get('Second?')!), hosts.get(byMessage.get('Early?')!)], [tools[0], tools[0], tools[1]]);
});

test("an id reused later, or by an earlier session's card, takes the nearest card of the question's own segment", () => {
  const list = [
    { kind: 'tool_call', key: 'old', toolCallId: 't' },
    { kind: 'elicitation', key: 'q-old', toolCallId: 't' },
    { kind: 'tool_call', key: 'new', toolCallId: 't' },
    { kind: 'elicitation', key: 'q-new', toolCallId: 't' },
  ];
  assert.deepEqual(
    [...questionHosts(list)],
    [
      ['q-old', 'old'],
      ['q-new', 'new'],
    ],
  );
  // The earlier session ends after the first two: its card never takes a question of the new session.
  const split = [list[0]!, { kind: 'elicitation', key: 'q-new', toolCallId: 't' }, { kind: 'agent_message', key: 'm' }];
  assert.deepEqual([...questionHosts(split, [1])], []);
});
