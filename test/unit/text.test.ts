import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isInside, sliceLines } from '../../src/common/text';

test('sliceLines applies 1-based line and limit, keeping line endings', () => {
  const t = 'a\nb\r\nc\nd';
  assert.equal(sliceLines(t), t);
  assert.equal(sliceLines(t, 2), 'b\r\nc\nd');
  assert.equal(sliceLines(t, 2, 2), 'b\r\nc\n');
  assert.equal(sliceLines(t, null, 1), 'a\n');
  assert.equal(sliceLines(t, 10, 2), '');
  assert.equal(sliceLines(t, 0, 1), 'a\n', 'line 0 is treated as the first line');
  assert.equal(sliceLines(t, 1, 0), '');
});

test('isInside compares whole path segments', () => {
  assert.equal(isInside('/ws', '/ws/a.txt'), true);
  assert.equal(isInside('/ws/', '/ws'), true);
  assert.equal(isInside('/ws', '/ws2/a.txt'), false);
  assert.equal(isInside('C:\\ws', 'C:\\ws\\x'), true);
});
