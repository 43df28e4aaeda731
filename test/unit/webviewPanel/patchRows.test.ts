import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchRows } from '../../../webview/lineDiff';

test("patchRows: jsdiff's Index: and ===== headers are not rows", () => {
  const text = [
    'Index: notes.md',
    '===================================================================',
    '--- notes.md',
    '+++ notes.md',
    '@@ -1,2 +1,2 @@',
    ' keep',
    '-old',
    '+new',
    '',
  ].join('\n');
  assert.deepEqual(patchRows(text), [
    { t: 'hunk', line: 1 },
    { t: ' ', text: 'keep' },
    { t: '-', text: 'old' },
    { t: '+', text: 'new' },
  ]);
});

test('patchRows: two files, each with git headers; a removed line that reads "-- x" stays a row', () => {
  const text = [
    'diff --git a/a.txt b/a.txt',
    'index 1111111..2222222 100644',
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -3 +3 @@',
    '--- x',
    '+++ y',
    'diff --git a/b.txt b/b.txt',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/b.txt',
    '@@ -0,0 +1,2 @@',
    '+one',
    '+two',
    '\\ No newline at end of file',
  ].join('\n');
  assert.deepEqual(patchRows(text), [
    { t: 'hunk', line: 3 },
    { t: '-', text: '-- x' },
    { t: '+', text: '++ y' },
    { t: 'hunk', line: 1 },
    { t: '+', text: 'one' },
    { t: '+', text: 'two' },
  ]);
});

test('patchRows: a context line whose leading space was trimmed is still context', () => {
  assert.deepEqual(patchRows('@@ -1,3 +1,3 @@\n a\n\n-b\n+c'), [
    { t: 'hunk', line: 1 },
    { t: ' ', text: 'a' },
    { t: ' ', text: '' },
    { t: '-', text: 'b' },
    { t: '+', text: 'c' },
  ]);
});
