import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyLink } from '../../src/common/links';

test('web and mail links open externally', () => {
  assert.deepEqual(classifyLink('https://example.org/a?b#c'), { kind: 'external', uri: 'https://example.org/a?b#c' });
  assert.equal(classifyLink('mailto:x@example.org').kind, 'external');
});

test('file links and bare paths open in the editor, with a line when given', () => {
  assert.deepEqual(classifyLink('file:///ws/src/a%20b.ts#L12'), { kind: 'file', path: '/ws/src/a b.ts', line: 12 });
  assert.deepEqual(classifyLink('/ws/src/a.ts:7'), { kind: 'file', path: '/ws/src/a.ts', line: 7 });
  assert.deepEqual(classifyLink('/ws/src/a.ts'), { kind: 'file', path: '/ws/src/a.ts', line: null });
});

test('script and command schemes are refused', () => {
  for (const href of ['javascript:alert(1)', 'JavaScript:alert(1)', 'command:workbench.action.quit', 'vscode://x', 'data:text/html,<script>', 'relative/path']) {
    assert.equal(classifyLink(href).kind, 'refused', href);
  }
});
