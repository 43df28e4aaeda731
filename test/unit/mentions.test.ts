import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileUri, mentionQuery, mentionText, parseMentions, rankPaths } from '../../src/common/mentions';

test('mentions are paths after @, quoted or not, without trailing punctuation', () => {
  const text = 'Look at @src/a.ts, and @"docs/My File.md". Mail me@example.org (@lib/b.js)';
  assert.deepEqual(
    parseMentions(text).map((m) => m.path),
    ['src/a.ts', 'docs/My File.md', 'lib/b.js'],
  );
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

test('the mention being typed is found at the caret', () => {
  assert.deepEqual(mentionQuery('see @src/ap', 11), { query: 'src/ap', start: 4 });
  assert.deepEqual(mentionQuery('@', 1), { query: '', start: 0 });
  assert.equal(mentionQuery('mail a@b', 8), null);
  assert.equal(mentionQuery('see @src/ap now', 15), null);
  assert.deepEqual(mentionQuery('(@x', 3), { query: 'x', start: 1 });
});

test('completed mentions quote paths with spaces; ranking prefers file-name prefixes', () => {
  assert.equal(mentionText('src/a.ts'), '@src/a.ts ');
  assert.equal(mentionText('docs/My File.md'), '@"docs/My File.md" ');
  assert.deepEqual(rankPaths(['lib/app.ts', 'src/deep/app.ts', 'src/mapper.ts', 'README.md', 'app/x.ts'], 'app'), ['lib/app.ts', 'src/deep/app.ts', 'src/mapper.ts', 'app/x.ts']);
});
