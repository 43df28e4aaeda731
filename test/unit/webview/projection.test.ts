// Every field of every store entry reaches the webview's view entry, or is listed here as deliberately
// dropped, with why. The projection (`toViewEntry`, viewEntry.ts) copies fields one by one (a snapshot projects
// up to 100,000 entries and a rest spread would make the shape polymorphic), so a field added to the entry
// schema is silently lost unless it is copied too. Two guards, each pointed at by a tool:
//   - the compiler: each fixture below is `Complete<Entry>`, so a new field, optional or not, is a type error
//     here until the fixture sets it;
//   - this test: the fixture's keys must be the schema's keys, and each key not in DROPPED must arrive in the
//     view entry with the fixture's value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { zCompactionEntry, zElicitationEntry, zMessageEntry, zSubagentEntry, zToolCallEntry } from '../../../src/common/store/entrySchema';
import type { CompactionEntry, ElicitationEntry, Entry, MessageEntry, SubagentEntry, ToolCallEntry } from '../../../src/common/store/model';
import { toViewEntry } from '../../../src/common/webview/viewEntry';

/** Every field set, optional ones included. */
type Complete<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/** The fields the view leaves on the host, per kind, and why. Anything else must be projected. */
const DROPPED: Record<Entry['kind'], Record<string, string>> = {
  tool_call: {
    rawInput: 'raw JSON stays on the host: the card gets `command` and `raw` sizes, the JSON itself on request (`getRaw`)',
    rawOutput: 'raw JSON stays on the host: the card gets `output` and `raw` sizes',
    meta: "the agent's free-form `_meta`: the card gets `metaTerminal` and `parentToolCallId` derived from it",
    stats: 'debug-tree counters',
    statusHistory: 'debug-tree history',
    parentKey: 'the message a tool call belongs to, for the debug tree',
  },
  user_message: { meta: "the agent's free-form `_meta`", stats: 'debug-tree counters' },
  agent_message: { meta: "the agent's free-form `_meta`", stats: 'debug-tree counters' },
  agent_thought: { meta: "the agent's free-form `_meta`", stats: 'debug-tree counters (a thought gets `span` from them)' },
  session_message: { meta: "the agent's free-form `_meta`", stats: 'debug-tree counters' },
  elicitation: { stats: 'debug-tree counters' },
  subagent: { stats: 'debug-tree counters (the card gets `announcedAt` from them)' },
  compaction: { meta: "the agent's free-form `_meta`", stats: 'debug-tree counters' },
};

const stats = { chunks: 2, upserts: 1, bytes: 9, firstSeen: 1000, lastSeen: 4000, lines: [[1, 3]] as [number, number][] };

const toolCall: Complete<ToolCallEntry> = {
  kind: 'tool_call',
  key: 'k1',
  toolCallId: 't1',
  title: 'Run tests',
  name: 'Bash',
  toolKind: 'execute',
  status: 'in_progress',
  content: [{ type: 'content', content: { type: 'text', text: 'ok' } }],
  locations: [{ path: '/w/a.ts', line: 3 }],
  rawInput: { command: 'npm test' },
  rawOutput: { stdout: 'ok' },
  meta: { claudeCode: { parentToolUseId: 'parent' } },
  parentKey: 'm1',
  statusHistory: [{ status: 'in_progress', at: 5 }],
  provenance: 'replay',
  stats,
};

const message: Complete<MessageEntry> = {
  kind: 'session_message',
  key: 'k2',
  messageId: 'm2',
  content: [{ type: 'text', text: 'hello' }],
  meta: { x: 1 },
  route: { senderSessionId: 's1', recipientSessionId: 's2', senderMessageId: 'a', recipientMessageId: 'b' },
  replayDiffers: true,
  provenance: 'fork',
  stats,
};

const elicitation: Complete<ElicitationEntry> = {
  kind: 'elicitation',
  key: 'k3',
  requestId: 7,
  mode: 'form',
  message: 'Which?',
  toolCallId: 't1',
  requestedSchema: { type: 'object' },
  elicitationId: 'e1',
  url: 'https://example.com',
  status: 'accept',
  answer: { a: 1 },
  completed: true,
  provenance: 'live',
  stats,
};

const subagent: Complete<SubagentEntry> = {
  kind: 'subagent',
  key: 'k4',
  childSessionId: 'child',
  title: 'Explore',
  description: 'Look around',
  canCancel: true,
  state: 'idle',
  stopReason: 'end_turn',
  stateSince: 3000,
  cwd: '/w',
  provenance: 'live',
  stats,
};

const compaction: Complete<CompactionEntry> = {
  kind: 'compaction',
  key: 'k5',
  compactionId: 'c1',
  status: 'failed',
  summary: [{ type: 'text', text: 'kept' }],
  error: 'too long',
  meta: { y: 2 },
  provenance: 'live',
  stats,
};

const cases: [string, z.ZodType, Entry][] = [
  ['tool call', zToolCallEntry, toolCall],
  ['message', zMessageEntry, message],
  ['elicitation', zElicitationEntry, elicitation],
  ['subagent', zSubagentEntry, subagent],
  ['compaction', zCompactionEntry, compaction],
];

/** The field names of an entry schema (an object schema behind a type-only readonly wrapper). */
function schemaKeys(schema: z.ZodType): string[] {
  return Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape).sort();
}

for (const [name, schema, entry] of cases) {
  test(`every field of a store ${name} entry is projected to the view or listed as dropped`, () => {
    assert.deepEqual(Object.keys(entry).sort(), schemaKeys(schema), 'the fixture sets every field of the schema');
    const view = toViewEntry(entry) as unknown as Record<string, unknown>;
    const dropped = DROPPED[entry.kind];
    const fields = entry as unknown as Record<string, unknown>;
    for (const key of schemaKeys(schema)) {
      if (key in dropped) assert.equal(key in view, false, `${key} is dropped (${dropped[key]})`);
      else assert.deepEqual(view[key], fields[key], `${key} reaches the view entry`);
    }
  });
}

test('the dropped lists name only fields that exist', () => {
  const all = new Set(cases.flatMap(([, schema]) => schemaKeys(schema)));
  for (const [kind, fields] of Object.entries(DROPPED)) for (const key of Object.keys(fields)) assert.ok(all.has(key), `${kind}.${key}`);
});
