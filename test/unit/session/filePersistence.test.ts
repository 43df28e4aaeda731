// A chat survives a reload: the session's store is journaled while it runs and restored with the same
// entries and keys; a corrupt journal line is reported and everything readable is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { MessageStore, type Direction } from '../../../src/common/store';
import { storeWithSession } from '../../../src/common/store/extract';

const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }],
  ['agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } }],
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 'sess_9' } }],
  ['client->agent', { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'sess_9', prompt: [{ type: 'text', text: 'Hi' }] } }],
  [
    'agent->client',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'sess_9', update: { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'Hel' } } },
    },
  ],
  [
    'agent->client',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'sess_9', update: { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'lo' } } },
    },
  ],
  ['agent->client', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }],
];

/** Another window opening the folder and taking the chat (the earlier instance closed first). */
async function reopen(dir: string, chatId: string, log: (m: string) => void = () => undefined): Promise<FilePersistence> {
  const p = await FilePersistence.create(dir, log);
  assert.deepEqual(await p.prepare(chatId), { ok: true });
  return p;
}

test('a journaled chat restores with the same entries, keys and session', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'persist-'));
  const logs: string[] = [];
  const p1 = await FilePersistence.create(dir, (m) => logs.push(m));
  const { store, sessionId } = p1.restore('my agent', () => undefined);
  assert.equal(sessionId, null);
  await p1.flush(); // waits for the journal, which opens in the background (the next test covers messages meanwhile)
  wire.forEach(([dir, msg], i) => p1.append('my agent', dir, msg, store.ingest(dir, msg, i + 1), i + 1));
  store.attach('sess_9'); // as the chat's connection records it
  p1.attach('my agent', 'sess_9');
  await p1.flush();
  assert.ok(readdirSync(dir).includes('my_agent.journal.ndjson'));

  await p1.close();
  const restored = (await reopen(dir, 'my agent', (m) => logs.push(m))).restore('my agent', () => undefined);
  assert.equal(restored.sessionId, 'sess_9');
  const before = store.session('sess_9')!.entries;
  const after = restored.store.session('sess_9')!.entries;
  assert.deepEqual(
    after.map((e) => [e.kind, e.key]),
    before.map((e) => [e.kind, e.key]),
  );
  assert.deepEqual(logs, []);
});

test('messages sent before the journal opened are not lost', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'persist-'));
  const p1 = await FilePersistence.create(dir, () => undefined);
  const { store } = p1.restore('a', () => undefined);
  wire.forEach(([dir, msg], i) => p1.append('a', dir, msg, store.ingest(dir, msg, i + 1), i + 1)); // no await: journal not open yet
  await p1.close();
  const restored = (await reopen(dir, 'a')).restore('a', () => undefined);
  assert.equal(restored.store.session('sess_9')?.entries.length, 2);
});

test('a corrupt journal line is reported; what can be read is kept', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'persist-'));
  const p1 = await FilePersistence.create(dir, () => undefined);
  const { store } = p1.restore('a', () => undefined);
  await p1.flush();
  wire.slice(0, 6).forEach(([dir, msg], i) => p1.append('a', dir, msg, store.ingest(dir, msg, i + 1), i + 1));
  await p1.close();
  appendFileSync(path.join(dir, 'a.journal.ndjson'), 'this is not json\n{"seq":99,"dir":"agent->client","msg":{"jsonrpc":"2.0","method":"session/upd');
  const logs: string[] = [];
  const warnings: string[] = [];
  const restored = (await reopen(dir, 'a', (m) => logs.push(m))).restore('a', (m) => warnings.push(m));
  assert.equal(restored.store.session('sess_9')?.entries.length, 2, 'the prompt and the first chunk survive');
  assert.ok(logs.length >= 1, 'the damage is reported');
  assert.ok(warnings.length >= 1);
});

test('the chat list is saved and read back; removing a chat deletes its files and forgets it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'persist-'));
  const p1 = await FilePersistence.create(dir, () => undefined);
  assert.equal(p1.readIndex(), undefined);
  const { store } = p1.restore('chat-1', () => undefined);
  wire.forEach(([dir, msg], i) => p1.append('chat-1', dir, msg, store.ingest(dir, msg, i + 1), i + 1));
  const two = p1.restore('chat-2', () => undefined).store;
  wire.slice(0, 4).forEach(([dir, msg], i) => p1.append('chat-2', dir, msg, two.ingest(dir, msg, i + 1), i + 1));
  const record = (title: string) => ({ id: 'chat-1', agentId: 'demo', title, sessionId: null, createdAt: 1, updatedAt: 1 });
  p1.writeIndex({ version: 1, chats: [record('first')], focused: [] });
  p1.writeIndex({ version: 1, chats: [record('second')], focused: [] });
  await p1.close();
  const p2 = await FilePersistence.create(dir, () => undefined);
  assert.deepEqual(p2.readIndex(), { version: 1, chats: [record('second')], focused: [] }, 'the last write wins');
  assert.deepEqual([...p2.savedIds()].sort(), ['chat-1', 'chat-2']);
  await p2.remove('chat-1');
  assert.deepEqual(p2.savedIds(), ['chat-2']);
  assert.ok(!readdirSync(dir).some((f) => f.startsWith('chat-1.')), 'no file of the removed chat is left');
  assert.equal(p2.restore('chat-1', () => undefined).store.sessions().length, 0, 'a removed chat restores empty');
  await p2.close();
});

test('a forked chat starts from the fork’s entries (same keys), saved at once; its own messages follow once, not twice', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'persist-'));
  const source = new MessageStore();
  wire.forEach(([d, msg], i) => source.ingest(d, msg, i + 1));
  source.ingest('client->agent', { jsonrpc: '2.0', id: 3, method: 'session/fork', params: { sessionId: 'sess_9', cwd: '/ws', mcpServers: [] } }, 9);
  source.ingest('agent->client', { jsonrpc: '2.0', id: 3, result: { sessionId: 'fork_1' } }, 10);
  const seed = storeWithSession(source, 'fork_1');
  assert.deepEqual(
    seed.sessions().map((s) => s.sessionId),
    ['fork_1'],
  );

  const p1 = await FilePersistence.create(dir, () => undefined);
  p1.seed('chat-fork', { store: seed });
  const live = p1.restore('chat-fork', () => undefined);
  assert.equal(live.sessionId, 'fork_1');
  // A message arrives before the journal is open: it must be journaled after the snapshot, not inside it too.
  const resume: [Direction, unknown] = [
    'agent->client',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'fork_1', update: { sessionUpdate: 'agent_message_chunk', messageId: 'f1', content: { type: 'text', text: 'forked on' } } },
    },
  ];
  p1.append('chat-fork', resume[0], resume[1], live.store.ingest(resume[0], resume[1], 11), 11);
  await p1.close();

  const restored = (await reopen(dir, 'chat-fork')).restore('chat-fork', () => undefined);
  assert.equal(restored.sessionId, 'fork_1');
  const keys = (s: MessageStore) => s.session('fork_1')!.entries.map((e) => [e.kind, e.key, e.provenance]);
  assert.deepEqual(keys(restored.store), keys(live.store));
  assert.equal(restored.store.session('fork_1')!.entries.filter((e) => e.kind === 'agent_message' && e.messageId === 'f1').length, 1);
});
