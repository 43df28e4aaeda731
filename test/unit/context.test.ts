import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextBlocks, contextChip, contextUri, formatProblems, MAX_PROMPT_CONTEXT, resourceLabel, type ContextItem } from '../../src/common/context';

const selection: ContextItem = { id: 'ctx-1', kind: 'selection', path: '/w/src/a b.ts', lines: [10, 20], text: 'const x = 1;', size: 12 };
const file: ContextItem = { id: 'ctx-2', kind: 'file', path: '/w/README.md', lines: null, text: '# hi', size: 4 };
const big: ContextItem = { id: 'ctx-3', kind: 'file', path: '/w/big.bin', lines: null, text: null, size: 9_000_000 };
const problems: ContextItem = { id: 'ctx-4', kind: 'problems', path: '/w/a.ts', lines: null, text: 'a.ts:1:1 error: x', size: 17 };

test('the URI carries the line range as a fragment', () => {
  assert.equal(contextUri(selection), 'file:///w/src/a%20b.ts#L10-20');
  assert.equal(contextUri({ path: '/w/a.ts', lines: [7, 7] }), 'file:///w/a.ts#L7');
  assert.equal(contextUri(file), 'file:///w/README.md');
});

test('with embeddedContext, text is embedded as a resource', () => {
  assert.deepEqual(contextBlocks([selection, file], true), [
    { type: 'resource', resource: { uri: 'file:///w/src/a%20b.ts#L10-20', mimeType: 'text/plain', text: 'const x = 1;' } },
    { type: 'resource', resource: { uri: 'file:///w/README.md', mimeType: 'text/plain', text: '# hi' } },
  ]);
});

test('without embeddedContext (or without text), a resource_link is sent', () => {
  assert.deepEqual(contextBlocks([selection], false), [{ type: 'resource_link', uri: 'file:///w/src/a%20b.ts#L10-20', name: 'a b.ts:10-20', size: 12 }]);
  assert.deepEqual(contextBlocks([big], true), [{ type: 'resource_link', uri: 'file:///w/big.bin', name: 'big.bin', size: 9_000_000 }]);
});

test('problems: embedded as a resource, else as plain text (there is no file of their own to link)', () => {
  assert.deepEqual(contextBlocks([problems], true), [{ type: 'resource', resource: { uri: 'file:///w/a.ts#problems', mimeType: 'text/plain', text: 'a.ts:1:1 error: x' } }]);
  assert.deepEqual(contextBlocks([problems], false), [{ type: 'text', text: 'Problems in file:///w/a.ts:\na.ts:1:1 error: x' }]);
});

test('chips show a short label, the size, and as detail the full path, how it is sent and the start of what is sent', () => {
  assert.deepEqual(contextChip(selection), {
    id: 'ctx-1',
    kind: 'selection',
    label: 'a b.ts:10-20',
    size: '12 B',
    detail: '/w/src/a b.ts:10-20 — 12 B, sent as text (as a link to an agent that takes no embedded context)\n\nconst x = 1;',
  });
  assert.equal(contextChip(problems).label, 'Problems: a.ts');
  assert.equal(contextChip(file).label, 'README.md');
  assert.equal(contextChip(big).detail, '/w/big.bin — sent as a link');
  assert.equal(contextChip(big).size, '8.6 MB');
  const long: ContextItem = { ...file, text: 'x'.repeat(5000), size: 5000 };
  assert.ok(contextChip(long).detail.endsWith(`${'x'.repeat(600)}\n…`), 'the preview is bounded');
  assert.equal(contextChip({ ...file, kind: 'folder', path: '/w/src', text: 'a.ts' }).label, 'src/');
  assert.equal(contextChip({ ...file, kind: 'symbol', label: 'greet' }).label, 'greet');
});

test('a prompt embeds at most MAX_PROMPT_CONTEXT in all: later files go as links, terminal text is cut', () => {
  const half = 'y'.repeat(MAX_PROMPT_CONTEXT / 2 + 10);
  const a: ContextItem = { ...file, id: 'a', path: '/w/a.txt', text: half, size: half.length };
  const b: ContextItem = { ...file, id: 'b', path: '/w/b.txt', text: half, size: half.length };
  const t: ContextItem = { id: 't', kind: 'terminal', path: 'bash', lines: null, text: half, size: half.length, label: 'Terminal: npm test' };
  const blocks = contextBlocks([a, b, t], true);
  assert.equal(blocks[0]?.type, 'resource');
  assert.deepEqual(blocks[1], { type: 'resource_link', uri: 'file:///w/b.txt', name: 'b.txt', size: half.length });
  assert.ok(blocks[2]?.type === 'resource' && 'text' in blocks[2].resource && String(blocks[2].resource.text).endsWith('…(cut)'));
  assert.ok(blocks[2]?.type === 'resource' && blocks[2].resource.uri === 'terminal:bash');
  assert.deepEqual(contextBlocks([{ ...t, text: 'ok' }], false), [{ type: 'text', text: 'Terminal: npm test:\nok' }]);
});

test('problems are formatted one per line, multi-line messages folded', () => {
  const text = formatProblems('/w/a.ts', [
    { line: 3, column: 5, severity: 'error', message: 'Type mismatch\n  in x', source: 'ts', code: '2322' },
    { line: 9, column: 1, severity: 'warning', message: 'unused', source: null, code: null },
  ]);
  assert.equal(text, 'a.ts:3:5 error [ts 2322]: Type mismatch in x\na.ts:9:1 warning: unused');
});

test('a sent resource reads like its chip: one form for a selection, a file and problems', () => {
  for (const item of [selection, problems, file, { ...selection, lines: [7, 7] as [number, number] }]) {
    const block = contextBlocks([item], true)[0];
    const sent = block?.type === 'resource' ? block.resource.uri : block?.type === 'resource_link' ? block.uri : '';
    assert.equal(resourceLabel(sent), contextChip(item).label, sent);
  }
  assert.equal(resourceLabel('https://example.com/a%ZZ'), 'a%ZZ');
  assert.equal(resourceLabel('file:///w/x.ts?v=1#L3-L9'), 'x.ts:3-9');
});
