// Browser checks of issue 39's panel surfaces: a message a session/load replay told in other words keeps the
// text the user saw and carries a visible, labelled "History differs" mark. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL, message, panel } from './fixtures.mjs';
import { assertClean, axeRun } from './a11y.mjs';
import { root } from './server.mjs';

const snapshot = (entries) => ({ type: 'snapshot', protocol: PROTOCOL, entries, panel: panel() });

export function register(test) {
  test('replay differs: the shown text stays and the message is marked, labelled, and passes axe', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    const shown = message('agent_message', 'a1', 'The answer is 42, as computed.');
    await send(snapshot([message('user_message', 'u1', 'What is it?'), { ...shown, replayDiffers: true }, message('agent_message', 'a2', 'A message the replay told the same.')]));
    await flush();
    const card = page.locator('[data-key="a1"]');
    assert.match(await card.innerText(), /The answer is 42, as computed\./);
    const mark = card.locator('.replay-differs');
    assert.equal(await mark.isVisible(), true);
    assert.match(await mark.getAttribute('aria-label'), /replayed this message in other words/);
    assert.equal(await page.locator('[data-key="a2"] .replay-differs').isVisible(), false, 'an unmarked message shows no mark');
    assertClean(await axeRun(page), 'replay differs');
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    await card.screenshot({ path: path.join(root, 'test-results', 'webview-replay-differs.png') });
    assert.deepEqual(errors, []);
  });
}
