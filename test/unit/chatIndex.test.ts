// The chat index: history order, focus tracking (what "Open Chat" reveals and what the tree follows),
// tab titles that agent text cannot turn into icons or links, and a saved index that survives bad records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatIndex, chatTitle, chatToOpen, historyOrder, isChatId, newChatId, parseChatIndex, type ChatRecord, branchTree } from '../../src/common/chats/chatIndex';

const seq = (...xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length] ?? 0;
};

test('chats are created with unique file-safe ids; history is most recently used first', () => {
  const r = new ChatIndex();
  const a = r.create('demo', 1000, seq(0.5));
  const b = r.create('demo', 1000, seq(0.5, 0.25)); // the same random draw first: a fresh id is drawn
  assert.notEqual(a.id, b.id);
  assert.match(a.id, /^chat-[a-z0-9]+-[a-z0-9]{6}$/);
  const c = r.create('other', 2000);
  assert.equal(r.history()[0]?.id, c.id);
  assert.equal(r.history().length, 3);
  r.update(a.id, { updatedAt: 3000 });
  assert.equal(r.history()[0]?.id, a.id, 'used last: first in history');
  assert.equal(r.history()[1]?.id, c.id);
});

test('focus: the last focused chat wins; removing it falls back to the one before and says so', () => {
  const r = new ChatIndex();
  const a = r.create('demo', 1);
  const b = r.create('v2', 2);
  const seen: (string | undefined)[] = [];
  r.onDidChangeFocus((id) => seen.push(id));
  assert.equal(r.focused(), undefined);
  r.focus(a.id);
  r.focus(b.id);
  r.focus(b.id); // no change, no event
  assert.equal(r.focused(), b.id);
  r.remove(b.id);
  assert.equal(r.focused(), a.id);
  assert.deepEqual(seen, [a.id, b.id, a.id]);
  r.focus('nope');
  assert.equal(r.focused(), a.id, 'an unknown id cannot take focus');
});

test('lastFocused finds the most recently focused chat that fits', () => {
  const r = new ChatIndex();
  const a = r.create('demo', 1);
  const b = r.create('demo', 2);
  const c = r.create('v2', 3);
  r.focus(a.id);
  r.focus(c.id);
  r.focus(b.id);
  assert.equal(r.lastFocused(() => true)?.id, b.id);
  assert.equal(r.lastFocused((x) => x.id !== b.id)?.id, c.id);
  assert.equal(r.lastFocused((x) => x.agentId === 'demo' && x.id !== b.id)?.id, a.id);
  assert.equal(
    r.lastFocused((x) => x.agentId === 'none'),
    undefined,
  );
});

test('update fires only on a real change', () => {
  const r = new ChatIndex();
  const a = r.create('demo', 1);
  let fired = 0;
  r.onDidChange(() => fired++);
  r.update(a.id, { agentId: 'demo' });
  r.cacheTitle(a.id, null);
  assert.equal(fired, 0);
  r.cacheTitle(a.id, 'Refactor');
  assert.equal(fired, 1);
  assert.equal(r.cacheTitle('gone', 'x'), undefined);
});

test('tab titles: the session title, else "Chat N · agent" (no ids); agent text stays inert', () => {
  assert.equal(chatTitle({ title: null }, 'Demo', 3), 'Chat 3 · Demo');
  assert.equal(chatTitle({ title: '  ' }, 'Demo', 1), 'Chat 1 · Demo');
  assert.equal(chatTitle({ title: 'Fix the build' }, 'Demo', 2), 'Fix the build');
  const r = new ChatIndex();
  const a = r.create('demo', 10, () => 0.1);
  const b = r.create('demo', 20, () => 0.2);
  assert.deepEqual([r.ordinal(a.id), r.ordinal(b.id)], [1, 2]);
  r.cacheSession(a.id, 'sess_abcd1234');
  r.update(a.id, { updatedAt: 30 });
  assert.deepEqual([r.ordinal(a.id), r.ordinal(b.id)], [1, 2], 'the number does not change when a session opens or a chat is used');
  const hostile = chatTitle({ title: '$(alert) [see](command:evil)\nnext line' }, 'Demo', 1);
  assert.ok(!hostile.includes('\n'), 'no line breaks');
  assert.ok(hostile.startsWith('\\$(alert)'), 'icon syntax escaped');
  assert.ok(!hostile.includes(']('), 'no link syntax');
  assert.ok(chatTitle({ title: 'x'.repeat(500) }, 'Demo', 1).length <= 61);
});

test('the saved index round-trips; bad records are skipped and reported, a bad file starts afresh', () => {
  const r = new ChatIndex();
  const a = r.create('demo', 5);
  r.cacheSession(a.id, 's1');
  r.cacheTitle(a.id, 'T');
  r.focus(a.id);
  const json = JSON.parse(JSON.stringify(r.toJSON())) as unknown;
  const back = new ChatIndex(parseChatIndex(json, () => assert.fail('no warning expected')));
  assert.deepEqual(back.get(a.id), r.get(a.id));
  assert.equal(back.focused(), a.id);

  const warnings: string[] = [];
  const parsed = parseChatIndex({ version: 1, chats: [{ id: 'x' }, r.get(a.id), r.get(a.id), { ...r.get(a.id), id: 'y', createdAt: 'yes' }], focused: ['ghost', a.id] }, (m) =>
    warnings.push(m),
  );
  assert.deepEqual(
    parsed.chats.map((c) => c.id),
    [a.id, 'y'],
    'duplicate dropped; a bad optional field falls back',
  );
  assert.equal(parsed.chats[1]?.createdAt, 0);
  assert.deepEqual(parsed.focused, [a.id]);
  assert.equal(warnings.length, 1);
  assert.deepEqual(
    parseChatIndex({ version: 7 }, (m) => warnings.push(m)),
    { chats: [], focused: [] },
  );
  assert.equal(warnings.length, 2);
  assert.deepEqual(
    parseChatIndex(undefined, () => assert.fail()),
    { chats: [], focused: [] },
  );
});

test('historyOrder breaks ties by creation, newest first', () => {
  const mk = (id: string, createdAt: number, updatedAt: number): ChatRecord => ({ id, agentId: 'a', title: null, sessionId: null, createdAt, updatedAt });
  assert.deepEqual(
    historyOrder([mk('a', 1, 10), mk('b', 2, 10), mk('c', 0, 20)]).map((c) => c.id),
    ['c', 'b', 'a'],
  );
  assert.equal(
    newChatId(
      36,
      () => 0,
      () => false,
    ),
    'chat-10-000000',
  );
  assert.ok(isChatId(newChatId(Date.now(), Math.random, () => false)));
  assert.ok(!isChatId('demo') && !isChatId('chat-gpt'));
});

test('what "open chat" opens: by id, by agent session, a new one, else the focused chat or the agent\'s latest', () => {
  const r = new ChatIndex();
  const none = () => null;
  assert.deepEqual(chatToOpen(r, {}, 'demo', none), { kind: 'new' }, 'no chats yet: a new one');
  const a = r.create('demo', 1);
  const b = r.create('other', 2);
  r.cacheSession(a.id, 's-a');
  assert.deepEqual(chatToOpen(r, {}, 'demo', none), { kind: 'existing', record: r.get(a.id) }, "nothing focused: the agent's latest chat");
  r.focus(b.id);
  assert.deepEqual(chatToOpen(r, {}, 'demo', none), { kind: 'existing', record: r.get(b.id) }, 'the focused chat, whatever its agent');
  assert.deepEqual(chatToOpen(r, { newChat: true }, 'demo', none), { kind: 'new' });
  assert.deepEqual(chatToOpen(r, { chatId: 'gone' }, 'demo', none), { kind: 'missing' });
  assert.deepEqual(chatToOpen(r, { chatId: a.id }, 'demo', none), { kind: 'existing', record: r.get(a.id) });
  assert.deepEqual(chatToOpen(r, { sessionId: 's-a' }, 'demo', none), { kind: 'existing', record: r.get(a.id) }, 'the chat showing that session');
  assert.deepEqual(chatToOpen(r, { sessionId: 's-a' }, 'other', none), { kind: 'new', sessionId: 's-a' }, "another agent's session of that id is another session");
  assert.deepEqual(
    chatToOpen(r, { sessionId: 's-b' }, 'other', (id) => (id === b.id ? 's-b' : null)),
    { kind: 'existing', record: r.get(b.id) },
    "a running chat's current session counts",
  );
});

test('branches: saved with their origin, listed under their source (deeper for a branch of a branch), cycles not lost', () => {
  const mk = (id: string, updatedAt: number, from?: string): ChatRecord => ({
    id,
    agentId: 'a',
    title: null,
    sessionId: null,
    createdAt: updatedAt,
    updatedAt,
    origin: from ? { kind: 'forked', chatId: from, sessionId: 's', messageKey: 'k' } : null,
  });
  const chats = [mk('root', 1), mk('b1', 5, 'root'), mk('b2', 3, 'root'), mk('bb', 4, 'b2'), mk('other', 2), mk('orphan', 6, 'deleted'), mk('x', 7, 'y'), mk('y', 8, 'x')];
  const parsed = parseChatIndex({ version: 1, chats, focused: [] }, () => assert.fail('readable'));
  assert.deepEqual(parsed.chats.find((c) => c.id === 'b1')?.origin, { kind: 'forked', chatId: 'root', sessionId: 's', messageKey: 'k' });
  const old = parseChatIndex({ version: 1, chats: [{ id: 'c', agentId: 'a', title: null, sessionId: null, createdAt: 0, updatedAt: 0, open: false }], focused: [] }, () =>
    assert.fail(),
  );
  assert.equal(old.chats[0]?.origin ?? null, null, 'a list saved before branches reads as no origin');
  const tree = branchTree(parsed.chats).map((n) => `${'-'.repeat(n.depth)}${n.record.id}`);
  assert.deepEqual(
    tree.filter((t) => !['x', 'y', '-x', '-y'].includes(t)),
    ['orphan', 'other', 'root', '-b1', '-b2', '--bb'],
  );
  assert.equal(tree.filter((t) => t.endsWith('x') || t.endsWith('y')).length, 2, 'a cycle of origins still lists both chats once');
});

test('an archived chat leaves the lists (history, open chats, the last focused) and is listed by archived(); back when unarchived (issue 38, item 5)', () => {
  const index = new ChatIndex();
  const a = index.create('demo', 1);
  const b = index.create('demo', 2);
  index.focus(a.id);
  index.update(a.id, { archived: true });
  assert.deepEqual(
    index.history().map((c) => c.id),
    [b.id],
  );
  assert.equal(index.lastFocused(() => true)?.id, b.id, 'the archived chat is not what "open chat" reveals');
  assert.deepEqual(
    index.archived().map((c) => c.id),
    [a.id],
  );
  const saved = parseChatIndex(JSON.parse(JSON.stringify(index.toJSON())) as unknown, () => undefined);
  assert.equal(saved.chats.find((c) => c.id === a.id)?.archived, true, 'saved with the list');
  index.update(a.id, { archived: false });
  assert.deepEqual(index.archived(), []);
  assert.ok(index.history().some((c) => c.id === a.id));
});

test('a chat list saved by the previous version (with the dropped `open` flag) still loads, the flag ignored', () => {
  const saved = { version: 1, chats: [{ id: 'c', agentId: 'a', title: 'T', sessionId: 's1', createdAt: 1, updatedAt: 2, open: true }], focused: ['c'] };
  const parsed = parseChatIndex(saved, () => assert.fail('readable'));
  assert.deepEqual(parsed.chats, [{ id: 'c', agentId: 'a', title: 'T', sessionId: 's1', createdAt: 1, updatedAt: 2 }]);
  assert.deepEqual(parsed.focused, ['c']);
  // Its session id (written there by the opening then, a cache of the store's now) still finds the chat.
  const r = new ChatIndex(parsed);
  assert.equal(chatToOpen(r, { sessionId: 's1' }, 'a', () => null).kind, 'existing');
});
