// Following the chat list another window writes: its new chats, titles and archives are taken, a chat this
// window holds keeps its record, a chat deleted there goes, and a missing or damaged list changes nothing.
// Then two FilePersistence instances on one folder (two windows): one's write reaches the other's watcher.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatIndex, type ChatRecord } from '../../../src/common/chats/chatIndex';
import { followChatList, followInto } from '../../../src/common/chats/chatIndexFollow';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { followIndexFile, type IndexMine } from '../../../src/node/persistence/indexWatch';
import { until } from '../../helpers/until.mjs';

const rec = (id: string, over: Partial<ChatRecord> = {}): ChatRecord => ({ id, agentId: 'demo', title: null, sessionId: null, createdAt: 1, updatedAt: 1, ...over });
const file = (...chats: ChatRecord[]) => ({ version: 1, chats, focused: [] });
const mine = (...chats: ChatRecord[]) => new Map(chats.map((c) => [c.id, c]));
const nobody = () => false;

test('a chat made in another window is taken, and its title once that window writes it', () => {
  const a = rec('chat-a');
  const made = followChatList(mine(a), file(a, rec('chat-b')), nobody);
  assert.deepEqual(
    made.set.map((r) => r.id),
    ['chat-b'],
  );
  const titled = followChatList(mine(a, rec('chat-b')), file(a, rec('chat-b', { title: 'Fix the parser' })), nobody);
  assert.deepEqual(
    titled.set.map((r) => r.title),
    ['Fix the parser'],
  );
  assert.deepEqual(titled.removed, []);
});

test('the same records, their keys in another order, change nothing', () => {
  const a = rec('chat-a', { archived: true });
  const reordered = Object.fromEntries(Object.entries(a).reverse()) as ChatRecord;
  assert.deepEqual(followChatList(mine(a), file(reordered), nobody), { set: [], removed: [] });
});

test('a chat this window holds keeps its record; one it used later than the file keeps it too', () => {
  const held = rec('chat-held', { title: 'mine' });
  const later = rec('chat-later', { updatedAt: 50, title: 'here' });
  const f = followChatList(
    mine(held, later),
    file(rec('chat-held', { title: 'theirs', updatedAt: 99 }), rec('chat-later', { updatedAt: 40, title: 'there' })),
    (id) => id === 'chat-held',
  );
  assert.deepEqual(f, { set: [], removed: [] });
});

test('a chat the file no longer lists was deleted elsewhere: it goes, unless this window holds it', () => {
  const f = followChatList(mine(rec('chat-a'), rec('chat-gone'), rec('chat-held')), file(rec('chat-a')), (id) => id === 'chat-held');
  assert.deepEqual(f.removed, ['chat-gone']);
});

test('a missing, unreadable or partly unreadable list changes nothing (it must not empty the list)', () => {
  const here = mine(rec('chat-a'), rec('chat-b'));
  for (const raw of [undefined, null, { version: 2 }, 'text', { version: 1, chats: [rec('chat-a'), { id: 7 }], focused: [] }])
    assert.deepEqual(followChatList(here, raw, nobody), { set: [], removed: [] }, JSON.stringify(raw));
});

test('followInto: takes the changes, says which chats, saves nothing, and moves focus off a deleted chat', () => {
  const index = new ChatIndex({ chats: [rec('chat-a'), rec('chat-b')], focused: ['chat-b', 'chat-a'] });
  let saves = 0;
  const followed: (readonly string[])[] = [];
  const focus: (string | undefined)[] = [];
  index.onDidChange(() => saves++);
  index.onDidFollow((ids) => followed.push(ids));
  index.onDidChangeFocus((id) => focus.push(id));
  const ids = followInto(index, file(rec('chat-a', { archived: true }), rec('chat-c')), nobody);
  assert.deepEqual([...ids].sort(), ['chat-a', 'chat-b', 'chat-c']);
  assert.equal(index.get('chat-a')?.archived, true);
  assert.ok(index.has('chat-c') && !index.has('chat-b'));
  assert.equal(saves, 0, 'what the file says is not written back');
  assert.equal(followed.length, 1);
  assert.deepEqual(focus, ['chat-a']);
  assert.deepEqual(followInto(index, file(rec('chat-a', { archived: true }), rec('chat-c')), nobody), [], 'the same list again: nothing');
  assert.equal(followed.length, 1);
});

test('two windows on one chats folder: a write by one reaches the other, which takes it in', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'follow-'));
  writeFileSync(path.join(dir, 'chats.json'), JSON.stringify(file(rec('chat-a'))));
  const one = await FilePersistence.create(dir, () => undefined, { pid: process.pid, token: 'one' });
  const two = await FilePersistence.create(dir, () => undefined, { pid: process.pid, token: 'two' });
  const index = new ChatIndex(file(rec('chat-a')));
  const own: unknown[] = [];
  const watching = two.watchIndex((raw) => followInto(index, raw, nobody));
  const mineToo = one.watchIndex((raw) => own.push(raw));
  try {
    one.writeIndex(file(rec('chat-a'), rec('chat-new', { title: 'Made in window one' })));
    await until(() => index.get('chat-new')?.title === 'Made in window one', 'window two taking the chat window one made', 5_000);
    two.writeIndex(file(rec('chat-a'), rec('chat-two')));
    await until(() => own.some((raw) => (raw as { chats: ChatRecord[] }).chats.some((c) => c.id === 'chat-two')), 'window one following window two', 5_000);
    const last = (own.at(-1) as { chats: ChatRecord[] }).chats.map((c) => c.id).sort();
    assert.deepEqual(last, ['chat-a', 'chat-new', 'chat-two'], "window two's write kept window one's chat");
  } finally {
    watching.dispose();
    mineToo.dispose();
    await one.close();
    await two.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a window opened before the workspace had any chat (no chats folder yet) still follows the list another window writes', async () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'follow-')), 'sessions');
  const first = await FilePersistence.create(dir, () => undefined, { pid: process.pid, token: 'first' });
  const logs: string[] = [];
  const index = new ChatIndex(first.chatList());
  const watching = first.watchIndex((raw) => followInto(index, raw, nobody));
  const second = await FilePersistence.create(dir, (m) => logs.push(m), { pid: process.pid, token: 'second' });
  try {
    second.writeIndex(file(rec('chat-later', { title: 'Made in the second window' })));
    await until(
      () => index.get('chat-later')?.title === 'Made in the second window',
      () => `the first window did not take the chat in (${logs.join('; ')})`,
      5_000,
    );
  } finally {
    watching.dispose();
    await first.close();
    await second.close();
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }
});

test("a list read while this window's newer write is still on its way is not followed (it lacks that write's new chat)", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'follow-'));
  const list = path.join(dir, 'chats.json');
  writeFileSync(list, JSON.stringify(file(rec('chat-a'))));
  const mine: IndexMine = { queued: 1, text: undefined };
  // The first wait ends as the writes it waited for land, but a new chat's write was queued meanwhile; it lands later.
  let newer: Promise<void> | undefined;
  const settled = (): Promise<void> => {
    if (newer) return newer;
    mine.queued++;
    newer = new Promise<void>((resolve) => setTimeout(resolve, 100)).then(() => writeFileSync(list, JSON.stringify(file(rec('chat-a'), rec('chat-new')))));
    return Promise.resolve();
  };
  const seen: string[][] = [];
  const following = followIndexFile(
    dir,
    { settled, mine },
    (raw) => seen.push((raw as { chats: ChatRecord[] }).chats.map((c) => c.id)),
    () => undefined,
  );
  try {
    writeFileSync(list, JSON.stringify(file(rec('chat-a'), rec('chat-b')))); // another window's write: the read this test is about
    await until(() => seen.length > 0, 'the list followed', 5_000);
    assert.deepEqual(seen[0], ['chat-a', 'chat-new'], 'the list as it was after the newer write, not before it');
  } finally {
    following.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
