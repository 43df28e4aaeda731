// Field-level entry patches: applying `diffEntry(prev, next)` to `prev` gives `next` for arbitrary tool
// calls and messages (content grown, replaced or appended; fields set, removed, nested), and a tool-call
// status change is sent as its changed fields, not the whole entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffEntry } from '../../../src/common/webview/entryDiff';
import { PatchBatcher } from '../../../src/common/webview/patchBatcher';
import { appendTextToEntry, applyFieldsToEntry } from '../../../webview/entryModel';
import type { ToolCallEntry } from '../../../src/common/store/model';

const textArb = fc.constantFrom('', 'a', 'ab', 'abc', 'out\n', 'x');
const blockArb = fc.oneof(
  fc.record({ type: fc.constant('content' as const), content: fc.record({ type: fc.constant('text' as const), text: textArb }) }),
  fc.record({ type: fc.constant('diff' as const), path: fc.constantFrom('/a', '/b'), oldText: fc.option(textArb, { nil: null }), newText: textArb }),
  fc.record({ type: fc.constant('terminal' as const), terminalId: fc.constantFrom('t1', 't2') }),
);
const jsonArb = fc.jsonValue({ maxDepth: 3 });
const toolArb: fc.Arbitrary<ToolCallEntry> = fc.record({
  kind: fc.constant('tool_call' as const),
  key: fc.constant('k'),
  toolCallId: fc.constantFrom('t1', 't2'),
  title: textArb,
  name: fc.option(textArb, { nil: null }),
  toolKind: fc.constantFrom('read', 'edit', 'execute'),
  status: fc.constantFrom('pending', 'in_progress', 'completed'),
  content: fc.array(blockArb, { maxLength: 4 }),
  locations: fc.array(fc.record({ path: fc.constantFrom('/a', '/b'), line: fc.option(fc.nat(9), { nil: undefined }) }, { requiredKeys: ['path'] }), { maxLength: 3 }),
  rawInput: jsonArb,
  rawOutput: jsonArb,
  meta: fc.option(fc.dictionary(fc.constantFrom('x', 'y'), jsonArb), { nil: null }),
  parentKey: fc.option(fc.constant('p'), { nil: null }),
  statusHistory: fc.array(fc.record({ status: fc.constantFrom('pending', 'completed'), at: fc.nat(5) }), { maxLength: 3 }),
  provenance: fc.constantFrom('live' as const, 'replay' as const),
  stats: fc.record({
    chunks: fc.nat(3),
    upserts: fc.nat(3),
    bytes: fc.nat(9),
    firstSeen: fc.nat(9),
    lastSeen: fc.nat(9),
    lines: fc.array(fc.tuple(fc.nat(9), fc.nat(9)), { maxLength: 3 }),
  }),
}) as fc.Arbitrary<ToolCallEntry>;

/** A later version of `e`: grown text, extra blocks and history, or an unrelated entry. */
const evolveArb = (e: ToolCallEntry): fc.Arbitrary<ToolCallEntry> =>
  fc.oneof(
    toolArb,
    fc
      .record({ more: fc.array(blockArb, { maxLength: 2 }), grow: textArb, status: fc.constantFrom('in_progress', 'completed'), out: jsonArb })
      .map(({ more, grow, status, out }) => {
        const grown = grow ? (appendTextToEntry(e, grow) as ToolCallEntry) : e;
        return { ...grown, status, rawOutput: out, content: [...grown.content, ...more], statusHistory: [...e.statusHistory, { status, at: 9 }] };
      }),
  );

const plain = (e: unknown): unknown => JSON.parse(JSON.stringify(e));

test('applying diffEntry(prev, next) to prev gives next', () => {
  fc.assert(
    fc.property(
      toolArb.chain((prev) => evolveArb(prev).map((next) => [prev, next] as const)),
      ([prev, next]) => {
        const patch = diffEntry(prev, next);
        assert.ok(patch, 'same kind and key diff to a patch');
        assert.deepEqual(plain(applyFieldsToEntry(prev, patch)), plain(next));
      },
    ),
    { numRuns: 1000 },
  );
});

test('agent JSON with a "__proto__" key is patched as data, both ways', () => {
  const prev = fc.sample(toolArb, { numRuns: 1, seed: 1 })[0]!;
  for (const [a, b] of [
    ['{}', '{"__proto__":0}'],
    ['{"__proto__":{"x":1}}', '{}'],
    ['{"__proto__":{"x":1}}', '{"__proto__":{"x":2}}'],
  ] as const) {
    const from = { ...prev, rawOutput: JSON.parse(a) as unknown };
    const to = { ...prev, rawOutput: JSON.parse(b) as unknown };
    const patch = diffEntry(from, to);
    assert.ok(patch);
    // Through postMessage the patch is cloned like JSON; the webview applies the clone.
    const applied = applyFieldsToEntry(JSON.parse(JSON.stringify(from)) as typeof from, JSON.parse(JSON.stringify(patch)) as typeof patch);
    assert.deepEqual(plain(applied), plain(to), `${a} -> ${b}`);
  }
});

test('a tool-call status change is posted as its changed fields only', () => {
  const base: ToolCallEntry = {
    kind: 'tool_call',
    key: 'k',
    toolCallId: 't',
    title: 'Read a big file',
    name: null,
    toolKind: 'read',
    status: 'pending',
    content: [{ type: 'content', content: { type: 'text', text: 'x'.repeat(5000) } }],
    locations: [],
    rawInput: { path: '/a' },
    rawOutput: null,
    meta: null,
    parentKey: null,
    statusHistory: [],
    provenance: 'live',
    stats: { chunks: 0, upserts: 1, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] },
  };
  const next: ToolCallEntry = { ...base, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'x'.repeat(5000) + 'done' } }] };
  const b = new PatchBatcher();
  b.updated(next, undefined, base);
  const ops = b.take();
  assert.equal(ops.length, 1);
  const op = ops[0];
  assert.ok(op?.op === 'fields');
  assert.deepEqual(op.patch, { set: { status: 'completed' }, appendText: 'done' });
  // A second update in the same frame is diffed against what the webview holds, not the pending patch.
  b.updated(next, undefined, base);
  b.updated({ ...next, status: 'failed' }, undefined, next);
  assert.deepEqual(b.take(), [{ op: 'fields', h: -1, patch: { set: { status: 'failed' }, appendText: 'done' } }]);
});
