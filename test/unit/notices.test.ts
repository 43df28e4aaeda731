import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addNotice, MAX_NOTICES, type Notice } from '../../src/common/notices';

const v2 = { severity: 'info', title: 'The demo agent speaks the ACP v2 draft on this connection.' };

test('a notice that comes again shows once, counted, and moves to the end', () => {
  let list: Notice[] = [];
  list = addNotice(list, v2);
  list = addNotice(list, { severity: 'warning', title: 'Slow' });
  list = addNotice(list, v2);
  list = addNotice(list, { ...v2, description: null });
  assert.deepEqual(list, [
    { severity: 'warning', title: 'Slow' },
    { ...v2, description: null, count: 3 },
  ]);
});

test('a different severity or description is another notice; the oldest drop off past the limit', () => {
  let list: Notice[] = [addNotice([], v2)[0]!];
  list = addNotice(list, { ...v2, severity: 'error' });
  list = addNotice(list, { ...v2, description: 'more' });
  assert.equal(list.length, 3);
  for (let i = 0; i < 10; i++) list = addNotice(list, { severity: 'info', title: `n${i}` });
  assert.equal(list.length, MAX_NOTICES);
  assert.equal(list.at(-1)?.title, 'n9');
});
