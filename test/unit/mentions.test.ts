import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileUri, parseMentions } from '../../src/common/mentions';

test('mentions are paths after @, quoted or not, without trailing punctuation', () => {
  const text = 'Look at @src/a.ts, and @"docs/My File.md". Mail me@example.org (@lib/b.js)';
  assert.deepEqual(parseMentions(text).map((m) => m.path), ['src/a.ts', 'docs/My File.md', 'lib/b.js']);
  const [first] = parseMentions(text);
  assert.equal(text.slice(first!.start, first!.end), '@src/a.ts');
  const quoted = parseMentions(text)[1]!;
  assert.equal(text.slice(quoted.start, quoted.end), '@"docs/My File.md"');
});

test('no mentions in plain text or bare @', () => {
  assert.deepEqual(parseMentions('hello @ world, a@b'), []);
});

test('file URIs are percent-encoded per segment', () => {
  assert.equal(fileUri('/ws/My File#1.md'), 'file:///ws/My%20File%231.md');
  assert.equal(fileUri('C:\\ws\\a.ts'), 'file:///C%3A/ws/a.ts');
});
