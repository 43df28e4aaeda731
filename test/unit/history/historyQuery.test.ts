// History's filters (agent, folder, date, state, unread), the list and the search results as the view gets
// them (title matches first, then text matches grouped by chat, a few hits each), "all matching" for bulk
// actions, and the agent's own sessions offered once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatRecord } from '../../../src/common/chats/chatIndex';
import { chatState, filterChats, inRange } from '../../../src/common/history/historyFilter';
import { HistoryQuery, HITS_PER_CHAT, PAGE } from '../../../src/node/history/historyQuery';
import type { HostToHistory } from '../../../src/common/history/historyContract';
import { unknownSessions } from '../../../src/common/history/agentSessions';
import { escapeField } from '../../../src/common/history/searchLines';

const DAY = 86_400_000;
const NOW = 100 * DAY;
const rec = (id: string, o: Partial<ChatRecord> = {}): ChatRecord => ({ id, agentId: 'demo', title: id, sessionId: null, createdAt: 0, updatedAt: NOW, ...o });

test('states and filters', () => {
  const chats = [
    rec('a', { agentId: 'claude', folder: '/w/one', ended: 'finished' }),
    rec('b', { ended: 'failed', unread: true, updatedAt: NOW - 10 * DAY }),
    rec('c', { archived: true, ended: 'finished' }),
    rec('d', { updatedAt: NOW - 40 * DAY }),
    rec('e'),
  ];
  const live = (id: string) => (id === 'd' ? { running: true, needsYou: false } : id === 'e' ? { running: true, needsYou: true } : undefined);
  assert.deepEqual(
    chats.map((c) => chatState(c, live(c.id))),
    ['finished', 'failed', 'archived', 'running', 'needsYou'],
  );
  const ids = (f: Parameters<typeof filterChats>[1]) =>
    filterChats(chats, f, live, NOW, NOW - DAY / 2)
      .map((c) => c.id)
      .sort();
  assert.deepEqual(ids({}), ['a', 'b', 'd', 'e'], 'archived chats only under their own state');
  assert.deepEqual(ids({ state: 'archived' }), ['c']);
  assert.deepEqual(ids({ state: 'running' }), ['d']);
  assert.deepEqual(ids({ state: 'needsYou' }), ['e']);
  assert.deepEqual(ids({ state: 'failed' }), ['b']);
  assert.deepEqual(ids({ agent: 'claude' }), ['a']);
  assert.deepEqual(ids({ folder: '/w/one' }), ['a']);
  assert.deepEqual(ids({ unreadOnly: true }), ['b']);
  assert.deepEqual(ids({ date: 'today' }), ['a', 'e']);
  assert.deepEqual(ids({ date: 'month' }), ['a', 'b', 'e']);
  assert.deepEqual(ids({ date: 'older' }), ['d']);
  assert.equal(inRange(NOW - 8 * DAY, 'week', NOW, NOW), false);
});

function sourceOver(dir: string | undefined, records: ChatRecord[]) {
  return {
    records: () => records,
    live: () => undefined,
    title: (id: string) => records.find((r) => r.id === id)?.title ?? id,
    agentName: (id: string) => id.toUpperCase(),
    dir: () => dir,
    rg: () => undefined,
    now: () => NOW,
  };
}

test('the list comes a page at a time; a query gives title matches, then text matches grouped by chat', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hquery-'));
  const records: ChatRecord[] = [];
  for (let i = 0; i < PAGE + 50; i++) {
    const id = `chat-q-${String(i).padStart(4, '0')}`;
    records.push(rec(id, { title: i === 3 ? 'Walrus plans' : `Chat ${i}`, updatedAt: NOW - i }));
    const lines = [`acp-chat-search 1\t${escapeField(JSON.stringify({ id }))}`];
    for (let m = 0; m < 10; m++) lines.push(`agent\tk${i}-${m}\t${i % 50 === 0 ? 'a walrus\\nhere' : 'nothing'}`);
    writeFileSync(path.join(dir, `${id}.search.txt`), lines.join('\n') + '\n');
  }
  const posts: HostToHistory[] = [];
  const q = new HistoryQuery(sourceOver(dir, records), (m) => posts.push(m));
  await q.run(1, '', {});
  const list = posts.at(-1);
  assert.ok(list?.type === 'list');
  assert.equal(list.rows.length, PAGE);
  assert.equal(list.total, PAGE + 50);
  assert.equal(list.rows[0]?.agent, 'DEMO');
  q.more(1, PAGE);
  const more = posts.at(-1);
  assert.ok(more?.type === 'list' && more.from === PAGE && more.rows.length === 50);
  assert.equal((await q.matching()).length, PAGE + 50);

  posts.length = 0;
  await q.run(2, 'WALRUS', {});
  const results = posts.filter((p) => p.type === 'results');
  assert.ok(results.length >= 2 && results.at(-1)?.type === 'results' && results.at(-1)!.done);
  const first = results[0]!;
  assert.ok(first.type === 'results');
  assert.deepEqual(
    first.groups.map((g) => [g.row.chatId, g.inTitle]),
    [['chat-q-0003', true]],
    'title matches come at once',
  );
  const groups = new Map<string, { hits: number; snippet: string }>();
  for (const r of results) if (r.type === 'results') for (const g of r.groups) groups.set(g.row.chatId, { hits: g.hits.length, snippet: g.hits[0]?.snippet ?? '' });
  assert.deepEqual([...groups.keys()].sort(), ['chat-q-0000', 'chat-q-0003', 'chat-q-0050', 'chat-q-0100', 'chat-q-0150', 'chat-q-0200'].sort());
  assert.equal(groups.get('chat-q-0050')?.hits, HITS_PER_CHAT, 'a few hits per chat');
  assert.equal(groups.get('chat-q-0050')?.snippet, 'a walrus here', 'the snippet is the text, unescaped, on one line');
  assert.equal((await q.matching()).length, 6, 'all matching = the chats found');
  // Filtered: only the chats the filter keeps are searched.
  posts.length = 0;
  await q.run(3, 'walrus', { date: 'today' });
  q.dispose();
});

test('without saved chats only titles are searched, and the view is told so', async () => {
  const posts: HostToHistory[] = [];
  const q = new HistoryQuery(sourceOver(undefined, [rec('x', { title: 'find me' })]), (m) => posts.push(m));
  await q.run(1, 'find', {});
  const last = posts.at(-1);
  assert.ok(last?.type === 'results' && last.done && /only titles/.test(last.note ?? ''));
});

test('an agent’s own sessions: those no chat knows, each once', () => {
  const listed = [{ sessionId: 's1' }, { sessionId: 's2' }, { sessionId: 's3' }, { sessionId: 's3' }, { sessionId: 's4' }, { sessionId: 's5' }];
  const records = [
    rec('a', { sessionId: 's1' }),
    rec('b', { sessionId: 's2', archived: true }),
    rec('c', { origin: { kind: 'forked', chatId: 'a', sessionId: 's4', messageKey: 'k' } }),
  ];
  assert.deepEqual(
    unknownSessions(listed, records, ['s5']).map((s) => s.sessionId),
    ['s3'],
  );
});
