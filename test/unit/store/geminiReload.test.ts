// A real Gemini CLI reload, recorded through the chat panel (test/fixtures/replays): after the live turn,
// session/load replays the history in another shape: its internal `<session_context>` preamble as a user
// message that merges (no ids) into the real prompt, the turn's tool calls grouped first, a
// `[Function Response: …]` user message after each tool, most of it after the load response. The panel
// must show exactly what it showed before: same entries, keys and text, nothing appended; what the user
// never saw is reported as a warning, not shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, textOf } from '../../../src/common/store';

const dir = path.resolve(__dirname, '../../fixtures/replays');
const lines = (name: string) =>
  readFileSync(path.join(dir, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
const shown = (store: MessageStore, sid: string) =>
  store
    .session(sid)!
    .entries.map((e) => [
      e.key,
      e.kind,
      e.kind === 'tool_call' ? `${e.title}|${e.content.length}` : e.kind === 'elicitation' ? e.message : e.kind === 'subagent' || e.kind === 'compaction' ? '' : textOf(e.content),
    ]);

test('a Gemini CLI session/load replay matches the shown transcript: nothing doubled, nothing downgraded', () => {
  const store = new MessageStore();
  let seq = 0;
  for (const l of lines('gemini-live.jsonl')) store.ingestLine(l, ++seq);
  const [session] = store.sessions();
  assert.ok(session);
  const before = shown(store, session.sessionId);
  assert.ok(before.length >= 8, `the live turn has ${before.length} entries`);
  const reload = lines('gemini-reload.jsonl');
  const promptAt = reload.findIndex((l) => l.includes('"session/prompt"'));
  for (const l of reload.slice(0, promptAt)) store.ingestLine(l, ++seq);
  assert.deepEqual(shown(store, session.sessionId), before);
  const errors = store.diagnostics().filter((d) => d.severity === 'error');
  assert.deepEqual(errors, []);
  const hidden = store.diagnostics().filter((d) => /kept out of the transcript/.test(d.message));
  assert.ok(
    hidden.some((d) => d.message.includes('<session_context>')),
    'the preamble is reported',
  );
  assert.ok(hidden.some((d) => d.message.includes('[Function Response: read_file]')));
});
