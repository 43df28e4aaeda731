// Browser checks of Edit and Rerun: the button is on user messages only and reachable by keyboard (Tab
// to it, Enter); the host's `editPrompt` fills the prompt box (text and images) with a banner; sending
// posts the prompt with `branchFrom`; Escape cancels the edit and gives the box back as it was. Registered by run.mjs.
import assert from 'node:assert/strict';
import { message, snapshot } from './fixtures.mjs';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export function register(test) {
  test('Rewind, Edit and Rerun: on user messages only, reachable by keyboard, posts editMessage', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')]));
    await flush();
    await clearPosted();
    assert.equal(await page.locator('[data-key="a1"] button.edit-message').count(), 0, 'not on agent messages');
    // Keyboard: Tab through the user message's actions until the Edit button has focus, then Enter.
    await page.locator('[data-key="u1"] button.show-in-tree').focus();
    for (let i = 0; i < 6; i++) {
      if (await page.locator('[data-key="u1"] button.edit-message').evaluate((b) => b === document.activeElement)) break;
      await page.keyboard.press('Shift+Tab');
    }
    assert.equal(await page.locator('[data-key="u1"] button.edit-message').evaluate((b) => b === document.activeElement), true, 'the Edit button takes keyboard focus');
    assert.equal(await page.locator('[data-key="u1"] button.edit-message').isVisible(), true, 'and is shown while focused');
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'editMessage', key: 'u1' }]);
  });

  test('Rewind, Edit and Rerun: editPrompt fills the box with a banner; Send posts branchFrom; Escape cancels', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')]));
    await flush();
    await clearPosted();
    await send({ type: 'editPrompt', key: 'u1', text: 'question', images: [{ mimeType: 'image/png', data: PNG }] });
    const box = page.locator('textarea[aria-label="Prompt"]');
    await page.waitForFunction(() => document.querySelector('textarea[aria-label="Prompt"]')?.value === 'question');
    assert.equal(await page.locator('.prompt-editing').isVisible(), true);
    assert.match(await page.locator('.prompt-editing').textContent(), /sending starts a new branch/);
    assert.equal(await page.locator('.prompt-image img').count(), 1, "the message's image is back in the box");
    assert.equal(await box.evaluate((t) => t === document.activeElement), true, 'the box has focus');
    await box.fill('a better question');
    await box.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'prompt', text: 'a better question', images: [{ mimeType: 'image/png', data: PNG }], branchFrom: 'u1' }]);
    assert.equal(await page.locator('.prompt-editing').isVisible(), false, 'sent: the edit is over');
    await clearPosted();
    await send({ type: 'editPrompt', key: 'u1', text: 'question', images: [] });
    await page.waitForFunction(() => document.querySelector('textarea[aria-label="Prompt"]')?.value === 'question');
    await box.press('Escape');
    assert.equal(await page.locator('.prompt-editing').isVisible(), false);
    assert.equal(await box.inputValue(), '', 'cancelling gives back the box as it was (empty)');
    await box.fill('plain');
    await box.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'cancelEdit' }, { type: 'prompt', text: 'plain' }], 'a prompt after a cancelled edit is an ordinary one');
  });
}
