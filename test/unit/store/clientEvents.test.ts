// The store owns everything the transcript shows: terminal output (v1 client events, v2 updates on the
// wire), notices and Changes summaries are reduced like wire messages, saved with the store, and come
// back from a capture, so `cli reduce` and a capture opened read-only show what the live panel showed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageStore, type Direction, type StoreDelta } from '../../../src/common/store';
import { CLIENT_EVENT_NOTE, type ClientEvent } from '../../../src/common/store/clientEvents';
import { MAX_SESSION_TERMINAL_CHARS, MAX_TERMINAL_CHARS } from '../../../src/common/store/terminalRules';
import { panelDeltasFor } from '../../../src/common/webview/panelDeltas';
import { main as reduceMain } from '../../../src/node/cli/reduce';

const wire: [Direction, unknown][] = [
  ['client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }],
  ['agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } }],
  ['client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }],
  ['agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's1' } }],
];
const b64 = (s: string) => Buffer.from(s).toString('base64');
const upd = (update: unknown): [Direction, unknown] => ['agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } }];

function started(): MessageStore {
  const store = new MessageStore();
  wire.forEach(([d, m], i) => store.ingest(d, m, i + 1));
  return store;
}

test('terminal output we run is reduced into the session: appended, exited, sent as small patches', () => {
  const store = started();
  const first = store.record({ event: 'terminal', sessionId: 's1', terminalId: 't1', append: 'line 1\n' });
  const second = store.record({ event: 'terminal', sessionId: 's1', terminalId: 't1', append: 'ok\n', exit: { exitCode: 0, signal: null } });
  assert.deepEqual(store.session('s1')!.terminals, { t1: { output: 'line 1\nok\n', exited: true, exitCode: 0, signal: null, owner: 'client' } });
  // The panel hears the chunk, not the whole terminal again.
  const panel = panelDeltasFor([...first, ...second], 's1', () => store.session('s1')).panel;
  assert.deepEqual(panel, [
    { type: 'terminal', sessionId: 's1', terminalId: 't1', append: 'line 1\n' },
    { type: 'terminal', sessionId: 's1', terminalId: 't1', append: 'ok\n', exit: { exitCode: 0, signal: null } },
  ]);
  assert.deepEqual(panelDeltasFor(first, 'other', undefined).panel, [], 'another session’s terminal is not shown');
});

test('terminal output is bounded: a tail per terminal, and the oldest terminals go beyond the session budget', () => {
  const store = started();
  store.record({ event: 'terminal', sessionId: 's1', terminalId: 'long', append: 'a'.repeat(MAX_TERMINAL_CHARS) });
  store.record({ event: 'terminal', sessionId: 's1', terminalId: 'long', append: 'END' });
  const out = store.session('s1')!.terminals['long']!.output;
  assert.equal(out.length, MAX_TERMINAL_CHARS);
  assert.ok(out.endsWith('aEND'));
  const n = Math.ceil(MAX_SESSION_TERMINAL_CHARS / MAX_TERMINAL_CHARS) + 2;
  for (let i = 0; i < n; i++) store.record({ event: 'terminal', sessionId: 's1', terminalId: `t${i}`, append: 'x'.repeat(MAX_TERMINAL_CHARS) });
  const views = store.session('s1')!.terminals;
  const total = Object.values(views).reduce((sum, v) => sum + v.output.length, 0);
  assert.ok(total <= MAX_SESSION_TERMINAL_CHARS, `${total} characters kept`);
  assert.ok(!('long' in views) && `t${n - 1}` in views, 'the oldest went, the newest stayed');
});

test('the agent’s v2 terminals are reduced from the wire', () => {
  const store = started();
  const changes = [
    upd({ sessionUpdate: 'terminal_output_chunk', terminalId: 'a1', data: b64('agent out\n') }),
    upd({ sessionUpdate: 'terminal_update', terminalId: 'a1', exitStatus: { exitCode: 3 } }),
  ].flatMap(([d, m]) => store.ingest(d, m));
  assert.deepEqual(store.session('s1')!.terminals, { a1: { output: 'agent out\n', exited: true, exitCode: 3, signal: null, owner: 'agent' } });
  assert.equal(changes.filter((c) => c.type === 'terminal').length, 2);
});

test('notices: repeats counted, keyed ones replaced and removed, all cleared; the agent’s notice updates too', () => {
  const store = started();
  const changes: StoreDelta[] = [];
  const rec = (e: ClientEvent) => changes.push(...store.record(e));
  rec({ event: 'notice', sessionId: 's1', notice: { severity: 'warning', title: 'A' } });
  rec({ event: 'notice', sessionId: 's1', notice: { severity: 'warning', title: 'A' } });
  rec({ event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'stalled', key: 'stall', actions: [{ id: 'keepWaiting', label: 'Keep waiting' }] } });
  rec({ event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'still stalled', key: 'stall' } });
  assert.deepEqual(
    store.notices('s1').map((n) => [n.title, n.count ?? 1]),
    [
      ['A', 2],
      ['still stalled', 1],
    ],
  );
  rec({ event: 'notice_removed', sessionId: 's1', key: 'stall' });
  assert.deepEqual(
    store.notices('s1').map((n) => n.title),
    ['A'],
  );
  store.ingest(...upd({ sessionUpdate: 'notice', severity: 'error', title: 'from the agent' }));
  assert.deepEqual(
    store.notices('s1').map((n) => n.title),
    ['A', 'from the agent'],
  );
  rec({ event: 'notices_cleared', sessionId: 's1' });
  assert.deepEqual(store.notices('s1'), []);
  rec({ event: 'notice', sessionId: null, notice: { severity: 'error', title: 'before any session' } });
  assert.equal(store.notices(null).length, 1);
  const last = panelDeltasFor(changes.slice(-2, -1), 's1', undefined).panel;
  assert.deepEqual(last, [{ type: 'panel', fields: { notices: [] } }], 'the panel hears the new list');
});

test('terminals, notices and Changes survive the saved form; a save from before them loads with none', () => {
  const store = started();
  store.record({ event: 'terminal', sessionId: 's1', terminalId: 't1', append: 'out\n' });
  store.record({ event: 'notice', sessionId: 's1', notice: { severity: 'warning', title: 'N' } });
  store.record({ event: 'changes', saved: { format: 'x', sets: [] } });
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.store.session('s1')!.terminals, store.session('s1')!.terminals);
  assert.deepEqual(back.store.notices('s1'), store.notices('s1'));
  assert.deepEqual(back.store.changes(), { format: 'x', sets: [] });
  const { notices: _n, changes: _c, ...older } = store.toJSON();
  const old = MessageStore.fromJSON({ ...older, sessions: older.sessions.map(({ terminals: _t, ...s }) => s) });
  assert.deepEqual(old.diagnostics, []);
  assert.deepEqual(old.store.session('s1')!.terminals, {});
  assert.deepEqual(old.store.notices('s1'), []);
});

test('cli reduce of a capture with a terminal shows its output and the notices', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reduce-'));
  const note = (event: ClientEvent) => ({ dir: 'note', msg: { text: CLIENT_EVENT_NOTE, event } });
  const lines = [
    ...wire.map(([dir, msg]) => ({ dir, msg })),
    note({ event: 'terminal', sessionId: 's1', terminalId: 't1', append: 'Hello from the terminal\n' }),
    note({ event: 'terminal', sessionId: 's1', terminalId: 't1', append: '', exit: { exitCode: 0, signal: null } }),
    note({ event: 'notice', sessionId: 's1', notice: { severity: 'warning', title: 'The turn stopped early.' } }),
    { dir: 'note', msg: { text: 'spawn' } },
  ];
  const file = path.join(dir, 'c.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    assert.equal(await reduceMain([file]), 0);
  } finally {
    process.stdout.write = write;
  }
  const r = JSON.parse(out) as { sessions: { terminals: Record<string, { output: string; exited: boolean }>; notices: { title: string }[] }[]; diagnostics: unknown[] };
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.sessions[0]!.terminals['t1']!.output, 'Hello from the terminal\n');
  assert.equal(r.sessions[0]!.terminals['t1']!.exited, true);
  assert.deepEqual(
    r.sessions[0]!.notices.map((n) => n.title),
    ['The turn stopped early.'],
  );
});

test('a notice read back from a capture or journal keeps every field, the entry it is about included', async () => {
  const { clientEventOfNote } = await import('../../../src/common/store/clientEvents');
  const notice = { severity: 'warning', title: 'Not delivered', key: 'undelivered', actions: [{ id: 'resend' as const, label: 'Resend' }], fill: 'hi', entryKey: 'e7' };
  const back = clientEventOfNote({ text: CLIENT_EVENT_NOTE, event: { event: 'notice', sessionId: 's', notice } });
  assert.deepEqual(back, { event: 'notice', sessionId: 's', notice });
});

test('a capture note names entries by place: the replaying store draws a notice under its own entry', () => {
  const store = started();
  store.ingest(...upd({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }), 5);
  const own = store.session('s1')!.entries[0]!.key;
  const note = (places?: unknown) =>
    JSON.stringify({
      dir: 'note',
      msg: {
        text: CLIENT_EVENT_NOTE,
        event: { event: 'notice', sessionId: 's1', notice: { severity: 'info', title: 'Late', key: 'late', entryKey: 'recorder-key' } },
        ...(places ? { places } : {}),
      },
    });
  store.ingestLine(note({ 'recorder-key': ['s1', 0] }), 6);
  assert.equal(store.notices('s1')[0]?.entryKey, own);
  // An older capture (no places), or a place this store does not have: the key is kept as recorded.
  store.ingestLine(note(), 7);
  assert.equal(store.notices('s1')[0]?.entryKey, 'recorder-key');
  store.ingestLine(note({ 'recorder-key': ['s1', 9] }), 8);
  assert.equal(store.notices('s1')[0]?.entryKey, 'recorder-key');
});
