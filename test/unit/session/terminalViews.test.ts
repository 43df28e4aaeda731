// A chat's terminal views, notices and Changes survive a reload: the store holds them and the chat's
// journal saves them (no side file); a chat saved by an older version (side files beside the journal)
// is migrated once and its side files deleted; a damaged side file costs only itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilePersistence } from '../../../src/node/chat/filePersistence';
import { ChatController } from '../../../src/node/chat/chatController';
import type { Direction } from '../../../src/common/store';
import type { ClientEvent } from '../../../src/common/store/clientEvents';
import { parseSavedTerminals } from '../../../src/common/savedTerminals';
import { NodeTerminalHost } from '../../../src/node/terminals';
import { chatOptions } from './harness';

const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }],
  ['agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } }],
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 'sess_9' } }],
];
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A chat with a journal (what a chat that ran a terminal always has). */
async function savedChat(dir: string, chatId: string) {
  const p = await FilePersistence.create(dir, () => undefined);
  const { store } = p.restore(chatId, () => undefined);
  wire.forEach(([d, msg], i) => p.append(chatId, d, msg, store.ingest(d, msg, i + 1), i + 1));
  store.attach('sess_9'); // as the chat's connection records it
  p.attach(chatId, 'sess_9');
  return { p, store };
}

/** Another window opening the folder and taking the chat (the earlier instance closed first). */
async function reopen(dir: string, chatId: string, log: (m: string) => void = () => undefined): Promise<FilePersistence> {
  const p = await FilePersistence.create(dir, log);
  assert.deepEqual(await p.prepare(chatId), { ok: true });
  return p;
}

test('terminal output, notices and Changes a chat recorded come back after a reload, from the journal alone', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  const { p: p1, store } = await savedChat(dir, 'chat 1');
  // The live chat records client events through its session; its sink journals them.
  const session = new ChatController(
    chatOptions({
      connect: async () => assert.fail('not started'),
      store,
      restoredSessionId: 'sess_9',
      sinks: { capture: () => undefined, persist: () => undefined, recorded: (e: ClientEvent) => p1.record('chat 1', e) },
    }),
  );
  session.terminalEvent('term-a-1', 'line 1\n');
  session.terminalEvent('term-a-1', 'ok ✓\n', { exitCode: 0, signal: null });
  session.terminalEvent('term-a-2', 'still going\n'); // ours (v1), running at the reload: its process went with the window
  const v2: [Direction, unknown] = [
    'agent->client',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'sess_9', update: { sessionUpdate: 'terminal_output_chunk', terminalId: 'agent-t', data: b64('agent output\n') } },
    },
  ];
  p1.append('chat 1', v2[0], v2[1], store.ingest(v2[0], v2[1], 5), 5);
  session.recordChanges({ format: 'acp-chat/changes', version: 1, seq: 0, sets: [] });
  for (const notice of [
    { severity: 'warning', title: 'The turn stopped early.' },
    { severity: 'info', title: 'No answer for a while.', key: 'stall' },
  ]) {
    const e: ClientEvent = { event: 'notice', sessionId: 'sess_9', notice };
    store.record(e);
    p1.record('chat 1', e);
  }
  const live = session.snapshot().panel;
  assert.equal(live.notices.length, 2);
  session.dispose();
  await p1.close();
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'chats.json'),
    [],
    'no side file',
  );

  const warnings: string[] = [];
  const restored = (await reopen(dir, 'chat 1')).restore('chat 1', (m) => warnings.push(m));
  assert.deepEqual(warnings, []);
  const again = new ChatController(chatOptions({ connect: async () => assert.fail('not started'), store: restored.store, restoredSessionId: restored.sessionId }));
  const panel = again.snapshot().panel;
  assert.deepEqual(panel.terminals, {
    'term-a-1': { output: 'line 1\nok ✓\n', exited: true, exitCode: 0, signal: null, owner: 'client' },
    'term-a-2': { output: 'still going\n', exited: true, exitCode: null, signal: null, owner: 'client' },
    'agent-t': { output: 'agent output\n', exited: false, exitCode: null, signal: null, owner: 'agent' },
  });
  // The keyed notice spoke of the connection that went with the window; the agent's and the turn's stay.
  assert.deepEqual(
    panel.notices,
    live.notices.filter((n) => n.key === undefined),
  );
  assert.deepEqual(restored.store.changes(), { format: 'acp-chat/changes', version: 1, seq: 0, sets: [] });
  again.dispose();
});

test('a chat saved by an older version: its side files are read once into the journal, then deleted', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  await (await savedChat(dir, 'old')).p.close();
  const legacy = {
    format: 'acp-chat/terminals',
    version: 1,
    terminals: [
      { id: 't', owner: 'client', output: 'built\n', exited: true, exitCode: 0, signal: null },
      { id: 'r', owner: 'client', output: 'running', exited: false, exitCode: null, signal: null },
    ],
  };
  writeFileSync(path.join(dir, 'old.terminals.json'), JSON.stringify(legacy));
  writeFileSync(path.join(dir, 'old.changes.json'), JSON.stringify({ saved: 'changes' }));
  const warnings: string[] = [];
  const p = await reopen(dir, 'old');
  const restored = p.restore('old', (m) => warnings.push(m));
  assert.deepEqual(warnings, []);
  assert.deepEqual(restored.store.session('sess_9')!.terminals, {
    t: { output: 'built\n', exited: true, exitCode: 0, signal: null, owner: 'client' },
    r: { output: 'running', exited: true, exitCode: null, signal: null, owner: 'client' },
  });
  assert.deepEqual(restored.store.changes(), { saved: 'changes' });
  assert.ok(!existsSync(path.join(dir, 'old.terminals.json')) && !existsSync(path.join(dir, 'old.changes.json')), 'the side files are gone');
  await p.close();
  const back = (await reopen(dir, 'old')).restore('old', () => undefined);
  assert.deepEqual(back.store.session('sess_9')!.terminals, restored.store.session('sess_9')!.terminals, 'and the journal has them');
  assert.deepEqual(back.store.changes(), { saved: 'changes' });
});

test('a chat saved before terminal views existed restores with none and no complaint', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  await (await savedChat(dir, 'old')).p.close();
  const warnings: string[] = [];
  const restored = (await reopen(dir, 'old')).restore('old', (m) => warnings.push(m));
  assert.equal(restored.sessionId, 'sess_9');
  assert.deepEqual(restored.store.session('sess_9')!.terminals, {});
  assert.deepEqual(warnings, []);
});

test('a damaged side file costs only the terminals (reported); a bad terminal only itself', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  await (await savedChat(dir, 'c')).p.close();
  writeFileSync(path.join(dir, 'c.terminals.json'), '{"format":"acp-chat/terminals","vers');
  const warnings: string[] = [];
  const restored = (await reopen(dir, 'c')).restore('c', (m) => warnings.push(m));
  assert.equal(restored.sessionId, 'sess_9', 'the chat itself is restored');
  assert.deepEqual(restored.store.session('sess_9')!.terminals, {});
  assert.match(warnings.join('\n'), /terminals\.json is not JSON/);

  const parsed = parseSavedTerminals({
    format: 'acp-chat/terminals',
    version: 1,
    terminals: [
      { id: 'x', output: 7 },
      { id: 'y', output: 'ok', exited: true, exitCode: 'zero', owner: 'martian' },
    ],
  });
  assert.deepEqual(parsed.terminals, [{ id: 'y', output: 'ok', exited: true, exitCode: null, signal: null, owner: 'client' }]);
  assert.equal(parsed.problems.length, 1);
  assert.equal(parseSavedTerminals({ format: 'something else' }).problems.length, 1);
  assert.deepEqual(parseSavedTerminals(undefined), { terminals: [], problems: [] });
});

test('removing a chat deletes every file of it, an older version’s side files too', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  const { p } = await savedChat(dir, 'gone');
  p.record('gone', { event: 'terminal', sessionId: 'sess_9', terminalId: 't', append: 'x' });
  await p.flush();
  writeFileSync(path.join(dir, 'gone.changes.json'), '{}');
  await p.remove('gone');
  p.record('gone', { event: 'terminal', sessionId: 'sess_9', terminalId: 't', append: 'y' });
  await p.flush();
  assert.ok(!readdirSync(dir).some((f) => f.startsWith('gone.')));
});

test('terminal ids differ across hosts, so a new window never reuses a restored terminal’s id', async () => {
  const ids: string[] = [];
  for (const host of [new NodeTerminalHost({ defaultCwd: tmpdir() }), new NodeTerminalHost({ defaultCwd: tmpdir() })]) {
    ids.push((await host.create({ sessionId: 's', command: process.execPath, args: ['-e', ''] })).terminalId);
    host.dispose();
  }
  assert.notEqual(ids[0], ids[1]);
});
