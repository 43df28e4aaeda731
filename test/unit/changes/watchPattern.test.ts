// A review's file watcher watches exactly its turns' files: one pattern under their common folder, the
// glob's own syntax in a path matched by `?`, on POSIX and on Windows (a second drive: a second pattern).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchPatterns } from '../../../src/common/changes/watchPattern';

test('POSIX: the common folder and each file under it', () => {
  assert.deepEqual(watchPatterns(['/w/src/a.ts', '/w/test/b.ts', '/w/src/a.ts'], false), [{ base: '/w', pattern: '{src/a.ts,test/b.ts}' }]);
  assert.deepEqual(watchPatterns(['/w/src/a.ts'], false), [{ base: '/w/src', pattern: 'a.ts' }]);
  assert.deepEqual(watchPatterns(['/a.ts', '/w/b.ts'], false), [{ base: '/', pattern: '{a.ts,w/b.ts}' }]);
  assert.deepEqual(watchPatterns([], false), []);
});

test('a path with glob syntax cannot widen or break the pattern', () => {
  assert.deepEqual(watchPatterns(['/w/{x,y}/*.ts', '/w/a[1].ts'], false), [{ base: '/w', pattern: '{?x?y?/?.ts,a?1?.ts}' }]);
});

test('Windows: backslashes, a drive root, and one pattern per drive', () => {
  assert.deepEqual(watchPatterns(['C:\\w\\src\\a.ts', 'C:\\w\\b.ts'], true), [{ base: 'C:\\w', pattern: '{b.ts,src/a.ts}' }]);
  assert.deepEqual(watchPatterns(['C:\\a.ts', 'C:\\w\\b.ts'], true), [{ base: 'C:\\', pattern: '{a.ts,w/b.ts}' }]);
  assert.deepEqual(watchPatterns(['C:\\w\\a.ts', 'D:\\w\\b.ts'], true), [
    { base: 'C:\\w', pattern: 'a.ts' },
    { base: 'D:\\w', pattern: 'b.ts' },
  ]);
});
