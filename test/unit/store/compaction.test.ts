// Compaction rows: compaction_update / compaction_summary_chunk upsert one entry by compactionId, from the
// real Claude and Codex recordings (shared/agents/README.md, section Compaction) and from hand-made traffic
// for what they did not send (chunks, failed, cancelled, clearing), through save/restore, load and fork.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, textOf, type Entry } from '../../../src/common/store';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { connected, ok, req, update } from './helpers';

const fixture = (name: string) => path.resolve(__dirname, '../../fixtures/transcripts', name);

function reduce(file: string): MessageStore {
  const store = new MessageStore();
  readFileSync(fixture(file), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (l.trim() !== '') store.ingestLine(l, i + 1);
    });
  return store;
}

const compactions = (entries: readonly Entry[]) => entries.filter((e) => e.kind === 'compaction');
const only = (store: MessageStore, sid = 's') => {
  const list = compactions(store.session(sid)?.entries ?? []);
  assert.equal(list.length, 1, 'one compaction row');
  const e = list[0];
  assert.ok(e?.kind === 'compaction');
  return e;
};
const cu = (u: Record<string, unknown>) => update('s', { sessionUpdate: 'compaction_update', compactionId: 'c1', ...u });
const chunkOf = (text: string, compactionId = 'c1') => update('s', { sessionUpdate: 'compaction_summary_chunk', compactionId, content: { type: 'text', text } });

test('Claude: in_progress, completed with a summary, completed again without one: one row that keeps the summary', () => {
  const store = reduce('claude-next-compact.jsonl');
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error'),
    [],
  );
  const [s] = store.sessions();
  assert.ok(s);
  const list = compactions(s.entries);
  assert.equal(list.length, 1);
  const e = list[0];
  assert.ok(e?.kind === 'compaction');
  assert.equal(e.status, 'completed');
  assert.match(textOf(e.summary), /^1\. Primary Request and Intent/);
  assert.match(textOf(e.summary), /Optional Next Step/);
  assert.equal(e.stats.upserts, 3, 'three compaction_update lines');
  // It stands after the /compact prompt and before the next turn's prompt.
  const at = s.entries.indexOf(e);
  const users = s.entries.map((x, i) => (x.kind === 'user_message' ? i : -1)).filter((i) => i >= 0);
  assert.ok(users.some((i) => i < at) && users.some((i) => i > at), `row at ${at}, user messages at ${users.join(',')}`);
});

test('Codex: in_progress then completed with no summary', () => {
  const store = reduce('codex-next-compact.jsonl');
  const [s] = store.sessions();
  const e = compactions(s?.entries ?? [])[0];
  assert.ok(e?.kind === 'compaction');
  assert.equal(e.status, 'completed');
  assert.deepEqual(e.summary, []);
  assert.equal(compactions(s?.entries ?? []).length, 1);
});

test('summary chunks stream into the row; a first-seen id starts it in progress; completed without a summary keeps them', () => {
  const store = connected();
  store.ingest('agent->client', chunkOf('## Kept\n'));
  assert.equal(only(store).status, 'in_progress');
  store.ingest('agent->client', chunkOf('- the plan'));
  store.ingest('agent->client', cu({ status: 'completed' }));
  const e = only(store);
  assert.equal(e.status, 'completed');
  assert.equal(textOf(e.summary), '## Kept\n- the plan');
  assert.equal(e.stats.chunks, 2);
});

test('failed carries the error; cancelled; null and [] clear the summary; a new id is a new row', () => {
  const store = connected();
  store.ingest('agent->client', cu({ status: 'in_progress', summary: [{ type: 'text', text: 'draft' }] }));
  store.ingest('agent->client', cu({ status: 'failed', error: 'context too large' }));
  assert.equal(only(store).error, 'context too large');
  assert.equal(textOf(only(store).summary), 'draft');
  store.ingest('agent->client', cu({ status: 'failed', summary: null, error: null }));
  assert.deepEqual(only(store).summary, []);
  assert.equal(only(store).error, null);
  store.ingest('agent->client', cu({ status: 'failed', summary: [{ type: 'text', text: 'x' }] }));
  store.ingest('agent->client', cu({ status: 'failed', summary: [] }));
  assert.deepEqual(only(store).summary, []);
  store.ingest('agent->client', update('s', { sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'cancelled' }));
  const rows = compactions(store.session('s')?.entries ?? []);
  assert.deepEqual(
    rows.map((r) => r.kind === 'compaction' && [r.compactionId, r.status]),
    [
      ['c1', 'failed'],
      ['c2', 'cancelled'],
    ],
  );
});

test('a malformed summary is a warning and leaves the summary as it was; a missing status rejects the update', () => {
  const store = connected();
  store.ingest('agent->client', cu({ status: 'completed', summary: [{ type: 'text', text: 'kept' }] }));
  store.ingest('agent->client', cu({ status: 'completed', summary: 'not a list' }));
  assert.equal(textOf(only(store).summary), 'kept');
  assert.ok(store.diagnostics().some((d) => d.severity === 'warning' && /summary/.test(d.message)));
  store.ingest('agent->client', update('s', { sessionUpdate: 'compaction_update', compactionId: 'c1' }));
  assert.ok(store.diagnostics().some((d) => d.severity === 'error' && /compaction_update/.test(d.message)));
});

test('save and restore keep the row and its key; a later update still finds it', () => {
  const store = connected();
  store.ingest('agent->client', cu({ status: 'in_progress' }));
  const key = only(store).key;
  const { store: back } = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
  back.ingest('agent->client', cu({ status: 'completed', summary: [{ type: 'text', text: 'done' }] }));
  assert.equal(only(back).key, key);
  assert.equal(only(back).status, 'completed');
});

test('a session/load replay upserts the shown row (no second row) and never takes it back to in progress', () => {
  const store = connected();
  store.ingest('agent->client', cu({ status: 'in_progress' }));
  store.ingest('agent->client', cu({ status: 'completed', summary: [{ type: 'text', text: 'sum' }] }));
  const key = only(store).key;
  store.ingest('client->agent', req(5, AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', cu({ status: 'in_progress' }));
  store.ingest('agent->client', cu({ status: 'completed' }));
  store.ingest('agent->client', ok(5, {}));
  const e = only(store);
  assert.equal(e.key, key);
  assert.equal(e.status, 'completed');
  assert.equal(textOf(e.summary), 'sum');
});

test('a fork copies the row (provenance fork, its own key), and the fork finds it by id', () => {
  const store = connected();
  store.ingest('agent->client', cu({ status: 'completed', summary: [{ type: 'text', text: 'sum' }] }));
  store.ingest('client->agent', req(6, AgentMethods.sessionFork, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', ok(6, { sessionId: 'f' }));
  const copy = only(store, 'f');
  assert.equal(copy.provenance, 'fork');
  assert.notEqual(copy.key, only(store).key);
  store.ingest('agent->client', update('f', { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }));
  assert.equal(textOf(only(store, 'f').summary), 'sum');
});
