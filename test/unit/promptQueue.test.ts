// The prompt queue keeps order, refuses removing what is gone, lists prompts for the panel and wakes waiters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PromptQueue } from '../../src/common/promptQueue';

test('prompts leave in order; a removed or already-sent id is refused; the panel sees images counted', async () => {
  const q = new PromptQueue();
  const one = q.push({ text: 'one', images: [] });
  q.push({
    text: 'two',
    images: [
      { mimeType: 'image/png', data: 'AA==' },
      { mimeType: 'image/png', data: 'AA==' },
    ],
  });
  q.push({ text: '', images: [{ mimeType: 'image/png', data: 'AA==' }] });
  assert.deepEqual(
    q.forPanel().map((p) => [p.text, p.note]),
    [
      ['one', ''],
      ['two', '2 images'],
      ['', '1 image'],
    ],
  );
  assert.equal(q.remove('q99'), false);
  assert.equal(q.remove(one), true);
  assert.equal(q.remove(one), false, 'already gone');
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

test('queued prompts are edited and moved by id; an edit that leaves nothing to send, or a move off the ends, is refused', () => {
  const q = new PromptQueue();
  const a = q.push({ text: 'a', images: [] });
  const b = q.push({ text: 'b', images: [] });
  const c = q.push({ text: 'c', images: [] });
  assert.equal(q.edit(b, '  B!  '), true);
  assert.equal(q.edit(b, '   '), false, 'a prompt with nothing to send');
  assert.equal(q.edit('q99', 'x'), false);
  assert.equal(q.move(c, -1), true);
  assert.deepEqual(
    q.forPanel().map((p) => p.text),
    ['a', 'c', 'B!'],
  );
  assert.equal(q.move(a, -1), false, 'already first');
  assert.equal(q.move(b, 1), false, 'already last');
  assert.equal(q.move(a, 0), false);
  assert.equal(q.move(a, 2), true);
  assert.deepEqual(
    q.forPanel().map((p) => p.id),
    [c, b, a],
  );
  // Sending the front one does not move an edit onto another prompt: ids, not places.
  q.shift();
  assert.equal(q.edit(c, 'late'), false);
  assert.deepEqual(
    q.forPanel().map((p) => p.text),
    ['B!', 'a'],
  );
});
