import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyLink } from '../../src/common/links';

test('web and mail links open externally', () => {
  assert.deepEqual(classifyLink('https://example.org/a?b#c'), { kind: 'external', uri: 'https://example.org/a?b#c' });
  assert.deepEqual(classifyLink('  HTTP://x'), { kind: 'external', uri: 'http://x/' });
  assert.equal(classifyLink('mailto:x@example.org').kind, 'external');
});

test('file links and paths open in the editor, with a line when given', () => {
  assert.deepEqual(classifyLink('file:///ws/src/a%20b.ts#L12'), { kind: 'file', path: '/ws/src/a b.ts', line: 12 });
  assert.deepEqual(classifyLink('/ws/src/a.ts:7'), { kind: 'file', path: '/ws/src/a.ts', line: 7 });
  assert.deepEqual(classifyLink('/ws/src/a.ts'), { kind: 'file', path: '/ws/src/a.ts', line: null });
  assert.deepEqual(classifyLink('src/a.ts#L3'), { kind: 'file', path: 'src/a.ts', line: 3 });
  assert.deepEqual(classifyLink('src/a.ts#L3-L9'), { kind: 'file', path: 'src/a.ts', line: 3 });
  assert.deepEqual(classifyLink('src/my%20file.ts:4:2'), { kind: 'file', path: 'src/my file.ts', line: 4 });
  assert.deepEqual(classifyLink('C:\\ws\\a.ts'), { kind: 'file', path: 'C:\\ws\\a.ts', line: null });
});

test('script, command and data schemes, anchors and scheme-relative URLs are refused', () => {
  for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'command:workbench.action.quit', 'vscode://x', 'data:text/html,<script>', '#heading', '//evil.example/x', '', 'https://[bad']) {
    assert.equal(classifyLink(href).kind, 'refused', href);
  }
});
