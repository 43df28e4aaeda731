// The diffs real agents report (recorded against the mock LLM, which has each append a line to
// notes.txt): Claude Code and OpenCode send the replaced fragment, Codex and Gemini CLI the whole file.
// Resolved against the file as the agent left it, each gives back the text before the turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../../src/common/store';
import { byPath, reportedDiffs, resolveDiffs } from '../../../src/common/changes/derive';

const dir = path.resolve(__dirname, '../../fixtures/transcripts');
const BEFORE = 'hello\n';
const AFTER = 'hello\nupdated by mock agent\n';

for (const agent of ['claude', 'codex', 'gemini', 'opencode']) {
  test(`${agent}: the reported edit of notes.txt resolves to the text before the turn`, () => {
    const store = new MessageStore();
    readFileSync(path.join(dir, `${agent}.jsonl`), 'utf8')
      .split('\n')
      .forEach((l, i) => l.trim() && store.ingestLine(l, i + 1));
    const entries = store.sessions().flatMap((s) => s.entries);
    const diffs = [...byPath(reportedDiffs(entries))].filter(([p]) => p.endsWith('/notes.txt'));
    assert.equal(diffs.length, 1, `one reported file (${diffs.map(([p]) => p).join(', ')})`);
    assert.deepEqual(resolveDiffs(AFTER, diffs[0]![1]), { resolved: true, oldText: BEFORE, agentText: AFTER });
  });
}
