// History search reads small per-chat search files, never the chats' stores: agent text cannot forge a line
// or a field of them, a query is a literal (never a pattern), ripgrep and the JS reader find the same hits,
// and the chat list is rebuilt from the files' headers when chats.json is lost or damaged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { escapeField, LiteralQuery, parseHeader, searchFileText, snippet, splitLine, unescapeField } from '../../../src/common/history/searchLines';
import { searchHistory, type SearchHit } from '../../../src/node/history/historySearch';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { MessageStore, type Direction } from '../../../src/common/store';
import { parseChatIndex } from '../../../src/common/chats/chatIndex';

const rg = (() => {
  try {
    execFileSync('rg', ['--version']);
    return 'rg';
  } catch {
    return undefined;
  }
})();

function storeWith(texts: readonly [string, string][], sessionId = 's1'): MessageStore {
  const store = new MessageStore();
  const feed = (dir: Direction, msg: unknown) => store.ingest(dir, msg);
  feed('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } });
  feed('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId } });
  texts.forEach(([kind, text], i) => {
    if (kind === 'user') feed('client->agent', { jsonrpc: '2.0', id: 10 + i, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text }] } });
    else if (kind === 'tool')
      feed('agent->client', {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId,
          update: { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: text, kind: 'edit', status: 'completed', locations: [{ path: `/ws/src/${text.split(' ').at(-1)}` }] },
        },
      });
    else
      feed('agent->client', {
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', messageId: `m${i}`, content: { type: 'text', text } } },
      });
  });
  return store;
}

test('escaping: agent text stays one line and one field, and round-trips', () => {
  const hostile = 'ok\nuser\tforged-key\tinjected line\r\u0000\u001b[31m back\\slash \\n literal';
  const e = escapeField(hostile);
  assert.ok(!/[\n\r\t\u0000-\u001f]/.test(e), 'no control character survives');
  assert.equal(unescapeField(e), hostile);
  const text = searchFileText({ id: 'chat-a-1', agentId: 'demo' }, storeWith([['agent', hostile]]).sessions());
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 2, 'a header and one line for the one message');
  assert.deepEqual(parseHeader(lines[0]!), { id: 'chat-a-1', agentId: 'demo' });
  const l = splitLine(lines[1]!)!;
  assert.equal(l.kind, 'agent');
  assert.equal(unescapeField(l.escaped), hostile);
  assert.equal(parseHeader(lines[1]!), undefined, 'a content line is never a header');
});

test('a query is a literal: regex characters match themselves, a line kind or key is not a match', () => {
  const q = new LiteralQuery('a.b*(c');
  assert.equal(q.matchesEscaped(escapeField('x a.b*(c y')), true);
  assert.equal(q.matchesEscaped(escapeField('aXbbbc')), false);
  assert.equal(new LiteralQuery('TAB\there').matchesEscaped(escapeField('a tab\there')), true, 'case-insensitive, controls escaped alike');
  assert.equal(new LiteralQuery('').matchesEscaped('anything'), false);
  const s = snippet('x'.repeat(300) + 'needle' + 'y'.repeat(300), 'NEEDLE', 60);
  assert.equal(s.text.slice(s.start, s.start + s.length).toLowerCase(), 'needle');
  assert.ok(s.text.length <= 62);
});

async function collect(dir: string, query: string, engine: 'rg' | 'js', extra: { only?: Set<string>; perChat?: number } = {}): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  const out = await searchHistory({ dir, query, ...(engine === 'rg' && rg ? { rg } : {}), ...extra, onHits: (h) => hits.push(...h) });
  assert.equal(out.engine, engine === 'rg' && rg ? 'rg' : 'js');
  return hits.sort((a, b) => (a.fileId + a.key < b.fileId + b.key ? -1 : 1));
}

test('ripgrep and the JS reader find the same hits, grouped by chat, with their keys', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hsearch-'));
  const a = storeWith([
    ['user', 'Refactor the parser'],
    ['agent', 'The PARSER now streams. agent'],
    ['tool', 'Edit parser.ts'],
  ]);
  const b = storeWith([
    ['user', 'nothing here'],
    ['agent', 'user user agent tool'],
  ]);
  writeFileSync(path.join(dir, 'chat-a-1.search.txt'), searchFileText({ id: 'chat-a-1', agentId: 'demo' }, a.sessions()));
  writeFileSync(path.join(dir, 'chat-b-2.search.txt'), searchFileText({ id: 'chat-b-2', agentId: 'demo' }, b.sessions()));
  writeFileSync(path.join(dir, 'unrelated.txt'), 'parser parser');
  for (const engine of ['rg', 'js'] as const) {
    const hits = await collect(dir, 'parser', engine);
    assert.deepEqual(
      hits.map((h) => [h.fileId, h.kind]).sort(),
      [
        ['chat-a-1', 'agent'],
        ['chat-a-1', 'path'],
        ['chat-a-1', 'tool'],
        ['chat-a-1', 'user'],
      ].sort(),
      engine,
    );
    const keys = new Set(a.sessions()[0]!.entries.map((e) => e.key));
    assert.ok(
      hits.every((h) => keys.has(h.key)),
      'each hit names its entry',
    );
    // "user" is a line kind in every file: only chat b's text holds it.
    assert.deepEqual(
      (await collect(dir, 'user', engine)).map((h) => h.fileId),
      ['chat-b-2'],
      engine,
    );
    assert.deepEqual(await collect(dir, '.*', engine), [], `${engine}: a regex is no pattern`);
    assert.deepEqual(await collect(dir, 'parser', engine, { only: new Set(['chat-b-2']) }), [], `${engine}: only the chats asked`);
    assert.equal((await collect(dir, 'parser', engine, { perChat: 2 })).length, 2, `${engine}: per-chat cap`);
    assert.equal((await collect(dir, '-e', engine)).length, 0, `${engine}: a query that looks like an option is text`);
  }
});

test('an aborted search stops and says so', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hsearch-'));
  for (let i = 0; i < 20; i++)
    writeFileSync(path.join(dir, `chat-x-${i}.search.txt`), searchFileText({ id: `chat-x-${i}` }, storeWith([['agent', 'needle '.repeat(10)]]).sessions()));
  const ac = new AbortController();
  const out = await searchHistory({ dir, query: 'needle', signal: ac.signal, onHits: () => ac.abort() });
  assert.equal(out.stopped, true);
});

const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 'sess_9' } }],
  ['client->agent', { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'sess_9', prompt: [{ type: 'text', text: 'find the walrus' }] } }],
];

test('a saved chat gets its search file; a lost or damaged chat list is rebuilt from them; delete removes it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hsearch-'));
  const p1 = await FilePersistence.create(dir, () => undefined);
  const ids = ['chat-aa-000001', 'chat-aa-000002'];
  p1.writeIndex({
    version: 1,
    chats: ids.map((id, i) => ({ id, agentId: 'demo', title: `T${i}`, sessionId: null, createdAt: i, updatedAt: i, open: true, archived: i === 1 })),
    focused: [],
  });
  for (const id of ids) {
    const { store } = p1.restore(id, () => undefined);
    wire.forEach(([d, msg], i) => p1.append(id, d, msg, store.ingest(d, msg, i + 1), i + 1));
  }
  await p1.close();
  for (const id of ids) assert.ok(existsSync(path.join(dir, `${id}.search.txt`)), `${id} has its search file`);
  assert.ok(readFileSync(path.join(dir, `${ids[0]}.search.txt`), 'utf8').includes('user\t'), 'the prompt is in it');

  for (const damage of ['{ not json', '{"version":1,"chats":[{"id":"chat-aa-000001"}],"focused":[]}', null]) {
    if (damage === null) writeFileSync(path.join(dir, 'chats.json'), '');
    else writeFileSync(path.join(dir, 'chats.json'), damage);
    const logs: string[] = [];
    const p2 = await FilePersistence.create(dir, (m) => logs.push(m));
    // Opening reads no search file (the first chat paints before): the missing chats come back after it.
    const before = p2.chatList().chats.length;
    assert.ok(before < ids.length, `opened as the list was (${damage})`);
    const back = await p2.recoverMissing();
    assert.deepEqual(
      p2
        .chatList()
        .chats.map((c) => c.id)
        .sort(),
      ids,
      `nothing lost (${damage})`,
    );
    const rebuilt = parseChatIndex(p2.readIndex(), () => undefined).chats;
    assert.deepEqual(rebuilt.map((c) => c.id).sort(), ids, `the saved list has them (${damage})`);
    assert.equal(back.length, ids.length - before, 'only the missing ones are returned');
    assert.deepEqual(await p2.recoverMissing(), [], 'once');
    const second = rebuilt.find((c) => c.id === ids[1])!;
    assert.equal(second.title, 'T1');
    assert.equal(second.archived, true, 'what the chat was (archived) comes back');
    assert.ok(logs.some((l) => /added back/.test(l)));
    await p2.close();
    const onDisk = parseChatIndex(JSON.parse(readFileSync(path.join(dir, 'chats.json'), 'utf8')), () => undefined).chats;
    assert.deepEqual(onDisk.map((c) => c.id).sort(), ids, 'the rebuilt list is written back');
  }

  const p3 = await FilePersistence.create(dir, () => undefined);
  await p3.remove(ids[0]!);
  assert.ok(!readdirSync(dir).some((n) => n.startsWith(ids[0]!)), 'delete leaves no file of the chat');
  await p3.close();
});

test('two windows: each writes the search files of its own chats, and a crash leaves the old file whole', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hsearch-'));
  const w1 = await FilePersistence.create(dir, () => undefined, { pid: process.pid, token: 'w1' });
  const w2 = await FilePersistence.create(dir, () => undefined, { pid: process.pid, token: 'w2' });
  const s1 = w1.restore('chat-bb-000001', () => undefined).store;
  const s2 = w2.restore('chat-bb-000002', () => undefined).store;
  wire.forEach(([d, msg], i) => {
    w1.append('chat-bb-000001', d, msg, s1.ingest(d, msg, i + 1), i + 1);
    w2.append('chat-bb-000002', d, msg, s2.ingest(d, msg, i + 1), i + 1);
  });
  await Promise.all([w1.flush(), w2.flush()]);
  // A write that crashed before its rename leaves a temp file: the search file itself stays whole.
  writeFileSync(path.join(dir, 'chat-bb-000001.search.txt.tmp'), 'user\tk\thalf');
  const hits: SearchHit[] = [];
  await searchHistory({ dir, query: 'walrus', ...(rg ? { rg } : {}), onHits: (h) => hits.push(...h) });
  assert.deepEqual(hits.map((h) => h.fileId).sort(), ['chat-bb-000001', 'chat-bb-000002']);
  await Promise.all([w1.close(), w2.close()]);
});
