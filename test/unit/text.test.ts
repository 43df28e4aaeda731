import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineWindow, sliceLines } from '../../src/common/text';

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

test("paging keeps each page's last newline: the pages join back into the file", () => {
  const t = 'one\ntwo\r\nthree\n\nfive';
  const pages = [sliceLines(t, 1, 2), sliceLines(t, 3, 2), sliceLines(t, 5, 2)];
  assert.deepEqual(pages, ['one\ntwo\r\n', 'three\n\n', 'five']);
  assert.equal(pages.join(''), t);
});

test('LineWindow gives the same lines whatever the pieces the text arrives in', () => {
  const t = 'a\nbb\r\nccc\n\ndddd\ne';
  for (const [line, limit] of [
    [1, 1],
    [2, 3],
    [4, 10],
    [7, 1],
    [null, 2],
    [3, null],
  ] as const) {
    for (const size of [1, 2, 3, 5, 100]) {
      const w = new LineWindow(line, limit);
      for (let i = 0; i < t.length && !w.done; i += size) w.push(t.slice(i, i + size));
      assert.equal(w.text(), line === null && limit === null ? t : sliceLines(t, line, limit), `line ${line} limit ${limit} pieces of ${size}`);
    }
  }
});

test('LineWindow is done once its last line is complete, so a reader can stop early', () => {
  const w = new LineWindow(1, 2);
  w.push('a\nb');
  assert.equal(w.done, false);
  w.push('\nc\n');
  assert.equal(w.done, true);
  assert.equal(w.text(), 'a\nb\n');
});
