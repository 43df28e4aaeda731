import { test } from 'node:test';
import assert from 'node:assert/strict';
import { debugViewPlacement } from '../../../src/common/debug/placement';

const g = (column: number, hasChat: boolean, active = false) => ({ column, hasChat, active });

test('debug views reuse the place the last one went to while that group is open', () => {
  assert.equal(debugViewPlacement([g(1, true, true), g(2, false)], 2), 2);
  assert.equal(debugViewPlacement([g(1, true, true), g(2, true)], 2), 2, 'even when a chat moved there since');
  assert.equal(debugViewPlacement([g(1, true, true)], 2), 'beside', 'a closed group is not reused');
});

test('else a group without a chat (the active one first), so no chat gets narrower', () => {
  assert.equal(debugViewPlacement([g(1, false), g(2, true, true), g(3, false, false)], undefined), 1);
  assert.equal(debugViewPlacement([g(1, false), g(2, true), g(3, false, true)], undefined), 3);
});

test('a lone chat gets one group beside it; with chats in every group the view is a tab in the active one', () => {
  assert.equal(debugViewPlacement([g(1, true, true)], undefined), 'beside');
  assert.equal(debugViewPlacement([], undefined), 'beside');
  assert.equal(debugViewPlacement([g(1, true), g(2, true, true)], undefined), 2);
});
