import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextBlocks, contextChip, contextUri, formatProblems, resourceLabel, type ContextItem } from '../../src/common/context';

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

test('chips show a short label and the full path as detail', () => {
  assert.deepEqual(contextChip(selection), { id: 'ctx-1', kind: 'selection', label: 'a b.ts:10-20', detail: '/w/src/a b.ts:10-20' });
  assert.equal(contextChip(problems).label, 'Problems: a.ts');
  assert.equal(contextChip(file).label, 'README.md');
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
