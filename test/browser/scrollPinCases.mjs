// Browser checks that the conversation follows a streaming answer only while the user does: at the
// bottom as text grows, left alone once they scroll up, followed again once they scroll back down.
// Registered by run.mjs.
import assert from 'node:assert/strict';
import { PROTOCOL, message, panel } from './fixtures.mjs';

const snapshot = (entries, p = panel()) => ({ type: 'snapshot', protocol: PROTOCOL, entries, panel: p });
const patch = (...ops) => ({ type: 'patch', ops });

export function register(test) {
  test('streaming keeps the view at the bottom until the user scrolls up, and again once they are back', async ({ open }) => {
    const { page, send, flush } = await open({ height: 600 });
    const old = [];
    for (let i = 0; i < 20; i++) old.push(message(i % 2 ? 'agent_message' : 'user_message', `o${i}`, `Entry ${i} ${'words '.repeat(40)}`));
    await send(snapshot([...old, message('agent_message', 'a1', 'Streaming:')], panel({ turn: 'busy' })));
    await flush();
    const scroller = page.locator('section[aria-label="Conversation"]');
    const gap = () => scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
    const atBottom = () => page.waitForFunction(() => {
      const s = document.querySelector('section[aria-label="Conversation"]');
      return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
    });
    const stream = async (from, n) => {
      for (let i = from; i < from + n; i++) {
        await send(patch({ op: 'appendText', key: 'a1', text: `\n\nParagraph ${i} ${'more '.repeat(30)}` }));
        await flush();
      }
    };
    await atBottom();
    const height0 = await scroller.evaluate((s) => s.scrollHeight);
    await stream(0, 12);
    await atBottom();
    const grown = await scroller.evaluate((s, h0) => s.scrollHeight - h0, height0);
    assert.ok(grown > 600, `the answer grew by ${grown} px, more than the viewport`);
    await page.locator('[data-key="a1"]').getByText('Paragraph 11').waitFor({ state: 'visible' });

    // The user scrolls up to read: streaming goes on below without moving the view.
    await scroller.hover();
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(() => !window.__acpChat.transcript.isPinned);
    const top = await scroller.evaluate((s) => s.scrollTop);
    await stream(12, 6);
    await page.waitForFunction(() => /Paragraph 17/.test(window.__acpChat.transcript.view('a1').el.textContent));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await scroller.evaluate((s) => s.scrollTop), top, 'the view stayed where the user put it');
    assert.ok((await gap()) > 400, 'and the new text is below it');

    // Back at the bottom: followed again.
    await page.mouse.wheel(0, 1e5);
    await page.waitForFunction(() => window.__acpChat.transcript.isPinned);
    await stream(18, 6);
    await atBottom();
    await page.locator('[data-key="a1"]').getByText('Paragraph 23').waitFor({ state: 'visible' });
  });
}
