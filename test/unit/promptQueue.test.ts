// The prompt queue keeps order, refuses removing what is gone, lists prompts for the panel and wakes waiters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PromptQueue } from '../../src/common/promptQueue';

test('prompts leave in order; a removed or already-sent index is refused; the panel sees images counted', async () => {
  const q = new PromptQueue();
  q.push({ text: 'one', images: [] });
  q.push({ text: 'two', images: [{ mimeType: 'image/png', data: 'AA==' }, { mimeType: 'image/png', data: 'AA==' }] });
  q.push({ text: '', images: [{ mimeType: 'image/png', data: 'AA==' }] });
  assert.deepEqual(q.forPanel(), ['one', 'two [2 images]', '[1 image]']);
  assert.equal(q.remove(5), false);
  assert.equal(q.remove(-1), false);
  assert.equal(q.remove(0), true);
  assert.equal(q.shift()?.text, 'two');
  assert.equal(q.length, 1);
  let woke = false;
  const w = q.whenSettled(false).then(() => (woke = true));
  assert.equal(woke, false);
  q.settle();
  await w;
  assert.equal(woke, true);
  await q.whenSettled(true); // already settled: resolves at once
});
