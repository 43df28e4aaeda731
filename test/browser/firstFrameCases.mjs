// Browser checks of the chat's first frame (issue 45): the page's HTML paints an empty conversation and a
// prompt box before its stylesheets and script arrive, and the app takes its place without losing what
// was typed in it meanwhile. Registered by run.mjs.
import assert from 'node:assert/strict';

export function register(test) {
  test('first frame: painted before the script runs; the app replaces it and keeps what was typed in it', async ({ open }) => {
    let framePainted = false;
    const { page, errors } = await open({
      // The script held back until the frame's prompt box was typed into (the page has nothing else yet).
      beforeLoad: (p) =>
        p.route('**/dist/webview.js', async (route) => {
          const early = p.locator('#app.first-frame textarea[aria-label="Prompt"]');
          await early.fill('typed before the script');
          framePainted = await early.evaluate((el) => el.getBoundingClientRect().height > 0 && getComputedStyle(document.getElementById('app')).display === 'flex');
          await route.continue();
        }),
    });
    assert.ok(framePainted, 'the first frame was laid out (inline rules) before the script ran');
    const boxes = page.locator('textarea[aria-label="Prompt"]');
    assert.equal(await boxes.count(), 1, 'one prompt box: the app replaced the first frame');
    assert.equal(await page.locator('#app.first-frame, .first-frame-transcript').count(), 0);
    assert.equal(await boxes.inputValue(), 'typed before the script');
    assert.deepEqual(errors, []);
  });

  test('first frame: a prompt sent with Enter before the script ran is sent once the app is there, after its ready', async ({ open }) => {
    const { page, posted, errors } = await open({
      beforeLoad: (p) =>
        p.route('**/dist/webview.js', async (route) => {
          const early = p.locator('#app.first-frame textarea[aria-label="Prompt"]');
          await early.focus();
          await p.keyboard.type('sent from the frame');
          await p.keyboard.press('Enter');
          await route.continue();
        }),
    });
    await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'prompt'));
    const msgs = await posted();
    const types = msgs.map((m) => m.type);
    assert.ok(types.indexOf('ready') < types.indexOf('prompt'), `ready first: ${types.join(', ')}`);
    assert.deepEqual(
      msgs.filter((m) => m.type === 'prompt'),
      [{ type: 'prompt', text: 'sent from the frame' }],
    );
    assert.equal(await page.locator('textarea[aria-label="Prompt"]').inputValue(), '', 'the box is empty after the send');
    assert.deepEqual(errors, []);
  });
}
