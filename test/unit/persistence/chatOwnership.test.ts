// Issue 38 item 3: tabs belong to the window that had them; a second window is told once, in plain words,
// and may open a chat read-only (a copy, nothing taken) or take it over (the holder lets go when asked).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chatElsewhereText, elsewhereNotice, ELSEWHERE_TAB_TEXT, handedOverText, honoursHandoff, restoredTabFate } from '../../../src/common/chats/chatOwnership';
import { ChatHandoffs, HANDOFF_EXT } from '../../../src/node/persistence/chatHandoff';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { ChatElsewhereError } from '../../../src/node/chat/chatPersistence';
import type { Direction } from '../../../src/common/store';
import { until } from '../../helpers/until.mjs';

const CHAT = 'chat-k1-aaaaaa';
const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }],
  ['agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } }],
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 'sess_9' } }],
  [
    'agent->client',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'sess_9', update: { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'kept' } } },
    },
  ],
];

test('a restored tab shows its chat when taken here, closes when deleted, stays empty when another window has it', () => {
  assert.equal(restoredTabFate(true, true), 'show');
  assert.equal(restoredTabFate(false, false), 'close');
  assert.equal(restoredTabFate(true, false), 'elsewhere');
});

test('the words say where the chats are and what to do, never a process id', () => {
  for (const text of [
    elsewhereNotice(1),
    elsewhereNotice(6),
    chatElsewhereText('Fix the build'),
    ELSEWHERE_TAB_TEXT,
    handedOverText('Fix the build'),
    new ChatElsewhereError(CHAT, { pid: 4242, token: 't', since: 1 }).message,
  ]) {
    assert.doesNotMatch(text, /\d{2,}|process/i, text);
    assert.match(text, /another VS Code window/);
  }
  assert.match(elsewhereNotice(6), /read-only/);
  assert.match(elsewhereNotice(6), /take it over/);
  assert.match(elsewhereNotice(1), /^A chat/);
});

test('a window lets go only of a chat it holds, for another live window', () => {
  const me = { pid: 1, token: 'one' };
  const alive = (pid: number) => pid !== 9;
  assert.equal(honoursHandoff({ pid: 2, token: 'two' }, me, true, alive), true);
  assert.equal(honoursHandoff({ pid: 2, token: 'two' }, me, false, alive), false, 'not held here');
  assert.equal(honoursHandoff(undefined, me, true, alive), false, 'nobody asks');
  assert.equal(honoursHandoff({ pid: 1, token: 'one' }, me, true, alive), false, 'our own request');
  assert.equal(honoursHandoff({ pid: 1, token: 'another' }, me, true, alive), true, 'another window of the same process (tests)');
  assert.equal(honoursHandoff({ pid: 9, token: 'gone' }, me, true, alive), false, 'the asker went away');
});

test('a request is answered once, a stale or torn one never, and only the asker withdraws it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'handoff-'));
  const alive = (pid: number) => pid !== 9;
  const holder = new ChatHandoffs(dir, { pid: 1, token: 'one' }, alive);
  const asker = new ChatHandoffs(dir, { pid: 2, token: 'two' }, alive);
  asker.request('c1');
  assert.deepEqual(holder.asked(['c1', 'c2']), ['c1']);
  assert.deepEqual(holder.asked(['c1', 'c2']), [], 'the same request is not answered twice');
  holder.withdraw('c1');
  assert.ok(existsSync(path.join(dir, `c1${HANDOFF_EXT}`)), 'the holder cannot withdraw another window’s request');
  asker.withdraw('c1');
  assert.ok(!existsSync(path.join(dir, `c1${HANDOFF_EXT}`)));
  new ChatHandoffs(dir, { pid: 9, token: 'gone' }, alive).request('c2');
  writeFileSync(path.join(dir, `c3${HANDOFF_EXT}`), '{"pid":');
  assert.deepEqual(holder.asked(['c2', 'c3']), [], 'a request by a window that went away, or torn, is not answered');
});

test('take over: the second window reads a copy without taking the chat, asks, the first lets go, the second has every message', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'take-over-'));
  const w1 = await FilePersistence.create(dir, () => undefined, { pid: 1, token: 'one', alive: () => true });
  const w2 = await FilePersistence.create(dir, () => undefined, { pid: 2, token: 'two', alive: () => true });
  const { store } = w1.restore(CHAT, () => undefined);
  wire.forEach(([d, msg], i) => w1.append(CHAT, d, msg, store.ingest(d, msg, i + 1), i + 1));
  await w1.flush();
  assert.equal((await w2.prepare(CHAT)).ok, false);

  const copy = await w2.peek(CHAT);
  assert.equal(copy?.session('sess_9')?.entries.length, 1, 'the read-only copy shows the saved messages');
  assert.equal(w2.holderOf(CHAT).ok, false, 'reading a copy takes nothing');
  assert.equal(await w2.peek('chat-none-zzzzzz'), undefined);

  const asked: string[] = [];
  const watch = w1.watchHandoffs((id) => {
    asked.push(id);
    void w1.release(id);
  });
  w2.requestHandoff(CHAT);
  await until(async () => (await w2.prepare(CHAT)).ok, 'the first window to let go', 10_000);
  w2.withdrawHandoff(CHAT);
  watch.dispose();
  assert.deepEqual(asked, [CHAT], 'asked once, by chat id');
  assert.ok(!existsSync(path.join(dir, `${CHAT}${HANDOFF_EXT}`)), 'the request is gone once taken');
  assert.equal(w2.restore(CHAT, () => undefined).store.session('sess_9')?.entries.length, 1, 'the new holder has every message');
  assert.equal((await w1.prepare(CHAT)).ok, false, 'and the first window is now the one refused');
  await Promise.all([w1.close(), w2.close()]);
});
