// Chats are kept where every window of a workspace finds them: one identity per workspace whatever the
// spelling of its path (platform injected), chats of older storage folders moved in once, and one window
// at a time per chat (a lock that a crashed window does not keep).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { normalLocation, pathsIgnoreCase, workspaceIdentity, workspaceJsonLocation } from '../../../src/common/chats/workspaceIdentity';
import { mergeChatIndex, type ChatRecord } from '../../../src/common/chats/chatIndex';
import { ChatLocks } from '../../../src/node/persistence/chatLock';
import { chatHome, chatHomeDir, legacySessionDirs, moveChatsHome, MOVED_FILE } from '../../../src/node/persistence/chatHome';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import type { Direction } from '../../../src/common/store';

test('one workspace, one identity: path spellings, folder order and the platform’s case rule', () => {
  const win = pathsIgnoreCase('win32');
  assert.equal(win, true);
  assert.equal(pathsIgnoreCase('darwin'), true);
  assert.equal(pathsIgnoreCase('linux'), false);
  assert.equal(normalLocation('C:\\Users\\Ann\\Proj\\', true), 'c:/users/ann/proj');
  assert.equal(normalLocation('c:/users/ann/proj', true), 'c:/users/ann/proj');
  assert.equal(normalLocation('/home/ann/Proj/', false), '/home/ann/Proj');
  assert.notEqual(normalLocation('/home/ann/Proj', false), normalLocation('/home/ann/proj', false), 'Linux tells case apart');
  assert.equal(normalLocation('/', false), '/');
  assert.equal(normalLocation('C:\\', true), 'c:/');
  assert.equal(normalLocation('VSCODE-VFS://GitHub/owner/Repo%20X/', false), 'vscode-vfs://github/owner/Repo X');

  const a = workspaceIdentity({ folders: ['C:\\Work\\A', 'D:\\B\\'] }, true);
  const b = workspaceIdentity({ folders: ['d:/b', 'c:/work/a', 'C:/Work/A'] }, true);
  assert.equal(a, b, 'order, duplicates, slashes and case do not matter on Windows');
  assert.notEqual(workspaceIdentity({ folders: ['/w/A'] }, false), workspaceIdentity({ folders: ['/w/a'] }, false));
  assert.equal(workspaceIdentity({ folders: [] }, false), undefined, 'an empty window has no workspace');
  assert.notEqual(workspaceIdentity({ workspaceFile: '/w/x.code-workspace', folders: ['/w'] }, false), workspaceIdentity({ folders: ['/w'] }, false));
  assert.equal(
    workspaceIdentity({ workspaceFile: '/w/x.code-workspace', folders: ['/w'] }, false),
    workspaceIdentity({ workspaceFile: '/w/x.code-workspace', folders: ['/w', '/v'] }, false),
    'a workspace file is its identity, whatever folders it lists',
  );

  assert.deepEqual(
    workspaceJsonLocation({ folder: 'file:///w' }, (u) => u.replace('file://', '')),
    { folders: ['/w'] },
  );
  assert.deepEqual(
    workspaceJsonLocation({ workspace: 'file:///w/x.code-workspace' }, (u) => u.replace('file://', '')),
    { workspaceFile: '/w/x.code-workspace', folders: [] },
  );
  assert.equal(
    workspaceJsonLocation({ other: 1 }, (u) => u),
    undefined,
  );
  assert.equal(
    workspaceJsonLocation('nope', (u) => u),
    undefined,
  );

  assert.equal(chatHomeDir('/g', a), chatHomeDir('/g', b));
  assert.equal(chatHomeDir('/g', undefined), path.join('/g', 'sessions'));
});

const record = (id: string, updatedAt: number, title: string | null = null): ChatRecord => ({ id, agentId: 'demo', title, sessionId: null, createdAt: 0, updatedAt });

test('two chat lists merge: both sides kept, the record used last wins, deleted chats stay deleted', () => {
  const mine = { version: 1 as const, chats: [record('a', 5, 'mine'), record('b', 1, 'old')], focused: ['a'] };
  const theirs = { version: 1, chats: [record('b', 9, 'newer'), record('c', 2), record('gone', 3)], focused: ['c', 'gone', 'a'] };
  const merged = mergeChatIndex(mine, theirs, new Set(['gone']));
  const byId = new Map(merged.chats.map((c) => [c.id, c]));
  assert.deepEqual([...byId.keys()].sort(), ['a', 'b', 'c']);
  assert.equal(byId.get('a')?.title, 'mine');
  assert.equal(byId.get('b')?.title, 'newer');
  assert.deepEqual(merged.focused, ['a', 'c']);
  assert.deepEqual(
    mergeChatIndex(mine, undefined).chats.map((c) => c.id),
    ['a', 'b'],
    'nothing on disk yet',
  );
});

test('a chat lock: one holder; a second window is refused and told who; a crashed holder’s lock is taken over', () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'locks-')), 'not yet made');
  const alive = new Set([100, 200]);
  const one = new ChatLocks(dir, { pid: 100, token: 'w1' }, (pid) => alive.has(pid));
  const two = new ChatLocks(dir, { pid: 200, token: 'w2' }, (pid) => alive.has(pid));
  assert.deepEqual(one.acquire('chat-a', 42), { ok: true });
  assert.deepEqual(one.acquire('chat-a'), { ok: true }, 'taking it again is fine');
  assert.deepEqual(two.acquire('chat-a'), { ok: false, holder: { pid: 100, token: 'w1', since: 42 } });
  assert.equal(two.holderOf('chat-a')?.pid, 100);
  assert.equal(one.holderOf('chat-a'), undefined, 'not held by another');
  one.release('chat-a');
  assert.deepEqual(two.acquire('chat-a'), { ok: true }, 'free once released');
  alive.delete(200); // window two crashed, its lock file stays
  assert.ok(existsSync(path.join(dir, 'chat-a.lock')));
  assert.deepEqual(one.acquire('chat-a'), { ok: true }, 'a dead process holds nothing');
  two.release('chat-a'); // a late release by the old holder must not free the new holder's lock
  assert.equal(new ChatLocks(dir, { pid: 300, token: 'w3' }, (pid) => alive.has(pid)).acquire('chat-a').ok, false);
  writeFileSync(path.join(dir, 'chat-b.lock'), '{"pid":');
  assert.deepEqual(two.acquire('chat-b'), { ok: true }, 'a torn lock file is stale');
  one.releaseAll();
  assert.ok(!existsSync(path.join(dir, 'chat-a.lock')));
});

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

/** A sessions folder as a window of an earlier version left it: one chat with a journal and the list. */
async function oldWindow(sessions: string, chatId: string, title: string): Promise<void> {
  const p = await FilePersistence.create(sessions, () => undefined);
  const { store } = p.restore(chatId, () => undefined);
  wire.forEach(([d, msg], i) => p.append(chatId, d, msg, store.ingest(d, msg, i + 1), i + 1));
  p.writeIndex({ version: 1, chats: [{ ...record(chatId, 10, title) }], focused: [chatId] });
  await p.close();
}

test('chats of every storage folder VS Code used for the workspace are found and moved home once', async () => {
  const user = mkdtempSync(path.join(tmpdir(), 'vscode-user-'));
  const ws = path.join(user, 'workspaceStorage');
  const global = path.join(user, 'globalStorage', 'acp.acp-chat');
  const project = path.join(user, 'project');
  mkdirSync(project);
  const folder = (name: string) => path.join(ws, name, 'acp.acp-chat');
  // The usual folder, the `-1` one VS Code gave while the usual was locked, one the folder had under
  // another path (workspace.json names it), and an unrelated workspace's.
  await oldWindow(path.join(folder('abc'), 'sessions'), 'chat-k1-aaaaaa', 'first');
  await oldWindow(path.join(folder('abc-1'), 'sessions'), 'chat-k2-bbbbbb', 'second');
  await oldWindow(path.join(folder('zzz'), 'sessions'), 'chat-k3-cccccc', 'third');
  writeFileSync(path.join(ws, 'zzz', 'workspace.json'), JSON.stringify({ folder: `file://${project}` }));
  await oldWindow(path.join(folder('other'), 'sessions'), 'chat-k4-dddddd', 'not ours');
  writeFileSync(path.join(ws, 'other', 'workspace.json'), JSON.stringify({ folder: 'file:///elsewhere' }));

  const inputs = { globalStorage: global, storage: folder('abc-1'), location: { folders: [project] }, platform: 'linux' };
  const logs: string[] = [];
  const home = await chatHome(inputs, (m) => logs.push(m));
  assert.equal(home.moved, 3, logs.join('\n'));
  assert.equal(home.recovered, 2, 'two came from folders this window could not see');
  const p = await FilePersistence.create(home.dir, () => undefined);
  assert.deepEqual([...p.savedIds()].sort(), ['chat-k1-aaaaaa', 'chat-k2-bbbbbb', 'chat-k3-cccccc']);
  const titles = (p.readIndex() as { chats: ChatRecord[] }).chats.map((c) => c.title).sort();
  assert.deepEqual(titles, ['first', 'second', 'third']);
  assert.deepEqual(await p.prepare('chat-k1-aaaaaa'), { ok: true });
  const restored = p.restore('chat-k1-aaaaaa', () => undefined);
  assert.equal(restored.store.session('sess_9')?.entries.length, 1, 'the transcript came along');
  await p.close();

  // The other window (the usual folder) finds the same home, and nothing is moved twice.
  const again = await chatHome({ ...inputs, storage: folder('abc') }, () => undefined);
  assert.equal(again.dir, home.dir);
  assert.equal(again.moved, 0);
  assert.ok(existsSync(path.join(folder('abc'), 'sessions', MOVED_FILE)));
  assert.ok(existsSync(path.join(folder('abc'), 'sessions', 'chat-k1-aaaaaa.journal.ndjson')), 'the old files are left in place');
  assert.deepEqual(
    await legacySessionDirs({
      storage: folder('abc'),
      identity: workspaceIdentity({ folders: [project] }, false)!,
      ignoreCase: false,
      uriToPath: async (u) => u.replace('file://', ''),
    }),
    [],
    'every folder of the workspace is marked; the unrelated one is not ours',
  );
});

test('moving a folder in keeps the home’s copy of a chat both have, and merges the lists', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'move-'));
  const home = path.join(root, 'home');
  const from = path.join(root, 'old');
  await oldWindow(home, 'chat-k1-aaaaaa', 'home copy');
  await oldWindow(from, 'chat-k1-aaaaaa', 'old copy');
  writeFileSync(path.join(from, 'chat-k1-aaaaaa.terminals.json'), '{}');
  assert.deepEqual(await moveChatsHome(from, home, () => undefined), []);
  assert.ok(!readdirSync(home).includes('chat-k1-aaaaaa.terminals.json'), 'no part of the old copy mixes in');
  const list = JSON.parse(readFileSync(path.join(home, 'chats.json'), 'utf8')) as { chats: ChatRecord[] };
  assert.deepEqual(
    list.chats.map((c) => c.title),
    ['home copy'],
  );
});

test('two windows share the chats folder: a chat is written by one; the other is refused until it lets go', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'two-windows-'));
  const w1 = await FilePersistence.create(dir, () => undefined, { pid: 1, token: 'one', alive: () => true });
  const w2 = await FilePersistence.create(dir, () => undefined, { pid: 2, token: 'two', alive: () => true });
  const { store } = w1.restore('chat-k1-aaaaaa', () => undefined);
  wire.forEach(([d, msg], i) => w1.append('chat-k1-aaaaaa', d, msg, store.ingest(d, msg, i + 1), i + 1));
  w1.writeIndex({ version: 1, chats: [record('chat-k1-aaaaaa', 1, 'from one')], focused: [] });
  w2.writeIndex({ version: 1, chats: [record('chat-k2-bbbbbb', 1, 'from two')], focused: [] });
  await Promise.all([w1.flush(), w2.flush()]);
  const refused = await w2.prepare('chat-k1-aaaaaa');
  assert.equal(refused.ok, false);
  assert.equal(refused.ok === false && refused.holder.pid, 1);
  assert.equal(w2.holderOf('chat-k1-aaaaaa').ok, false);
  assert.throws(() => w2.restore('chat-k1-aaaaaa', () => undefined), /not opened/);
  await w1.release('chat-k1-aaaaaa');
  assert.deepEqual(await w2.prepare('chat-k1-aaaaaa'), { ok: true });
  assert.equal(w2.restore('chat-k1-aaaaaa', () => undefined).store.session('sess_9')?.entries.length, 1, 'the other window sees every message');
  const list = JSON.parse(readFileSync(path.join(dir, 'chats.json'), 'utf8')) as { chats: ChatRecord[] };
  assert.deepEqual(list.chats.map((c) => c.title).sort(), ['from one', 'from two'], 'neither window’s list write lost the other’s chat');
  await Promise.all([w1.close(), w2.close()]);
});
