// Which session a chat is attached to has one owner: the store (`MessageStore.attach`), written only by
// the chat's connection when it attaches or the user switches sessions, and saved in the chat's own
// journal. A reload reattaches the session the chat last showed, not the session created last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/node/chat/chatController';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { sessionToAttach } from '../../../src/node/chat/chatPersistence';
import { MessageStore } from '../../../src/common/store';
import { storeWithSession } from '../../../src/common/store/extract';
import { openedSessionState } from '../../../src/common/chats/chatState';
import { StoreJournal } from '../../../src/node/persistence/journal';
import { inProcessDemoAgent, chatOptions } from './harness';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'attached-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A chat wired to its saved state the way chatFactory wires it. */
function chat(persistence: FilePersistence, listed: string | null): ChatController {
  const restored = persistence.restore('chat', () => undefined);
  return new ChatController(
    chatOptions({
      connect: inProcessDemoAgent().connect,
      store: restored.store,
      restoredSessionId: sessionToAttach(restored, listed),
      sinks: {
        capture: () => undefined,
        persist: (dir, msg, changes, seq) => persistence.append('chat', dir, msg, changes, seq),
        attached: (sid) => persistence.attach('chat', sid),
      },
    }),
  );
}

test('chat on A, New Session (B), Open Session A, reload: the chat reattaches A', async () => {
  await withDir(async (dir) => {
    const p1 = await FilePersistence.create(dir, () => undefined);
    const live = chat(p1, null);
    await live.start();
    live.prompt('hello');
    await live.whenIdle();
    const a = live.sessionId!;
    await live.door.newSession();
    const b = live.sessionId!;
    assert.notEqual(a, b);
    await live.door.openSession(a);
    assert.equal(live.sessionId, a);
    await live.door.listSessions(); // a round trip, so the demo's notifications are in before we close
    live.dispose();
    await p1.close(); // the window closes: everything written, the chat's lock let go

    const p2 = await FilePersistence.create(dir, () => undefined);
    assert.ok((await p2.prepare('chat')).ok, 'the reloaded window takes the chat');
    assert.equal(p2.restore('chat', () => undefined).sessionId, a, 'the saved chat is attached to A');
    // The chat list's cache of the session may still name B (it is written on changes): the chat's own record wins.
    const reloaded = chat(p2, b);
    assert.equal(reloaded.sessionId, a);
    reloaded.dispose();
  });
});

test('a chat opened on a chosen session starts attached to it in its own saved state, the chat list not needed', async () => {
  await withDir(async (dir) => {
    const p1 = await FilePersistence.create(dir, () => undefined);
    p1.seed('chat', openedSessionState('chosen'));
    assert.equal(p1.restore('chat', () => undefined).sessionId, 'chosen', 'restored attached, with no session loaded yet');
    await p1.close();
    const p2 = await FilePersistence.create(dir, () => undefined);
    assert.ok((await p2.prepare('chat')).ok);
    const restored = p2.restore('chat', () => undefined);
    assert.equal(restored.sessionId, 'chosen', 'a reload before the chat ever ran still attaches it');
    assert.equal(sessionToAttach(restored, null), 'chosen');
    await p2.close();
  });
});

test('the attached session survives compaction, and a journal with only an attach record', async () => {
  await withDir(async (dir) => {
    const { store, journal } = await StoreJournal.open(dir, 'j');
    store.attach('A');
    journal.appendAttach('A');
    await journal.compact(store);
    store.attach('B');
    journal.appendAttach('B');
    await journal.dispose();
    const back = await StoreJournal.open(dir, 'j');
    assert.deepEqual(back.diagnostics, []);
    assert.equal(back.store.attachedSessionId(), 'B');
    back.store.attach(null);
    back.journal.appendAttach(null);
    await back.journal.compact(back.store);
    await back.journal.dispose();
    assert.equal((await StoreJournal.open(dir, 'j')).store.attachedSessionId(), null);
  });
});

test('which session a restored chat reattaches: its store, else the chat list, else the last session of an older save', () => {
  const older = MessageStore.fromJSON({
    format: 'acp-chat/store',
    version: 1,
    protocolVersion: 1,
    sessions: [],
    pending: { 'client->agent': [], 'agent->client': [] },
    diagnostics: [],
  });
  assert.deepEqual(older.diagnostics, []);
  assert.equal(older.store.attachedSessionId(), null, 'a save from before attach records has none');
  const store = new MessageStore();
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } });
  store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 'last' } });
  assert.equal(sessionToAttach({ store, sessionId: null }, null), 'last');
  assert.equal(sessionToAttach({ store, sessionId: null }, 'listed'), 'listed');
  assert.equal(sessionToAttach({ store, sessionId: 'recorded' }, 'listed'), 'recorded');
  // A fork's chat starts attached to the fork.
  assert.equal(storeWithSession(store, 'last').attachedSessionId(), 'last');
});
