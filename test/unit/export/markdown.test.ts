import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryToMarkdown, sessionToMarkdown } from '../../../src/common/export/markdown';
import type { Entry, SessionState } from '../../../src/common/store/model';
import { toolCallEntry } from '../helpers/toolCallEntry';

const stats = { chunks: 0, upserts: 0, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] };
const entries: Entry[] = [
  {
    kind: 'user_message',
    key: 'a',
    messageId: null,
    content: [
      { type: 'text', text: 'Fix it' },
      { type: 'resource_link', uri: 'file:///ws/a.ts', name: 'a.ts' },
    ],
    meta: null,
    provenance: 'local',
    stats,
  },
  { kind: 'agent_thought', key: 'b', messageId: 't', content: [{ type: 'text', text: 'hmm' }], meta: null, provenance: 'live', stats },
  toolCallEntry('c', { toolCallId: 'x', title: 'Edit a.ts', content: [{ type: 'diff', path: '/ws/a.ts', oldText: 'a', newText: 'has ``` inside' }], stats }),
  { kind: 'agent_message', key: 'd', messageId: 'm', content: [{ type: 'text', text: 'Done.' }], meta: null, provenance: 'live', stats },
];

test('each entry kind becomes readable Markdown', () => {
  assert.equal(entryToMarkdown(entries[0]!), '## User\n\nFix it[a.ts](file:///ws/a.ts)');
  assert.match(entryToMarkdown(entries[1]!), /<details><summary>Thought<\/summary>\n\nhmm/);
  const tool = entryToMarkdown(entries[2]!);
  assert.match(tool, /\*\*Tool call\*\* `edit` — Edit a.ts \*\(completed\)\*/);
  assert.match(tool, /````diff\nhas ``` inside\n````/, 'the fence is longer than any backtick run in the text');
});

test('a session exports with a header and entries in order', () => {
  const s: SessionState = {
    sessionId: 's1',
    parentSessionId: null,
    protocolVersion: 1,
    entries,
    plan: null,
    plans: [],
    setup: null,
    currentModeId: null,
    availableModes: [],
    availableCommands: [],
    configOptions: [],
    usage: null,
    title: 'Fixing',
    updatedAt: null,
    terminals: {},
  };
  const md = sessionToMarkdown(s, 'Demo agent');
  assert.ok(md.startsWith('# Fixing\n\n*Agent: Demo agent · session s1*'));
  assert.ok(md.indexOf('## User') < md.indexOf('## Agent'));
  assert.ok(md.endsWith('Done.\n'));
});

test("the agent's own headings nest under the export's ## Agent; code blocks are left alone", () => {
  const text = '# Plan\n\nIntro\n\n## Steps\n\n```md\n## not a heading\n```\n\n###### deep\n#hashtag\n   ### indented\n~~~\n# also code\n~~~';
  const md = entryToMarkdown({ kind: 'agent_message', key: 'e', messageId: 'm2', content: [{ type: 'text', text }], meta: null, provenance: 'live', stats });
  assert.equal(md, '## Agent\n\n### Plan\n\nIntro\n\n#### Steps\n\n```md\n## not a heading\n```\n\n###### deep\n#hashtag\n   ##### indented\n~~~\n# also code\n~~~');
});

test('a compaction exports as a line with its state, its error, and its summary folded', () => {
  const row = (over: Partial<Extract<Entry, { kind: 'compaction' }>>): Entry => ({
    kind: 'compaction',
    key: 'k',
    compactionId: 'c',
    status: 'completed',
    summary: [],
    error: null,
    meta: null,
    provenance: 'live',
    stats,
    ...over,
  });
  assert.equal(entryToMarkdown(row({})), '**Context compacted** *(completed)*');
  assert.equal(entryToMarkdown(row({ status: 'failed', error: 'too large' })), '**Context compacted** *(failed)* — too large');
  assert.equal(
    entryToMarkdown(row({ summary: [{ type: 'text', text: '# Kept\n- plan' }] })),
    '**Context compacted** *(completed)*\n\n<details><summary>Summary</summary>\n\n### Kept\n- plan\n\n</details>',
  );
});
