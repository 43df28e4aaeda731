// Issue 9 §1.1: a session/load replay in any of the shapes real agents replay in (thoughts dropped, chunks
// merged, ids missing or new, tool calls with fewer fields and other titles) brings nothing back twice
// and downgrades nothing: the demo agent replays its own turns in each shape, through our client's wire
// taps into the store, and the transcript after the load equals the one before it.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { MessageStore } from '../../../src/common/store';
import type { Entry } from '../../../src/common/store/model';
import { nodeWriteTextFile, policyPermission } from '../../../src/node/acp/nodeHandlers';
import { NodeTerminalHost } from '../../../src/node/terminals';
import { demoPair } from '../helpers/demoPair';
import { REPLAY_SHAPES, replayHistory, type ReplayShape } from '../../../src/node/demoAgent/replay';

const ws = mkdtempSync(path.join(tmpdir(), 'replay-shapes-'));
writeFileSync(path.join(ws, 'notes.txt'), 'hello\n');
after(() => rmSync(ws, { recursive: true, force: true }));

async function turnsThenLoad(replay: readonly ReplayShape[]): Promise<{ before: Entry[]; after: Entry[]; store: MessageStore }> {
  let n = 0;
  const terminals = new NodeTerminalHost({ defaultCwd: ws });
  const store = new MessageStore({ newKey: () => `k${n++}` });
  const { client, dispose } = demoPair({
    agent: { replay },
    client: {
      handlers: { requestPermission: policyPermission('all'), writeTextFile: (p) => nodeWriteTextFile(p), terminals },
      tap: (dir, msg) => store.ingest(dir, msg),
    },
  });
  try {
    await client.initialize();
    const s = await client.newSession({ cwd: ws, mcpServers: [] });
    await client.prompt(s.sessionId, [{ type: 'text', text: 'Show me an edit please, then run a command' }]);
    await client.prompt(s.sessionId, [{ type: 'text', text: 'and once more' }]);
    const before = [...(store.session(s.sessionId)?.entries ?? [])];
    await client.loadSession({ sessionId: s.sessionId, cwd: ws, mcpServers: [] });
    return { before, after: [...(store.session(s.sessionId)?.entries ?? [])], store };
  } finally {
    terminals.dispose();
    dispose();
  }
}

/** What the user sees of an entry; ids are left out (a replay may rename them). */
function seen(e: Entry): unknown {
  if (e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction') return { key: e.key, kind: e.kind };
  if (e.kind !== 'tool_call') return { key: e.key, kind: e.kind, text: e.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('') };
  return { key: e.key, title: e.title, toolKind: e.toolKind, status: e.status, content: e.content, locations: e.locations, rawInput: e.rawInput };
}

const combos: ReplayShape[][] = [
  [],
  ...REPLAY_SHAPES.map((s) => [s]),
  ['no-thoughts', 'no-ids'],
  ['no-thoughts', 'new-ids'],
  ['merged', 'no-ids'],
  [...REPLAY_SHAPES].filter((s) => s !== 'new-ids'),
  [...REPLAY_SHAPES].filter((s) => s !== 'no-ids'),
];
for (const shapes of combos) {
  test(`a replay shaped [${shapes.join(', ')}] shows nothing twice and keeps what was shown`, async () => {
    const { before, after, store } = await turnsThenLoad(shapes);
    assert.ok(
      before.some((e) => e.kind === 'agent_thought'),
      'the live turn had thoughts',
    );
    assert.ok(
      before.some((e) => e.kind === 'tool_call' && e.content.some((c) => c.type === 'diff')),
      'the live turn had a diff',
    );
    assert.deepEqual(after.map(seen), before.map(seen));
    assert.ok(
      after.every((e) => e.provenance !== 'replay'),
      'no replayed entry was appended',
    );
    assert.deepEqual(
      store.diagnostics().filter((d) => d.severity === 'error'),
      [],
    );
  });
}

test('the shapes reshape the history as documented', () => {
  const history = [
    { sessionUpdate: 'agent_thought_chunk', messageId: 't', content: { type: 'text', text: 'hm' } },
    { sessionUpdate: 'agent_message_chunk', messageId: 'a', content: { type: 'text', text: 'He' } },
    { sessionUpdate: 'agent_message_chunk', messageId: 'a', content: { type: 'text', text: 'llo' } },
    { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'ls -la', kind: 'execute', status: 'pending', rawInput: { command: 'ls -la' } },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed', rawOutput: { output: 'x\n' } },
  ];
  assert.deepEqual(replayHistory(history, ['no-thoughts', 'merged', 'new-ids', 'lossy-tools']), [
    { sessionUpdate: 'agent_message_chunk', messageId: 'r-a', content: { type: 'text', text: 'Hello' } },
    { sessionUpdate: 'tool_call', toolCallId: 'r-c', title: 'bash', kind: 'execute', status: 'pending' },
    { sessionUpdate: 'tool_call_update', toolCallId: 'r-c', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'x\n' } }] },
  ]);
  assert.deepEqual(replayHistory(history, []), history);
});

test('the replay vectors give the same transcript when the store is saved and restored at any line of the replay', () => {
  const dir = path.join(import.meta.dirname, '../../conformance/vectors');
  const names = readdirSync(dir).filter((f) => /-replay-.*\.jsonl$/.test(f));
  assert.ok(names.length >= 7);
  for (const name of names) {
    const lines = readFileSync(path.join(dir, name), 'utf8').split('\n').filter(Boolean);
    const reduce = (saveAt: number) => {
      let n = 0;
      const options = { newKey: () => `k${n++}`, now: () => 0 };
      let store = new MessageStore(options);
      lines.forEach((l, i) => {
        if (i === saveAt) store = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())), options).store;
        store.ingestLine(l, i + 1);
      });
      return store.sessions().map((s) => s.entries.map((e) => ({ ...e, stats: null })));
    };
    const whole = reduce(-1);
    const load = lines.findIndex((l) => l.includes('"session/load"'));
    for (let at = load; at < lines.length; at++) assert.deepEqual(reduce(at), whole, `${name}: saved and restored before line ${at + 1}`);
  }
});
