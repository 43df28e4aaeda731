// The webview's DOM-free logic: line diff, slash completion, link checks, entry text, config options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { MessageEntry, ToolCallEntry } from '../../../src/common/store/model';
import { toControl } from '../../../webview/configOptions';
import { toViewEntry } from '../../../src/common/webview/viewEntry';
import { appendTextToEntry, commandOf, entryPlainText, formatUsage, thoughtSeconds } from '../../../webview/entryModel';
import { splitLines } from '../../../src/common/changes/eol';
import { compactDiff, diffStats, lineDiff, type DiffLine } from '../../../webview/lineDiff';
import { matchCommands, slashQuery } from '../../../webview/slash';
import { splitCodeSpans } from '../../../webview/codeSpans';
import { toolCallEntry } from '../helpers/toolCallEntry';

const stats = { chunks: 1, upserts: 0, bytes: 1, firstSeen: 1000, lastSeen: 5300, lines: [] };
const msg = (text: string): MessageEntry => ({ kind: 'agent_message', key: 'k', messageId: null, content: [{ type: 'text', text }], meta: null, provenance: 'live', stats });
const tool = (content: ToolCallEntry['content']): ToolCallEntry =>
  toolCallEntry('t', { toolCallId: 'tc', title: 'Edit', status: 'pending', content, locations: [{ path: '/a/b.ts' }], stats });

const side = (lines: readonly DiffLine[], keep: ' ' | '-' | '+') => lines.filter((l) => l.t === ' ' || l.t === keep).map((l) => l.text);

/** Length of the longest common subsequence, by the textbook DP: the reference for minimality. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    b.forEach((y, j) => row.push(x === y ? prev[j]! + 1 : Math.max(prev[j + 1]!, row[j]!)));
    prev = row;
  }
  return prev[b.length]!;
}

test('lineDiff: both sides can be rebuilt from the diff, and no diff is shorter (property)', () => {
  const text = fc
    .tuple(fc.array(fc.constantFrom('a', 'b', 'c', '', 'x y'), { maxLength: 12 }), fc.boolean())
    .map(([l, newline]) => l.join('\n') + (newline && l.length ? '\n' : ''));
  fc.assert(
    fc.property(text, text, (a, b) => {
      const d = lineDiff(a, b);
      assert.deepEqual(side(d, '-'), splitLines(a));
      assert.deepEqual(side(d, '+'), splitLines(b));
      const { added, removed } = diffStats(d);
      const common = lcsLength(splitLines(a), splitLines(b));
      assert.equal(added + removed, splitLines(a).length + splitLines(b).length - 2 * common, 'the diff is minimal');
    }),
    { numRuns: 500 },
  );
});

test('lineDiff: a final newline is not a blank row; a large file with scattered edits is not a rewrite', () => {
  assert.deepEqual(lineDiff('a\nb\n', 'a\nc\n'), [
    { t: ' ', text: 'a' },
    { t: '-', text: 'b' },
    { t: '+', text: 'c' },
  ]);
  const old = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
  const neu = old.map((l, i) => (i % 500 === 0 ? `${l} changed` : l));
  const d = lineDiff(old.join('\n'), neu.join('\n'));
  assert.deepEqual(diffStats(d), { added: 10, removed: 10 });
});

test('lineDiff finds the one changed line; compactDiff folds far context', () => {
  const old = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n');
  const neu = ['1', '2', '3', '4', 'five', '6', '7', '8'].join('\n');
  const d = lineDiff(old, neu);
  assert.deepEqual(diffStats(d), { added: 1, removed: 1 });
  assert.deepEqual(compactDiff(d, 1), [
    { t: 'skip', count: 3 },
    { t: ' ', text: '4' },
    { t: '-', text: '5' },
    { t: '+', text: 'five' },
    { t: ' ', text: '6' },
    { t: 'skip', count: 2 },
  ]);
  assert.deepEqual(diffStats(lineDiff('', 'a\nb')), { added: 2, removed: 0 });
});

test('slash completion: only a bare leading command word, prefix matches first', () => {
  assert.equal(slashQuery('/he', 3), 'he');
  assert.equal(slashQuery('/', 1), '');
  assert.equal(slashQuery('/help me', 8), null);
  assert.equal(slashQuery('say /he', 7), null);
  const cmds = [
    { name: 'rehelp', description: '' },
    { name: 'help', description: '' },
    { name: 'test', description: '' },
  ];
  assert.deepEqual(
    matchCommands(cmds, 'help').map((c) => c.name),
    ['help', 'rehelp'],
  );
  assert.deepEqual(
    matchCommands(cmds, '').map((c) => c.name),
    ['rehelp', 'help', 'test'],
  );
});

test('appendText goes to the last text block, else starts a new one', () => {
  const e = appendTextToEntry(msg('ab'), 'c');
  assert.equal(entryPlainText(e), 'abc');
  const withImage: MessageEntry = {
    ...msg('a'),
    content: [
      { type: 'text', text: 'a' },
      { type: 'image', data: '', mimeType: 'image/png' },
    ],
  };
  const appended = appendTextToEntry(withImage, 'z');
  assert.ok(appended.kind !== 'elicitation' && appended.kind !== 'subagent' && appended.kind !== 'compaction');
  assert.deepEqual(appended.content.at(-1), { type: 'text', text: 'z' });
  const t = appendTextToEntry(appendTextToEntry(tool([]), 'out'), 'put');
  assert.ok(t.kind === 'tool_call');
  assert.deepEqual(t.content, [{ type: 'content', content: { type: 'text', text: 'output' } }]);
  assert.match(entryPlainText(t), /Edit[\s\S]*output[\s\S]*\/a\/b\.ts/);
});

test('formatting: thought seconds, usage, command line', () => {
  // The webview gets a thought's first and last chunk times as its `span` (toViewEntry).
  assert.equal(thoughtSeconds(toViewEntry({ ...msg(''), kind: 'agent_thought' })), 4);
  assert.equal(thoughtSeconds(toViewEntry({ ...msg(''), kind: 'agent_thought', stats: { ...stats, lastSeen: 1000 } })), 1);
  assert.equal(formatUsage({ used: 48_200, size: 200_000, cost: { amount: 0.4, currency: 'USD' } }), '48k / 200k (24%) · 0.40 USD');
  assert.equal(formatUsage({ used: 1_500_000, size: 0 }), '1.5M / 0');
  assert.equal(commandOf({ command: ['npm', 'test'] }), 'npm test');
  assert.equal(commandOf({ cmd: 'ls' }), 'ls');
  assert.equal(commandOf({ command: 'echo', args: ['Hello there', 'a-b'] }), "echo 'Hello there' a-b");
  assert.equal(commandOf({ command: 'printf', args: ["it's"] }), "printf 'it'\\''s'");
  assert.equal(commandOf('ls'), null);
});

test('config options: v1 id or v2 configId, flat or grouped selects, booleans; unknown types skipped', () => {
  assert.deepEqual(toControl({ id: 'm', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }), {
    type: 'select',
    id: 'm',
    name: 'Model',
    value: 'a',
    groups: [{ name: null, choices: [{ value: 'a', name: 'A' }] }],
  });
  const grouped = toControl({ configId: 'm', name: 'Model', type: 'select', currentValue: 'a', options: [{ groupId: 'g', name: 'Fast', options: [{ value: 'a', name: 'A' }] }] });
  assert.equal(grouped?.type === 'select' && grouped.groups[0]?.name, 'Fast');
  assert.deepEqual(toControl({ id: 'b', name: 'Think', type: 'boolean', currentValue: true }), { type: 'boolean', id: 'b', name: 'Think', value: true });
  assert.equal(toControl({ id: 'x', name: 'X', type: '_custom' }), null);
  assert.equal(toControl({ name: 'no id', type: 'boolean', currentValue: true }), null);
});

test('code spans in titles: backticks become code, unmatched ones stay text', () => {
  assert.deepEqual(splitCodeSpans('Run `npm test` now'), [
    { code: false, text: 'Run ' },
    { code: true, text: 'npm test' },
    { code: false, text: ' now' },
  ]);
  assert.deepEqual(splitCodeSpans('``a ` b``'), [{ code: true, text: 'a ` b' }]);
  assert.deepEqual(splitCodeSpans('`` `x` ``'), [{ code: true, text: '`x`' }]);
  assert.deepEqual(splitCodeSpans('no `close'), [{ code: false, text: 'no `close' }]);
  assert.deepEqual(splitCodeSpans('plain'), [{ code: false, text: 'plain' }]);
  assert.deepEqual(splitCodeSpans(''), []);
});
