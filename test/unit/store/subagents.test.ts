// Subagents in the store: a child session announced by `subagent_update` on its parent, messages between
// sessions (`session_message` upserts and chunks), and the boundary: no update or request for a session
// that nobody opened or announced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, textOf } from '../../../src/common/store';
import type { Entry, MessageEntry, SubagentEntry } from '../../../src/common/store/model';
import { ClientMethods } from '../../../src/common/protocol/methods';
import { chunk, connected, ok, req, update } from './helpers';

const fixture = (name: string) => readFileSync(path.resolve(__dirname, '../../fixtures/transcripts', name), 'utf8').split('\n');

function reduce(lines: readonly string[]): MessageStore {
  const store = new MessageStore();
  lines.forEach((l, i) => {
    if (l.trim() !== '') store.ingestLine(l, i + 1);
  });
  return store;
}

const cards = (entries: readonly Entry[]) => entries.filter((e): e is SubagentEntry => e.kind === 'subagent');
const sessionMessages = (entries: readonly Entry[]) => entries.filter((e): e is MessageEntry => e.kind === 'session_message');

test('claude-next-subagent: the child is a session of its own, under the card in its parent', () => {
  const store = reduce(fixture('claude-next-subagent.jsonl'));
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error' || d.message.includes('unknown session update kind')),
    [],
  );
  const [parent, child, ...more] = store.sessions();
  assert.ok(parent && child);
  assert.equal(more.length, 0);
  assert.equal(parent.parentSessionId, null);
  assert.equal(child.parentSessionId, parent.sessionId);
  const [card, ...otherCards] = cards(parent.entries);
  assert.equal(otherCards.length, 0, 'one card for the child');
  assert.equal(card?.childSessionId, child.sessionId);
  assert.equal(card?.title, 'Read notes.txt');
  assert.equal(card?.description, 'general-purpose');
  assert.equal(card?.canCancel, true);
  assert.deepEqual([card?.state, card?.stopReason], ['idle', 'end_turn']);
  // The prompt and its reply on the parent, the prompt (its incoming view) once on the child.
  const [prompt, reply] = sessionMessages(parent.entries);
  assert.equal(prompt?.route?.recipientSessionId, child.sessionId);
  assert.equal(prompt?.route?.recipientMessageId, prompt?.messageId);
  assert.equal(reply?.messageId, `${prompt?.messageId}:reply`);
  assert.equal(reply?.route?.senderSessionId, child.sessionId);
  assert.match(textOf(reply?.content ?? []), /Report: notes.txt has one line/);
  const incoming = sessionMessages(child.entries);
  assert.equal(incoming.length, 1);
  assert.equal(incoming[0]?.route?.senderMessageId, prompt?.messageId);
  // The child's own work: its tool call and text stay on the child, none on the parent.
  assert.ok(child.entries.some((e) => e.kind === 'tool_call' && e.title === 'Read notes.txt'));
  assert.ok(!parent.entries.some((e) => e.kind === 'tool_call'));
  assert.ok(child.entries.some((e) => e.kind === 'agent_message' && textOf(e.content).startsWith('Report:')));
  // The card stands before the prompt in the parent: where the child was started.
  assert.ok(parent.entries.indexOf(card!) < parent.entries.indexOf(prompt!));
});

test('claude-next-subagent-bg: the background child and the turn after the response are kept', () => {
  const store = reduce(fixture('claude-next-subagent-bg.jsonl'));
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error'),
    [],
  );
  const [parent, child] = store.sessions();
  assert.ok(parent && child);
  assert.equal(child.parentSessionId, parent.sessionId);
  assert.deepEqual(
    cards(parent.entries).map((c) => c.state),
    ['idle'],
  );
  // The agent's own turn after the prompt's response is the parent's text, not lost.
  const last = parent.entries.at(-1);
  assert.ok(last && last.kind === 'agent_message');
});

test('claude-next-subagent-legacy: one session, the child tool call linked to the Agent call by _meta', () => {
  const store = reduce(fixture('claude-next-subagent-legacy.jsonl'));
  const [only, ...more] = store.sessions();
  assert.equal(more.length, 0);
  const calls = (only?.entries ?? []).filter((e) => e.kind === 'tool_call');
  const agent = calls.find((e) => e.name === 'Agent');
  const read = calls.find((e) => e.name === 'Read');
  assert.ok(agent && read);
  const meta = read.meta?.['claudeCode'] as { parentToolUseId?: string } | undefined;
  assert.equal(meta?.parentToolUseId, agent.toolCallId);
});

test('an update for a session nobody opened or announced is refused, and creates nothing', () => {
  const store = connected();
  const changes = store.ingest('agent->client', chunk('intruder', 'agent_message_chunk', 'hello', 'm1'));
  assert.equal(store.session('intruder'), undefined);
  assert.ok(!changes.some((c) => c.type === 'sessionAdded' || c.type === 'entryInserted'));
  const [d] = store.diagnostics();
  assert.equal(d?.severity, 'error');
  assert.match(d?.message ?? '', /never opened and no subagent_update announced/);
  // The plain-text fast path takes the same check (a chunk without messageId).
  store.ingest('agent->client', chunk('intruder', 'agent_message_chunk', 'again'));
  assert.equal(store.session('intruder'), undefined);
});

test('a permission request or question for an unknown session shows nothing', () => {
  const store = connected();
  store.ingest('agent->client', req(7, ClientMethods.sessionRequestPermission, { sessionId: 'x', toolCall: { toolCallId: 't' }, options: [] }));
  store.ingest(
    'agent->client',
    req(8, ClientMethods.elicitationCreate, { sessionId: 'x', mode: 'form', message: 'Password?', requestedSchema: { type: 'object', properties: {} } }),
  );
  assert.equal(store.session('x'), undefined);
  assert.equal(store.diagnostics().filter((d) => d.severity === 'error').length, 2);
});

test('updates before the session/new response are the new session (adopted while it is pending)', () => {
  const store = connected();
  store.ingest('client->agent', req(5, 'session/new', { cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', chunk('s2', 'agent_message_chunk', 'early', 'm'));
  store.ingest('agent->client', ok(5, { sessionId: 's2' }));
  assert.equal(store.diagnostics().filter((d) => d.severity === 'error').length, 0);
  assert.equal(store.session('s2')?.entries.length, 1);
});

test('a child reaches any depth; a child cannot be its own ancestor or change parents', () => {
  const store = connected();
  store.ingest('agent->client', update('s', { sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'one', state: { state: 'running' } }));
  store.ingest('agent->client', update('c1', { sessionUpdate: 'subagent_update', sessionId: 'c2', title: 'two' }));
  assert.equal(store.session('c2')?.parentSessionId, 'c1');
  const errors = () => store.diagnostics().filter((d) => d.severity === 'error').length;
  store.ingest('agent->client', update('c2', { sessionUpdate: 'subagent_update', sessionId: 's' }));
  store.ingest('agent->client', update('c1', { sessionUpdate: 'subagent_update', sessionId: 'c1' }));
  store.ingest('agent->client', update('s', { sessionUpdate: 'subagent_update', sessionId: 'c2' }));
  assert.equal(errors(), 3);
  assert.equal(store.session('c2')?.parentSessionId, 'c1');
  assert.equal(cards(store.session('s')?.entries ?? []).length, 1);
  assert.equal(cards(store.session('c2')?.entries ?? []).length, 0);
});

test('subagent_update patches: omitted keeps, null clears, a state keeps its start while it repeats', () => {
  const store = connected();
  const send = (u: Record<string, unknown>) => store.ingest('agent->client', update('s', { sessionUpdate: 'subagent_update', sessionId: 'c', ...u }));
  send({ title: 'T', description: 'D', capabilities: { cancel: {} }, state: { state: 'running' } });
  const card = () => cards(store.session('s')?.entries ?? [])[0];
  const since = card()?.stateSince;
  send({ state: { state: 'running' } });
  assert.equal(card()?.stateSince, since);
  send({ description: null, capabilities: null });
  assert.deepEqual([card()?.title, card()?.description, card()?.canCancel], ['T', null, false]);
  send({ state: { state: 'idle', stopReason: 'cancelled' } });
  assert.deepEqual([card()?.state, card()?.stopReason], ['idle', 'cancelled']);
  assert.notEqual(card()?.stateSince, since);
  send({ state: null });
  assert.equal(card()?.state, null);
  assert.equal(cards(store.session('s')?.entries ?? []).length, 1);
});

test('session_message: upsert by id, route fields patched, chunks appended, one entry', () => {
  const store = connected();
  store.ingest('agent->client', update('s', { sessionUpdate: 'subagent_update', sessionId: 'c' }));
  const msg = (u: Record<string, unknown>) => store.ingest('agent->client', update('s', { sessionUpdate: 'session_message', messageId: 'm', ...u }));
  msg({ senderSessionId: 's', recipientSessionId: 'c', content: [{ type: 'text', text: 'Do ' }] });
  store.ingest('agent->client', update('s', { sessionUpdate: 'session_message_chunk', messageId: 'm', content: { type: 'text', text: 'it' } }));
  msg({ recipientMessageId: 'r1' });
  const [m, ...rest] = sessionMessages(store.session('s')?.entries ?? []);
  assert.equal(rest.length, 0);
  assert.equal(textOf(m?.content ?? []), 'Do it');
  assert.deepEqual(m?.route, { senderSessionId: 's', recipientSessionId: 'c', senderMessageId: null, recipientMessageId: 'r1' });
  msg({ recipientSessionId: null, content: null });
  const [after] = sessionMessages(store.session('s')?.entries ?? []);
  assert.equal(after?.route?.recipientSessionId, null);
  assert.equal(after?.route?.senderSessionId, 's');
  assert.deepEqual(after?.content, []);
  assert.equal(after?.key, m?.key);
});

test('save and restore keep the tree: the child finds its parent again, keys unchanged', () => {
  const store = reduce(fixture('claude-next-subagent.jsonl'));
  const { store: back, diagnostics } = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    back.sessions().map((s) => [s.sessionId, s.parentSessionId, s.entries.map((e) => e.key)]),
    store.sessions().map((s) => [s.sessionId, s.parentSessionId, s.entries.map((e) => e.key)]),
  );
  // The restored child still takes updates (it is known), and the restored card is found by its child.
  const child = back.sessions()[1]!.sessionId;
  const parent = back.sessions()[0]!.sessionId;
  back.ingest('agent->client', update(parent, { sessionUpdate: 'subagent_update', sessionId: child, state: { state: 'running' } }));
  back.ingest('agent->client', chunk(child, 'agent_message_chunk', 'more', 'later'));
  assert.equal(back.diagnostics().filter((d) => d.severity === 'error').length, 0);
  assert.equal(cards(back.session(parent)?.entries ?? []).length, 1);
});

test('a session/load replay that announces the child again adds no second card or message', () => {
  const lines = fixture('claude-next-subagent.jsonl');
  const store = reduce(lines);
  const parent = store.sessions()[0]!.sessionId;
  const before = store.sessions().map((s) => s.entries.length);
  store.ingest('client->agent', req(90, 'session/load', { sessionId: parent, cwd: '/ws', mcpServers: [] }));
  for (const l of lines) {
    const rec = JSON.parse(l.trim() === '' ? '{}' : l) as { dir?: string; msg?: { method?: string; params?: { update?: { sessionUpdate?: string } } } };
    const kind = rec.msg?.params?.update?.sessionUpdate;
    if (rec.dir === 'agent->client' && rec.msg?.method === 'session/update' && (kind === 'subagent_update' || kind === 'session_message')) store.ingest('agent->client', rec.msg);
  }
  store.ingest('agent->client', ok(90, {}));
  assert.deepEqual(
    store.sessions().map((s) => s.entries.length),
    before,
  );
});

test("codex-next-subagent: Codex's child (a compound id, no title, no session messages) and its permission request", () => {
  const store = reduce(fixture('codex-next-subagent.jsonl'));
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error'),
    [],
  );
  const [parent, child, ...more] = store.sessions();
  assert.ok(parent && child);
  assert.equal(more.length, 0);
  assert.equal(child.sessionId.startsWith(`${parent.sessionId}:subagent:`), true);
  assert.equal(child.parentSessionId, parent.sessionId);
  const [card] = cards(parent.entries);
  assert.equal(card?.title, null);
  assert.match(card?.description ?? '', /subagent task/);
  // The end of the work withdraws cancel (`capabilities.cancel: null`).
  assert.deepEqual([card?.state, card?.stopReason, card?.canCancel], ['idle', 'end_turn', false]);
  // The child's permission requests land on the child's tool calls, none on the parent.
  assert.ok(child.entries.filter((e) => e.kind === 'tool_call').length >= 3);
  assert.equal(sessionMessages(parent.entries).length + sessionMessages(child.entries).length, 0);
});
