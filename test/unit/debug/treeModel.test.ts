import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryDetails, entryNode, formatLines, groupChildren, sessionChildren, sessionNode } from '../../../src/common/debug/treeModel';
import type { MessageEntry, SessionState, ToolCallEntry } from '../../../src/common/store/model';
import { toolCallEntry } from '../helpers/toolCallEntry';

const stats = {
  chunks: 3,
  upserts: 1,
  bytes: 12,
  firstSeen: 1_700_000_000_000,
  lastSeen: 1_700_000_001_000,
  lines: [
    [4, 6],
    [9, 9],
  ] as const,
};
const msg: MessageEntry = { kind: 'agent_message', key: 'k1', messageId: null, content: [], meta: null, provenance: 'live', stats };
const tool: ToolCallEntry = toolCallEntry('k2', {
  toolCallId: 'call_1',
  title: 'Read notes.txt',
  name: 'read_file',
  toolKind: 'read',
  parentKey: 'k1',
  statusHistory: [
    { status: 'pending', at: 1 },
    { status: 'in_progress', at: 2 },
    { status: 'completed', at: 3 },
  ],
  provenance: 'replay',
  stats,
});
const session: SessionState = {
  sessionId: 'sess_1',
  parentSessionId: null,
  protocolVersion: 1,
  entries: [msg, tool],
  plan: [
    { content: 'Read', priority: 'high', status: 'completed' },
    { content: 'Edit', priority: 'low', status: 'pending' },
  ],
  plans: [],
  setup: null,
  currentModeId: 'code',
  availableModes: [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code' },
  ],
  availableCommands: [{ name: 'help', description: 'Help' }],
  configOptions: [],
  usage: { used: 10, size: 100 },
  title: null,
  updatedAt: null,
  terminals: {},
};

test('entries show identity, provenance and counters; a missing id says so', () => {
  const n = entryNode('sess_1', msg, 0);
  assert.equal(n.type, 'entry');
  assert.equal(n.label, '1. Agent (no id)');
  assert.match(n.type === 'entry' ? n.description : '', /live · 3 chunks · 1 upserts · 12 B/);
  assert.match(n.type === 'entry' ? n.tooltip : '', /key k1[\s\S]*capture lines 4-6, 9/);
  const t = entryNode('sess_1', tool, 1);
  assert.equal(t.label, '2. Tool call: Read notes.txt');
  assert.match(t.type === 'entry' ? t.description : '', /^completed · replay/);
});

test('tool call details include the status history and copyable ids', () => {
  const d = entryDetails('sess_1', tool);
  const byLabel = new Map(d.map((x) => [x.label, x]));
  assert.equal(byLabel.get('status history')?.type === 'detail' && byLabel.get('status history')?.description, 'pending → in_progress → completed');
  const id = byLabel.get('toolCallId');
  assert.equal(id?.type === 'detail' ? id.copyValue : undefined, 'call_1');
  const key = byLabel.get('key');
  assert.equal(key?.type === 'detail' ? key.copyValue : undefined, 'k2');
  assert.equal(byLabel.get('belongs to')?.description, 'k1');
});

test('a message without id has nothing to copy for messageId', () => {
  const d = entryDetails('sess_1', msg).find((x) => x.label === 'messageId');
  assert.equal(d?.type === 'detail' ? d.copyValue : 'x', undefined);
});

test('session children: entries in order, then state, plan and diagnostics groups', () => {
  const diags = [
    { severity: 'error' as const, message: 'bad update', line: 7 },
    { severity: 'warning' as const, message: 'unknown kind' },
  ];
  const kids = sessionChildren(session, diags);
  assert.deepEqual(
    kids.map((k) => k.label),
    ['1. Agent (no id)', '2. Tool call: Read notes.txt', 'Session state', 'Plan', 'Diagnostics'],
  );
  assert.equal(kids[3]?.description, '1/2 completed');
  assert.equal(kids[4]?.description, '1 errors, 1 warnings');
  assert.deepEqual(
    groupChildren(session, 'diagnostics', diags).map((d) => [d.label, d.description]),
    [
      ['error: bad update', 'line 7'],
      ['warning: unknown kind', ''],
    ],
  );
  const state = groupChildren(session, 'state', diags);
  assert.equal(state.find((s) => s.label === 'mode')?.description, 'code');
  assert.equal(state.find((s) => s.label === 'usage')?.description, '10/100 tokens');
  assert.match(sessionNode(session, 2).description, /2 entries · v1 · 2 diagnostics/);
});

test('line ranges print compactly', () => {
  assert.equal(formatLines([]), '(none)');
  assert.equal(
    formatLines([
      [1, 1],
      [3, 5],
    ]),
    '1, 3-5',
  );
});

test('conformance findings show on the entries whose lines they concern, and in their own group', () => {
  const findings = [
    { rule: 'tool-call-after-end', severity: 'warning', line: 5, message: 'late \u001b[2J update: send it before the end' },
    { rule: 'unknown-method', severity: 'error', line: 7, message: 'x is not an ACP method: rename it' },
  ] as const;
  const n = entryNode('sess_1', tool, 1, findings);
  assert.match(n.type === 'entry' ? n.description : '', /^⚠ 1 finding · completed/);
  assert.match(n.type === 'entry' ? n.tooltip : '', /line 5 warning tool-call-after-end: late ␛\[2J update/);
  const details = entryDetails('sess_1', tool, findings).filter((d) => d.label.includes('tool-call-after-end'));
  assert.equal(details.length, 1);
  assert.equal(details[0]!.type === 'detail' ? details[0]!.copyValue : '', 'tool-call-after-end (line 5): late \u001b[2J update: send it before the end');
  const group = sessionChildren(session, [], findings).find((x) => x.type === 'group' && x.group === 'conformance');
  assert.equal(group?.description, '1 errors, 1 warnings');
  assert.deepEqual(
    groupChildren(session, 'conformance', [], findings).map((d) => d.label),
    ['⚠ tool-call-after-end', '✖ unknown-method'],
  );
  // Without a checker (absent findings) there is no group; with none found it says so.
  assert.equal(
    sessionChildren(session, []).some((x) => x.type === 'group' && x.group === 'conformance'),
    false,
  );
  assert.equal(sessionChildren(session, [], []).find((x) => x.type === 'group' && x.group === 'conformance')?.description, 'no findings');
});
