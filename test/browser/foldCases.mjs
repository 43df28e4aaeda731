// Browser checks of Restore in place's fold (issue 41): the turns from the restored message on are hidden
// behind one row, a button named for what it holds; Enter opens and closes it (aria-expanded follows), the
// folded entries are kept, and the conversation that went on shows below. Registered by run.mjs.
import assert from 'node:assert/strict';
import path from 'node:path';
import { message, panel, patch, snapshot } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const FOLD = { first: 'u2', last: 'a2', from: { sessionId: 's-0', key: 'k-two' } };

export function register(test) {
  test('restore in place: the folded turns hide behind a named row that opens and closes by keyboard', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 520 });
    const entries = [
      message('user_message', 'u1', 'First question'),
      message('agent_message', 'a1', 'First answer.'),
      message('user_message', 'u2', 'Please edit the file'),
      message('agent_message', 'a2', 'I edited demo-edit.txt.'),
      message('user_message', 'u3', 'Go on from here instead'),
      message('agent_message', 'a3', 'Going on from the first answer.'),
    ];
    await send(snapshot(entries, panel({ turn: 'idle', folds: [FOLD] })));
    await flush();
    const toggle = page.locator('.fold-row .fold-toggle');
    assert.equal(await toggle.count(), 1, 'one row for the fold');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await toggle.getAttribute('aria-label'), 'Show 2 entries from when the chat was restored to an earlier message');
    assert.match(await toggle.innerText(), /Restored here: 2 later entries folded/);
    const visible = (key) => page.locator(`[data-key="${key}"]`).isVisible();
    assert.deepEqual(await Promise.all(['u1', 'a1', 'u2', 'a2', 'u3', 'a3'].map(visible)), [true, true, false, false, true, true]);
    // The row sits where the folded turns were: after the first answer, before the conversation that went on.
    const order = await page.locator('.fold-row, .entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? 'fold'));
    assert.deepEqual(
      order.filter((k) => k === 'fold' || /^[ua][123]$/.test(k)),
      ['u1', 'a1', 'fold', 'u2', 'a2', 'u3', 'a3'],
    );
    await page.screenshot({ path: path.join(shots, 'webview-fold-closed.png') });

    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await toggle.getAttribute('aria-label'), 'Fold 2 entries from when the chat was restored to an earlier message');
    assert.deepEqual(await Promise.all(['u2', 'a2'].map(visible)), [true, true], 'opened: the folded turns are there');
    await page.screenshot({ path: path.join(shots, 'webview-fold-open.png') });
    // Another panel change (the next turn) keeps the fold as the user left it, and the row in its place.
    await send(patch({ op: 'panel', panel: { turn: 'busy' } }));
    await flush();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press(' ');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(await Promise.all(['u2', 'a2'].map(visible)), [false, false]);
    assert.deepEqual(errors, []);
  });
}
