// The one event emitter every layer uses: listeners are called in order, a throwing listener does not
// starve the others (its error is rethrown after), and nothing is delivered after dispose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/common/util/lifecycle';

test('every listener runs even when one throws; the first error is rethrown', () => {
  const e = new Emitter<number>();
  const seen: string[] = [];
  e.event((n) => seen.push(`a${n}`));
  e.event(() => {
    throw new Error('broken view');
  });
  const sub = e.event((n) => seen.push(`c${n}`));
  assert.throws(() => e.fire(1), /broken view/);
  assert.deepEqual(seen, ['a1', 'c1']);
  sub.dispose();
  e.dispose();
  e.fire(2);
  assert.deepEqual(seen, ['a1', 'c1']);
});
