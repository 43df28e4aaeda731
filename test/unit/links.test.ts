import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyLink, isRemotePath } from '../../src/common/links';

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
  for (const href of [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'command:workbench.action.quit',
    'vscode://x',
    'data:text/html,<script>',
    '#heading',
    '//evil.example/x',
    '',
    'https://[bad',
  ]) {
    assert.equal(classifyLink(href).kind, 'refused', href);
  }
});

test('UNC and device paths, by path or by file URL, are refused like remote links', () => {
  const hostile = [
    '\\\\attacker\\share\\a.ts',
    '\\\\attacker@SSL\\DavWWWRoot\\x',
    '//attacker/share/a.ts',
    '\\/attacker/share',
    '/\\attacker\\share',
    '\\\\?\\UNC\\attacker\\share',
    '\\\\.\\pipe\\x',
    '%5C%5Cattacker%5Cshare',
    'file://attacker/share/a.ts',
    'file:////attacker/share/a.ts',
    'file:///%5C%5Cattacker%5Cshare',
    '  \\\\attacker\\share',
  ];
  for (const href of hostile) {
    const t = classifyLink(href);
    assert.equal(t.kind, 'refused', href);
    assert.match(t.kind === 'refused' ? t.reason : '', /another machine|scheme-relative/, href);
  }
  // Local files stay openable, including file://localhost/.
  assert.deepEqual(classifyLink('file://localhost/ws/a.ts'), { kind: 'file', path: '/ws/a.ts', line: null });
  assert.deepEqual(classifyLink('/ws/a.ts'), { kind: 'file', path: '/ws/a.ts', line: null });
  assert.equal(isRemotePath('C:\\ws\\a.ts'), false);
  assert.equal(isRemotePath('\\\\host\\share'), true);
});
