// Where subagent traffic is drawn (subagentPlacement.ts) and what the card says of it (subagentText.ts):
// on the recorded Claude transcripts, reduced by the store and projected as the panel gets them, and on
// the edge cases agent data can make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../../src/common/store';
import { toViewEntry, type ViewEntry } from '../../../src/common/webview/viewEntry';
import { subagentHosts, type HostableEntry } from '../../../src/common/webview/subagentPlacement';
import { formatElapsed, subagentElapsed, withoutToolsUsed } from '../../../src/common/webview/subagentText';

/** Each session's entries of a recorded transcript, as the panel showing that session gets them. */
function sessions(name: string): { sessionId: string; entries: ViewEntry[] }[] {
  const store = new MessageStore();
  readFileSync(path.resolve(__dirname, '../../fixtures/transcripts', name), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (l.trim() !== '') store.ingestLine(l, i + 1);
    });
  return store.sessions().map((s) => ({ sessionId: s.sessionId, entries: s.entries.map(toViewEntry) }));
}

const kindOf = (entries: readonly ViewEntry[], key: string) => entries.find((e) => e.key === key)?.kind;

test("claude-next-subagent, parent: the prompt is the card's task, the reply its result; nothing else moves", () => {
  const [parent] = sessions('claude-next-subagent.jsonl');
  assert.ok(parent);
  const hosts = subagentHosts(parent.entries);
  const card = parent.entries.find((e) => e.kind === 'subagent');
  const [prompt, reply] = parent.entries.filter((e) => e.kind === 'session_message');
  assert.ok(card && prompt && reply);
  assert.deepEqual(hosts.get(prompt.key), { host: card.key, role: 'task' });
  assert.deepEqual(hosts.get(reply.key), { host: card.key, role: 'result' });
  assert.equal(hosts.size, 2);
});

test('claude-next-subagent, child: the incoming prompt has no card to go to and stays a row', () => {
  const [, child] = sessions('claude-next-subagent.jsonl');
  assert.ok(child);
  assert.equal(child.entries[0]?.kind, 'session_message');
  assert.equal(subagentHosts(child.entries).size, 0);
});

test("claude-next-subagent-bg: the background child's prompt and its launch reply go to its card", () => {
  const [parent] = sessions('claude-next-subagent-bg.jsonl');
  const hosts = subagentHosts(parent?.entries ?? []);
  assert.deepEqual(
    [...hosts.values()].map((h) => h.role),
    ['task', 'result'],
  );
});

test('claude-next-subagent-legacy: the Read call is a step of the Agent call, everything else stays', () => {
  const [only] = sessions('claude-next-subagent-legacy.jsonl');
  assert.ok(only);
  const calls = only.entries.filter((e) => e.kind === 'tool_call');
  const agent = calls.find((e) => e.name === 'Agent');
  const read = calls.find((e) => e.name === 'Read');
  assert.ok(agent && read);
  assert.equal(read.parentToolCallId, agent.toolCallId);
  const hosts = subagentHosts(only.entries);
  assert.deepEqual([...hosts], [[read.key, { host: agent.key, role: 'step' }]]);
  assert.equal(kindOf(only.entries, agent.key), 'tool_call');
});

const call = (key: string, toolCallId: string, parentToolCallId?: string): HostableEntry => ({
  kind: 'tool_call',
  key,
  toolCallId,
  ...(parentToolCallId ? { parentToolCallId } : {}),
});
const card = (key: string, childSessionId: string): HostableEntry => ({ kind: 'subagent', key, childSessionId });
const msg = (key: string, senderSessionId: string | null, recipientSessionId: string | null): HostableEntry => ({
  kind: 'session_message',
  key,
  route: { senderSessionId, recipientSessionId },
});

test('steps: a parent that never appears leaves the call where it is; a later parent still takes it; steps nest', () => {
  const hosts = subagentHosts([call('a', 'A'), call('s1', 'S1', 'A'), call('s2', 'S2', 'gone'), call('s3', 'S3', 'B'), call('b', 'B'), call('s4', 'S4', 'S1')]);
  assert.deepEqual(Object.fromEntries(hosts), {
    s1: { host: 'a', role: 'step' },
    s3: { host: 'b', role: 'step' },
    s4: { host: 's1', role: 'step' },
  });
});

test('steps: a reused tool call id goes to the nearest call before it', () => {
  const hosts = subagentHosts([call('a1', 'A'), call('s1', 'S1', 'A'), call('a2', 'A'), call('s2', 'S2', 'A')]);
  assert.equal(hosts.get('s1')?.host, 'a1');
  assert.equal(hosts.get('s2')?.host, 'a2');
});

test('steps: a loop of parents (untrusted _meta) is cut, so every call is still drawn somewhere', () => {
  const hosts = subagentHosts([call('x', 'X', 'Y'), call('y', 'Y', 'X'), call('z', 'Z', 'Z'), call('w', 'W', 'X')]);
  // x under y would put y under x: the loop loses one link; z names itself and stays.
  assert.equal(hosts.has('z'), false);
  const top = ['x', 'y', 'w'].filter((k) => !hosts.has(k));
  assert.equal(top.length, 1, `one of the loop is drawn at the top: ${JSON.stringify(Object.fromEntries(hosts))}`);
  for (const k of ['x', 'y', 'w']) {
    let at = k;
    for (let i = 0; i < 5 && hosts.has(at); i++) at = hosts.get(at)!.host;
    assert.ok(!hosts.has(at), `${k} reaches the top`);
  }
});

test('session messages: to a carded child = task, from one = result, between others = a row; segments apart', () => {
  const entries = [card('c1', 'child'), msg('m1', 'me', 'child'), msg('m2', 'child', 'me'), msg('m3', 'me', 'stranger'), msg('m4', 'other', 'me'), msg('m5', 'child', 'me')];
  const hosts = subagentHosts(entries);
  assert.deepEqual(Object.fromEntries(hosts), { m1: { host: 'c1', role: 'task' }, m2: { host: 'c1', role: 'result' }, m5: { host: 'c1', role: 'result' } });
  // An earlier session's card does not take the new session's messages.
  assert.equal(subagentHosts(entries, [1]).size, 0);
  // A message with no route at all stays a row.
  assert.equal(subagentHosts([card('c', 'child'), { kind: 'session_message', key: 'm', route: null }]).size, 0);
});

test('formatElapsed: seconds, minutes, hours, never negative', () => {
  assert.deepEqual([0, 999, 1000, 12_400, 60_000, 185_000, 3_600_000, 7_620_000, -5].map(formatElapsed), [
    '< 1 s',
    '< 1 s',
    '1 s',
    '12 s',
    '1 min',
    '3 min 5 s',
    '1 h',
    '2 h 7 min',
    '< 1 s',
  ]);
});

test('subagentElapsed: running counts from its state, a finished child shows how long it worked when seen live', () => {
  const base = { stateSince: 10_000, announcedAt: 4_000, provenance: 'live' };
  assert.equal(subagentElapsed({ ...base, state: 'running' }, 22_500), '12 s');
  assert.equal(subagentElapsed({ ...base, state: 'idle' }, 99_000), '6 s');
  assert.equal(subagentElapsed({ ...base, state: 'idle', provenance: 'replay' }, 99_000), null, 'a replay squeezes time');
  assert.equal(subagentElapsed({ ...base, state: 'idle', announcedAt: 10_000 }, 99_000), null, 'announced already finished');
  assert.equal(subagentElapsed({ ...base, state: 'requires_action' }, 99_000), null);
  assert.equal(subagentElapsed({ ...base, state: null }, 99_000), null);
});

test('withoutToolsUsed: the recorded reply loses its bookkeeping line and names its tools; anything else is left', () => {
  const [parent] = sessions('claude-next-subagent.jsonl');
  const reply = parent?.entries.find((e) => e.kind === 'session_message' && e.messageId?.endsWith(':reply'));
  assert.ok(reply && reply.kind === 'session_message');
  const shown = withoutToolsUsed(reply.content);
  assert.deepEqual(shown.toolsUsed, ['Read']);
  assert.deepEqual(shown.content, [{ type: 'text', text: 'Report: notes.txt has one line, “hello”. ✅' }]);
  const same = [{ type: 'text' as const, text: 'Hi <tools-used-before-summary>Read</tools-used-before-summary>\nrest' }];
  assert.equal(withoutToolsUsed(same).content, same, 'not at the start: left alone');
  const open = [{ type: 'text' as const, text: '<tools-used-before-summary>Read\n</tools-used-before-summary>\nx' }];
  assert.equal(withoutToolsUsed(open).content, open, 'not one line: left alone');
  assert.deepEqual(withoutToolsUsed([{ type: 'text', text: '<tools-used-before-summary>Read, Grep</tools-used-before-summary>\nThe report' }]), {
    content: [{ type: 'text', text: 'The report' }],
    toolsUsed: ['Read', 'Grep'],
  });
});
