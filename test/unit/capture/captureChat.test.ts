import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CaptureChat } from '../../../src/node/capture/captureChat';
import type { PanelDelta } from '../../../src/common/webview/panelDeltas';
import type { ChatModel } from '../../../src/common/webview/chatModel';
import { CLIENT_EVENT_NOTE } from '../../../src/common/store/clientEvents';

const ui = { openLink() {}, openLocation() {}, copy() {}, openDiff() {} };
const transcript = (name: string) => {
  try {
    return readFileSync(path.resolve(__dirname, `../../fixtures/transcripts/${name}.jsonl`), 'utf8');
  } catch {
    return undefined;
  }
};

test('a real agent capture plays into a read-only transcript and the tree', (t) => {
  const text = transcript('claude');
  if (!text) return t.skip('shared transcripts not present');
  const c = new CaptureChat('claude.jsonl', text, ui);
  let finished = false;
  c.onDidFinish(() => (finished = true));
  c.playAll();
  assert.ok(finished);
  const snap = c.snapshot();
  assert.equal(snap.panel.readOnly, true);
  assert.ok(snap.entries.length > 3);
  assert.ok(snap.entries.some((e) => e.kind === 'tool_call'));
  assert.equal(c.sessions().length, 1);
  assert.deepEqual(
    c.diagnostics(c.sessions()[0]!.sessionId).filter((d) => d.severity === 'error'),
    [],
  );
  const first = snap.entries[0]!;
  const records = c.protocolRecords(new Set(first.stats.lines.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i))));
  assert.ok(records.length > 0 && records.every((r) => r.dir !== 'note'));
  assert.ok(c.behaviour.report().initialize);
  c.dispose();
});

test('real-time replay paces lines by t_ms and emits incremental changes', async () => {
  const lines = [
    { t_ms: 0, dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } } },
    { t_ms: 1, dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } } },
    {
      t_ms: 2,
      dir: 'agent->client',
      msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' } } } },
    },
    {
      t_ms: 30,
      dir: 'agent->client',
      msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lo' } } } },
    },
  ];
  const c = new CaptureChat('x', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', ui);
  const changes: PanelDelta[] = [];
  c.onDidChange((x) => changes.push(...x));
  const done = new Promise<void>((r) => c.onDidFinish(() => r()));
  c.playRealTime(1);
  assert.equal(c.finished, false, 'not everything is applied at once');
  await done;
  const msg = c.snapshot().entries[0];
  assert.ok(msg && msg.kind === 'agent_message');
  assert.deepEqual(msg.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), 'Hello');
  assert.ok(changes.some((x) => x.type === 'entryUpdated' && x.appendedText === 'lo'));
  c.dispose();
});

test('a thought lasts as long as it did when recorded, however fast the capture plays', () => {
  const chunk = (t_ms: number, text: string) => ({
    t_ms,
    dir: 'agent->client',
    msg: {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_thought_chunk', messageId: 't', content: { type: 'text', text } } },
    },
  });
  const lines = [
    { t_ms: 0, dir: 'client->agent', msg: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } } },
    { t_ms: 1, dir: 'agent->client', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 's' } } },
    chunk(1000, 'Thinking'),
    chunk(13_000, ' hard'),
  ];
  const c = new CaptureChat('x', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', ui);
  c.playAll();
  const thought = c.snapshot().entries[0];
  assert.ok(thought?.kind === 'agent_thought');
  assert.equal(thought.stats.lastSeen - thought.stats.firstSeen, 12_000);
  c.dispose();
});

test("a capture's subagent card opens the subagent's own transcript, read-only; an id that is no subagent of the shown session opens nothing", () => {
  const text = readFileSync(path.join(__dirname, '../../fixtures/transcripts/claude-next-subagent.jsonl'), 'utf8');
  const opened: { model: ChatModel; title: string }[] = [];
  const c = new CaptureChat('sub.jsonl', text, { ...ui, openSubagent: (model, title) => void opened.push({ model, title }) });
  c.playAll();
  assert.equal(c.snapshot().panel.canOpenSubagents, true);
  const card = c.snapshot().entries.find((e) => e.kind === 'subagent');
  assert.ok(card && card.kind === 'subagent');
  c.handleWebviewMessage({ type: 'openSubagent', childSessionId: 'made-up' });
  c.handleWebviewMessage({ type: 'openSubagent', childSessionId: c.snapshot().panel.sessionId! });
  assert.equal(opened.length, 0);
  c.handleWebviewMessage({ type: 'openSubagent', childSessionId: card.childSessionId });
  assert.equal(opened[0]?.title, 'Read notes.txt');
  const view = opened[0]!.model.snapshot();
  assert.equal(view.panel.readOnly, true);
  assert.deepEqual(
    view.entries.map((e) => e.key),
    c.store.session(card.childSessionId)?.entries.map((e) => e.key),
  );
  assert.ok(view.entries.some((e) => e.kind === 'tool_call'));
  // Expanded in its card: the same child as a model of its own (none for the shown session or a stranger).
  assert.equal(c.subagentView('made-up'), undefined);
  assert.equal(c.subagentView(c.snapshot().panel.sessionId!), undefined);
  assert.deepEqual(
    c
      .subagentView(card.childSessionId)
      ?.snapshot()
      .entries.map((e) => e.key),
    view.entries.map((e) => e.key),
  );
  c.dispose();
});

test("a capture's subagent opened in its own tab gets its root turn's Changes for its cards, and each one the recording records after", () => {
  const cwd = '/home/user/acp-agents/work/claude-next-subagent';
  const saved = (state: string) => ({
    v: 1,
    seq: 1,
    sets: [
      {
        id: 'c1',
        sessionId: 'b830f726-44af-401b-a4b4-799f7f25aafa',
        afterKey: null,
        ended: true,
        files: [{ path: `${cwd}/notes.txt`, oldText: 'hello\n', agentText: 'hello\nworld\n', source: 'write', state, note: null, blocked: null, added: 1, removed: 0 }],
      },
    ],
  });
  const note = (state: string) => JSON.stringify({ dir: 'note', msg: { text: CLIENT_EVENT_NOTE, event: { event: 'changes', saved: saved(state) } } });
  const text = `${readFileSync(path.join(__dirname, '../../fixtures/transcripts/claude-next-subagent.jsonl'), 'utf8').trimEnd()}\n${note('pending')}\n${note('undone')}\n`;
  const opened: ChatModel[] = [];
  const c = new CaptureChat('sub.jsonl', text, { ...ui, openSubagent: (model) => void opened.push(model) });
  // The subagent's tab is opened as the first summary is recorded (the second one is still to play).
  const deltas: PanelDelta[] = [];
  let pendingSets: unknown;
  c.onDidChange((d) => {
    if (opened.length || !d.some((x) => x.type === 'changeSet')) return;
    const card = c.snapshot().entries.find((e) => e.kind === 'subagent');
    if (card?.kind !== 'subagent') return;
    c.handleWebviewMessage({ type: 'openSubagent', childSessionId: card.childSessionId });
    pendingSets = opened[0]?.snapshot().panel.changeSets.map((s) => [s.id, s.cardsOnly, s.files.map((f) => [f.path, f.state])]);
    // Expanded in its card instead, the capture's panel shows the sets already: none again.
    assert.deepEqual(c.subagentView(card.childSessionId)?.snapshot().panel.changeSets, []);
    opened[0]?.onDidChange((x) => deltas.push(...x));
  });
  c.playAll();
  assert.deepEqual(pendingSets, [['c1', true, [['notes.txt', 'pending']]]]);
  const op = deltas.findLast((d) => d.type === 'changeSet');
  assert.ok(op?.type === 'changeSet' && op.set?.cardsOnly === true && op.set.files[0]?.state === 'undone', JSON.stringify(deltas));
  c.dispose();
});
