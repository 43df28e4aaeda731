// The webview's projection of store entries: raw JSON stays on the host (a summary goes instead), while
// everything the card shows from it still arrives (command line, printed output, `_meta` terminal output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageEntry, ToolCallEntry } from '../../../src/common/store/model';
import { rawOf, toViewEntry } from '../../../src/common/webview/viewEntry';
import { toolCallEntry } from '../helpers/toolCallEntry';

const stats = { chunks: 1, upserts: 0, bytes: 1, firstSeen: 1000, lastSeen: 4000, lines: [[1, 3]] as [number, number][] };
const tool = (fields: Partial<ToolCallEntry>): ToolCallEntry =>
  toolCallEntry('k', { toolCallId: 't', title: 'Run', toolKind: 'execute', parentKey: 'p', statusHistory: [{ status: 'completed', at: 1 }], stats, ...fields });

test('a tool call keeps what the card shows and only a summary of its raw JSON', () => {
  const big = { stdout: 'x'.repeat(10_000), exit_code: 2 };
  const e = tool({ rawInput: { command: 'npm', args: ['test', 'a b'] }, rawOutput: big, meta: { claudeCode: { huge: 'y'.repeat(5000) } } });
  const v = toViewEntry(e);
  assert.ok(v.kind === 'tool_call');
  assert.equal(v.command, "npm test 'a b'");
  assert.deepEqual(v.output, { text: 'x'.repeat(10_000), exitCode: 2 });
  assert.deepEqual(v.raw, { input: JSON.stringify(e.rawInput).length, output: JSON.stringify(big).length });
  for (const gone of ['rawInput', 'rawOutput', 'meta', 'stats', 'statusHistory', 'parentKey']) assert.equal(gone in v, false, gone);
  // The raw JSON itself is what the host answers `getRaw` with.
  assert.deepEqual(rawOf(e), { input: e.rawInput, output: big });
  assert.equal(rawOf(undefined), null);
});

test('printed output from rawOutput only when the card has no output of its own', () => {
  const out = { output: 'boom\n', metadata: { exit: 1 } };
  assert.deepEqual((toViewEntry(tool({ rawOutput: out })) as { output?: unknown }).output, { text: 'boom\n', exitCode: 1 });
  const withText = tool({ rawOutput: out, content: [{ type: 'content', content: { type: 'text', text: 'done' } }] });
  assert.equal('output' in toViewEntry(withText), false);
  const edit = tool({ toolKind: 'edit', rawOutput: out, content: [{ type: 'diff', path: '/a', oldText: 'a', newText: 'b' }] });
  assert.equal('output' in toViewEntry(edit), false);
  assert.equal('raw' in toViewEntry(tool({})), false, 'no toggle without raw JSON');
});

test('the _meta terminal extension arrives for terminal blocks', () => {
  const e = tool({ content: [{ type: 'terminal', terminalId: 'x' }], meta: { terminal_output: { terminal_id: 'x', data: 'hi' }, terminal_exit: { exit_code: 0 } } });
  assert.deepEqual((toViewEntry(e) as { metaTerminal?: unknown }).metaTerminal, { data: 'hi', exitCode: 0 });
  assert.equal('metaTerminal' in toViewEntry({ ...e, content: [] }), false);
});

test('messages lose their debug counters; a thought keeps its time span', () => {
  const m: MessageEntry = { kind: 'agent_thought', key: 'k', messageId: 'm', content: [{ type: 'text', text: 'hm' }], meta: { a: 1 }, provenance: 'live', stats };
  assert.deepEqual(toViewEntry(m), {
    kind: 'agent_thought',
    key: 'k',
    messageId: 'm',
    content: [{ type: 'text', text: 'hm' }],
    provenance: 'live',
    span: { first: 1000, last: 4000 },
  });
  assert.deepEqual(toViewEntry({ ...m, kind: 'agent_message' }), { kind: 'agent_message', key: 'k', messageId: 'm', content: [{ type: 'text', text: 'hm' }], provenance: 'live' });
});
