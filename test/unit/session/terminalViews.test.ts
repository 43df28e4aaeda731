// A chat's terminal views (bounded tail + exit) survive a reload: saved beside its journal, restored into
// SessionTerminals and so into the panel's snapshot; a chat saved before they existed, or a damaged
// file, restores with no terminals (reported), never failing the chat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilePersistence } from '../../../src/vscode/filePersistence';
import { SessionTerminals } from '../../../src/vscode/sessionTerminals';
import { ChatSession } from '../../../src/vscode/chatSession';
import type { Direction } from '../../../src/common/store';
import { MAX_SAVED_TERMINAL_CHARS, parseSavedTerminals, terminalsToJSON, type SavedTerminal } from '../../../src/common/savedTerminals';
import { NodeTerminalHost } from '../../../src/node/terminals';
import { sessionOptions } from './harness';

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
  return p;
}


/** Another window opening the folder and taking the chat (the earlier instance closed first). */
async function reopen(dir: string, chatId: string, log: (m: string) => void = () => undefined): Promise<FilePersistence> {
  const p = await FilePersistence.create(dir, log);
  assert.deepEqual(await p.prepare(chatId), { ok: true });
  return p;
}

test('terminal views are saved with the chat and come back after a reload, in the panel snapshot', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  const p1 = await savedChat(dir, 'chat 1');
  const live = new SessionTerminals();
  live.event('term-a-1', 'line 1\n');
  live.event('term-a-1', 'ok ✓\n', { exitCode: 0, signal: null });
  live.event('term-a-2', 'still going\n'); // ours (v1), running at the reload: its process went with the window
  const v2 = live.fromWire('agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_9', update: { sessionUpdate: 'terminal_output_chunk', terminalId: 'agent-t', data: b64('agent output\n') } } }, 'sess_9');
  assert.ok(v2);
  live.event(...v2);
  p1.saveTerminals('chat 1', () => live.saved());
  await p1.close();
  assert.ok(readdirSync(dir).includes('chat_1.terminals.json'));

  const warnings: string[] = [];
  const restored = (await reopen(dir, 'chat 1')).restore('chat 1', (m) => warnings.push(m));
  assert.deepEqual(warnings, []);
  const session = new ChatSession(sessionOptions({ connect: async () => assert.fail('not started'), store: restored.store, restoredSessionId: restored.sessionId, restoredTerminals: restored.terminals }));
  assert.deepEqual(session.snapshot().panel.terminals, {
    'term-a-1': { output: 'line 1\nok ✓\n', exited: true, exitCode: 0, signal: null },
    'term-a-2': { output: 'still going\n', exited: true, exitCode: null, signal: null },
    'agent-t': { output: 'agent output\n', exited: false, exitCode: null, signal: null },
  });
  session.dispose();
});

test('a terminal event is handed to the save sink, which reads the views when it writes them', () => {
  let calls = 0;
  let latest: (() => readonly SavedTerminal[]) | undefined;
  const session = new ChatSession(sessionOptions({ connect: async () => assert.fail('not started'), sinks: { capture: () => undefined, persist: () => undefined, terminals: (saved) => (calls++, (latest = saved)) } }));
  session.terminalEvent('t1', 'a');
  session.terminalEvent('t1', 'b', { exitCode: 2, signal: null });
  assert.equal(calls, 2);
  assert.deepEqual(latest?.(), [{ id: 't1', owner: 'client', output: 'ab', exited: true, exitCode: 2, signal: null }]);
  session.dispose();
});

test('a chat closed and reopened in the same window gets the views as last saved, not as first read', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  const p = await savedChat(dir, 'c');
  const live = new SessionTerminals();
  live.event('t', 'first\n');
  p.saveTerminals('c', () => live.saved());
  live.event('t', 'second\n', { exitCode: 1, signal: null });
  assert.deepEqual(p.restore('c', () => undefined).terminals, [{ id: 't', owner: 'client', output: 'first\nsecond\n', exited: true, exitCode: 1, signal: null }]);
  await p.flush();
});

test('a chat saved before terminal views existed restores with none and no complaint', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  await (await savedChat(dir, 'old')).close();
  assert.ok(!existsSync(path.join(dir, 'old.terminals.json')));
  const warnings: string[] = [];
  const restored = (await reopen(dir, 'old')).restore('old', (m) => warnings.push(m));
  assert.equal(restored.sessionId, 'sess_9');
  assert.deepEqual(restored.terminals, []);
  assert.deepEqual(warnings, []);
});

test('a damaged terminal file costs only the terminals (reported); a bad terminal only itself', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  await (await savedChat(dir, 'c')).close();
  writeFileSync(path.join(dir, 'c.terminals.json'), '{"format":"acp-chat/terminals","vers');
  const warnings: string[] = [];
  const restored = (await reopen(dir, 'c')).restore('c', (m) => warnings.push(m));
  assert.equal(restored.sessionId, 'sess_9', 'the chat itself is restored');
  assert.deepEqual(restored.terminals, []);
  assert.match(warnings.join('\n'), /terminal views are not JSON/);

  const parsed = parseSavedTerminals({ format: 'acp-chat/terminals', version: 1, terminals: [{ id: 'x', output: 7 }, { id: 'y', output: 'ok', exited: true, exitCode: 'zero', owner: 'martian' }] });
  assert.deepEqual(parsed.terminals, [{ id: 'y', output: 'ok', exited: true, exitCode: null, signal: null, owner: 'client' }]);
  assert.equal(parsed.problems.length, 1);
  assert.equal(parseSavedTerminals({ format: 'something else' }).problems.length, 1);
  assert.deepEqual(parseSavedTerminals(undefined), { terminals: [], problems: [] });
});

test('the saved file keeps the newest terminals within its budget', () => {
  const big = 'x'.repeat(MAX_SAVED_TERMINAL_CHARS / 2);
  const t = (id: string): SavedTerminal => ({ id, owner: 'client', output: big, exited: true, exitCode: 0, signal: null });
  const parsed = parseSavedTerminals(terminalsToJSON([t('old'), t('mid'), t('new')]));
  assert.deepEqual(parsed.terminals.map((x) => x.id), ['mid', 'new']);
});

test('removing a chat deletes its terminal views; later changes do not write them again', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'terms-'));
  const p = await savedChat(dir, 'gone');
  const live = new SessionTerminals();
  live.event('t', 'x');
  p.saveTerminals('gone', () => live.saved());
  await p.flush();
  assert.ok(existsSync(path.join(dir, 'gone.terminals.json')));
  await p.remove('gone');
  p.saveTerminals('gone', () => live.saved());
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
