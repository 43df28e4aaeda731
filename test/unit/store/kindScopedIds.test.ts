// A message's identity is its kind and its messageId. The current Claude Code adapter (claude-agent-acp
// 0.101.0) gives a model response's thought and its text one id; both are kept, with a warning, and
// every chunk lands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, textOf, type Entry } from '../../../src/common/store';
import { chunk, connected, update } from './helpers';

const texts = (entries: readonly Entry[]) =>
  entries.map((e) =>
    e.kind === 'tool_call'
      ? [e.kind, e.toolCallId, '']
      : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction'
        ? [e.kind, e.key, '']
        : [e.kind, e.messageId, textOf(e.content)],
  );

test('one id on a thought and its text: two entries, every chunk kept, one warning', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'Think', 'm'));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'ing', 'm'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Ans', 'm'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'wer', 'm'));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', messageId: 'm' }));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', '!', 'm'));
  const entries = store.session('s')?.entries ?? [];
  assert.deepEqual(texts(entries), [
    ['agent_thought', 'm', 'Thinking!'],
    ['agent_message', 'm', 'Answer'],
    ['tool_call', 't', ''],
  ]);
  // The tool call belongs to the answer, not the thought that shares its id.
  const tool = entries[2];
  assert.equal(tool?.kind === 'tool_call' ? tool.parentKey : undefined, entries[1]?.key);
  assert.deepEqual(
    store.diagnostics().map((d) => d.severity),
    ['warning'],
  );
  assert.match(store.diagnostics()[0]?.message ?? '', /'m' already names an entry of kind agent_thought; kept as a separate agent_message/);
});

test('kind-scoped ids survive save and restore: later chunks still find their own entry', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'T', 'm'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'A', 'm'));
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON()))).store;
  back.ingest('agent->client', chunk('s', 'agent_message_chunk', 'B', 'm'));
  back.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'U', 'm'));
  assert.deepEqual(texts(back.session('s')?.entries ?? []), [
    ['agent_thought', 'm', 'TU'],
    ['agent_message', 'm', 'AB'],
  ]);
});

test('a session/load replay matches a thought and a text that share an id to their own entries', () => {
  const store = connected();
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'Thinking hard', 'm'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'The answer is 42', 'm'));
  store.ingest('client->agent', { jsonrpc: '2.0', id: 9, method: 'session/load', params: { sessionId: 's', cwd: '/ws', mcpServers: [] } });
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'Thinking hard', 'm'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'The answer is 42', 'm'));
  store.ingest('agent->client', { jsonrpc: '2.0', id: 9, result: {} });
  const entries = store.session('s')?.entries ?? [];
  assert.deepEqual(texts(entries), [
    ['agent_thought', 'm', 'Thinking hard'],
    ['agent_message', 'm', 'The answer is 42'],
  ]);
  assert.ok(
    entries.every((e) => e.provenance === 'live'),
    'the replay landed on the shown entries',
  );
});

test('the claude-agent-acp 0.101.0 transcript: no chunk rejected, the final summary shown whole', () => {
  const file = path.resolve(__dirname, '../../fixtures/transcripts/claude-next.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  const store = new MessageStore();
  lines.forEach((l, i) => {
    if (l.trim() !== '') store.ingestLine(l, i + 1);
  });
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error'),
    [],
  );
  assert.ok(
    store.diagnostics().some((d) => /already names an entry of kind agent_thought/.test(d.message)),
    'the reuse is reported',
  );

  // The final summary, computed from the capture alone: the text chunks of the last agent message id.
  type Rec = { dir?: string; msg?: { params?: { update?: { sessionUpdate?: string; messageId?: string; content?: { text?: string } } } } };
  const updates = lines
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as Rec).msg?.params?.update)
    .filter((u) => u?.sessionUpdate === 'agent_message_chunk');
  const lastId = updates.at(-1)?.messageId;
  const summary = updates
    .filter((u) => u?.messageId === lastId)
    .map((u) => u?.content?.text ?? '')
    .join('');
  assert.ok(summary.length > 100, 'the transcript ends with a summary');

  const entries = store.sessions().flatMap((s) => s.entries);
  const answers = entries.filter((e) => e.kind === 'agent_message');
  const last = answers.at(-1);
  assert.equal(last?.kind === 'agent_message' ? textOf(last.content) : undefined, summary);
  // Every agent text chunk is shown: the answers hold all of the capture's agent text.
  const allText = updates.map((u) => u?.content?.text ?? '').join('');
  assert.equal(answers.map((e) => (e.kind === 'agent_message' ? textOf(e.content) : '')).join(''), allText);
});
