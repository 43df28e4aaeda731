// Journal + snapshot persistence: restore exactly (same entries, same keys), lose at most a torn last
// record on a crash, and keep everything readable when a file is corrupt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageStore, textOf } from '../../../src/common/store';
import { StoreJournal } from '../../../src/node/persistence/journal';
import { chunk, ok, req } from '../store/helpers';
import { AgentMethods } from '../../../src/common/protocol/methods';

type Msg = ['client->agent' | 'agent->client', unknown];
const traffic: Msg[] = [
  ['client->agent', req(1, AgentMethods.sessionNew, { cwd: '/ws', mcpServers: [] })],
  ['agent->client', ok(1, { sessionId: 's' })],
  ['client->agent', req(2, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Q' }] })],
  ['agent->client', chunk('s', 'agent_message_chunk', 'A', 'm1')],
  ['agent->client', chunk('s', 'agent_message_chunk', 'B', 'm1')],
  ['agent->client', chunk('s', 'agent_thought_chunk', 'T', 't1')],
];

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function record(dir: string, msgs: readonly Msg[], compactAfter?: number): Promise<MessageStore> {
  const { store, journal } = await StoreJournal.open(dir, 'sess');
  for (const [i, [d, m]] of msgs.entries()) {
    journal.ingest(store, d, m);
    if (compactAfter === i) await journal.compact(store);
  }
  await journal.dispose();
  return store;
}

const view = (s: MessageStore) =>
  s
    .sessions()
    .map((x) =>
      x.entries.map((e) => [
        e.key,
        e.kind,
        e.kind === 'tool_call' ? e.toolCallId : e.kind === 'elicitation' ? e.message : e.kind === 'subagent' || e.kind === 'compaction' ? '' : textOf(e.content),
      ]),
    );

test('reopening restores the same entries with the same keys (journal only, and snapshot + journal)', async () => {
  for (const compactAfter of [undefined, 3]) {
    await withDir(async (dir) => {
      const live = await record(dir, traffic, compactAfter);
      const back = await StoreJournal.open(dir, 'sess');
      assert.deepEqual(back.diagnostics, []);
      assert.deepEqual(view(back.store), view(live));
      await back.journal.dispose();
    });
  }
});

test('appends after a reopen continue the sequence; compaction empties the journal', async () => {
  await withDir(async (dir) => {
    await record(dir, traffic.slice(0, 4));
    const again = await StoreJournal.open(dir, 'sess');
    for (const [d, m] of traffic.slice(4)) {
      again.journal.append(d, m, again.store.ingest(d, m));
    }
    await again.journal.compact(again.store);
    assert.equal(readFileSync(path.join(dir, 'sess.journal.ndjson'), 'utf8'), '');
    await again.journal.dispose();
    const back = await StoreJournal.open(dir, 'sess');
    assert.deepEqual(back.diagnostics, []);
    assert.deepEqual(view(back.store), view(again.store));
    await back.journal.dispose();
  });
});

test('a torn last record (crash mid-write) is dropped with a warning; the rest is kept and appends work', async () => {
  await withDir(async (dir) => {
    await record(dir, traffic);
    const file = path.join(dir, 'sess.journal.ndjson');
    appendFileSync(file, '{"seq":7,"dir":"agent->client","msg":{"jsonrpc":"2.0","meth');
    const back = await StoreJournal.open(dir, 'sess');
    assert.deepEqual(
      back.diagnostics.map((d) => d.severity),
      ['warning'],
    );
    assert.match(back.diagnostics[0]?.message ?? '', /torn/);
    assert.equal(back.store.session('s')?.entries.length, 3);
    const m = chunk('s', 'agent_thought_chunk', 'U', 't1');
    back.journal.ingest(back.store, 'agent->client', m);
    await back.journal.dispose();
    const third = await StoreJournal.open(dir, 'sess');
    assert.deepEqual(third.diagnostics, []);
    assert.deepEqual(view(third.store), view(back.store));
    await third.journal.dispose();
  });
});

test('a corrupt journal line is an error naming the line; later records still apply', async () => {
  await withDir(async (dir) => {
    const live = await record(dir, traffic);
    const file = path.join(dir, 'sess.journal.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[4] = '{"seq":5,"dir":"agent->client","msg":{"jsonrpc":"2.0",XXX';
    writeFileSync(file, lines.join('\n'));
    const back = await StoreJournal.open(dir, 'sess');
    assert.deepEqual(
      back.diagnostics.map((d) => d.severity),
      ['error', 'warning'],
    );
    assert.match(back.diagnostics[0]?.message ?? '', /:5: corrupt/);
    const text = (s: MessageStore) =>
      s.session('s')?.entries.map((e) => (e.kind === 'tool_call' || e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction' ? '' : textOf(e.content)));
    assert.deepEqual(text(back.store), ['Q', 'A', 'T']); // chunk "B" (record 5) is lost, nothing else
    assert.deepEqual(text(live), ['Q', 'AB', 'T']);
    await back.journal.dispose();
  });
});

test('a corrupt snapshot is an error; the previous snapshot (.bak) is used and everything readable kept', async () => {
  await withDir(async (dir) => {
    const { store, journal } = await StoreJournal.open(dir, 'sess');
    for (const [i, [d, m]] of traffic.entries()) {
      journal.ingest(store, d, m);
      if (i === 1 || i === 3) await journal.compact(store);
    }
    await journal.dispose();
    writeFileSync(path.join(dir, 'sess.snapshot.json'), '{"format":"acp-chat/snapshot","ver');
    const back = await StoreJournal.open(dir, 'sess');
    assert.equal(back.diagnostics[0]?.severity, 'error');
    assert.match(back.diagnostics[0]?.message ?? '', /snapshot is corrupt/);
    // The .bak snapshot (after record 2) plus the journal (records 5..6): records 3..4 are reported missing.
    assert.ok(back.diagnostics.some((d) => /missing/.test(d.message)));
    assert.ok((back.store.session('s')?.entries.length ?? 0) >= 1);
    await back.journal.dispose();
  });
});

test('a file that is not JSON at all gives an error, never a throw', async () => {
  await withDir(async (dir) => {
    writeFileSync(path.join(dir, 'sess.snapshot.json'), '\u0000\u0001garbage');
    writeFileSync(path.join(dir, 'sess.journal.ndjson'), 'garbage\n{"seq":1,"dir":"x","msg":1}\n');
    const back = await StoreJournal.open(dir, 'sess');
    assert.deepEqual(
      back.diagnostics.map((d) => d.severity),
      ['error', 'error', 'error'],
    );
    assert.equal(back.store.sessions().length, 0);
    await back.journal.dispose();
  });
  await assert.rejects(StoreJournal.open(os.tmpdir(), '../escape'));
});
