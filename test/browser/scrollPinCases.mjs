// Browser checks that the conversation follows a streaming answer only while the user does: at the
// bottom as text grows, left alone once they scroll up, followed again once they scroll back down.
// Registered by run.mjs.
import assert from 'node:assert/strict';
import { message, panel, snapshot, patch } from './fixtures.mjs';

export function register(test) {
  test('streaming keeps the view at the bottom until the user scrolls up, and again once they are back', async ({ open }) => {
    const { page, send, flush } = await open({ height: 600 });
    const old = [];
    for (let i = 0; i < 20; i++) old.push(message(i % 2 ? 'agent_message' : 'user_message', `o${i}`, `Entry ${i} ${'words '.repeat(40)}`));
    await send(snapshot([...old, message('agent_message', 'a1', 'Streaming:')], panel({ turn: 'busy' })));
    await flush();
    const scroller = page.locator('section[aria-label="Conversation"]');
    const gap = () => scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
    const atBottom = () =>
      page.waitForFunction(() => {
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

  test('a chat opened at a search match: no Jump to latest when the whole chat fits; one when the match is far above the end', async ({ open }) => {
    const { page, send, flush } = await open({ height: 600 });
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await send(
      snapshot([message('user_message', 'u0', 'find the walrus'), message('agent_message', 'a0', 'The walrus is in the parser.'), message('user_message', 'u1', 'thanks')]),
    );
    await flush();
    await send({ type: 'reveal', key: 'a0' });
    await page.locator('[data-key="a0"].flash').waitFor();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await jump.isVisible(), false, 'the whole chat fits: nothing below to jump to');
    assert.equal(await page.evaluate(() => window.__acpChat.transcript.isPinned), true, 'still following the end');

    const long = [];
    for (let i = 0; i < 20; i++) long.push(message(i % 2 ? 'agent_message' : 'user_message', `o${i}`, `Entry ${i} ${'words '.repeat(40)}`));
    await send(snapshot(long));
    await flush();
    await send({ type: 'reveal', key: 'o1' });
    await page.locator('[data-key="o1"].flash').waitFor();
    await jump.waitFor({ state: 'visible' });
  });

  test('recovery panel: a reader away from the bottom has Jump to latest (announced when new entries arrive, by keyboard); it goes to the end and hides', async ({ open }) => {
    const { page, send, flush } = await open({ height: 600 });
    const old = [];
    for (let i = 0; i < 20; i++) old.push(message(i % 2 ? 'agent_message' : 'user_message', `o${i}`, `Entry ${i} ${'words '.repeat(40)}`));
    await send(snapshot(old, panel({ turn: 'busy' })));
    await flush();
    const scroller = page.locator('section[aria-label="Conversation"]');
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    // Following the bottom: new entries need no jump.
    await send(patch({ op: 'insert', index: 20, entry: message('agent_message', 'n0', 'First new answer') }));
    await flush();
    assert.equal(await jump.isVisible(), false);

    await scroller.hover();
    await page.mouse.wheel(0, -800);
    await page.waitForFunction(() => !window.__acpChat.transcript.isPinned);
    // Away from the bottom: the way back is there at once, and said only when something new arrives.
    await jump.waitFor({ state: 'visible' });
    assert.equal(
      await page
        .getByTestId('announcer')
        .filter({ hasText: /Jump to latest/ })
        .count(),
      0,
      'nothing new yet: nothing said',
    );
    await send(patch({ op: 'insert', index: 21, entry: message('agent_message', 'n1', `Second new answer ${'more '.repeat(80)}`) }));
    await flush();
    await page
      .getByTestId('announcer')
      .filter({ hasText: /Jump to latest/ })
      .waitFor({ state: 'attached' });

    // Keyboard: it sits just before the prompt box in the tab order (Shift+Tab from there); Enter jumps.
    await page.locator('textarea[aria-label="Prompt"]').focus();
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Shift+Tab');
      reached = await jump.evaluate((el) => document.activeElement === el);
    }
    assert.ok(reached, 'Jump to latest is in the tab order');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => {
      const s = document.querySelector('section[aria-label="Conversation"]');
      return s.scrollHeight - s.scrollTop - s.clientHeight < 2 && window.__acpChat.transcript.isPinned;
    });
    await jump.waitFor({ state: 'hidden' });

    // Scrolled up again, then back down by hand: it goes away by itself.
    await page.mouse.wheel(0, -800);
    await page.waitForFunction(() => !window.__acpChat.transcript.isPinned);
    await send(patch({ op: 'insert', index: 22, entry: message('agent_message', 'n2', 'Third new answer') }));
    await flush();
    await jump.waitFor({ state: 'visible' });
    await page.mouse.wheel(0, 1e5);
    await jump.waitFor({ state: 'hidden' });
  });
}
