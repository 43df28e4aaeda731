// Browser checks that a reloaded chat opens where the user was (issue 38, item 10): the webview's saved
// state (acquireVsCodeApi().setState, kept by VS Code across a window reload) names the entry at the top of
// the view and how far it was scrolled into it, or nothing while the user follows the stream. Registered by run.mjs.
import assert from 'node:assert/strict';
import { message, panel, snapshot } from './fixtures.mjs';

/** A long chat: 120 entries of varied height, so the position cannot be right by accident. */
function longChat() {
  const entries = [];
  for (let i = 0; i < 120; i++)
    entries.push(
      i % 2 ? message('agent_message', `e${i}`, `Answer ${i}\n\n${'Some words of the answer. '.repeat(5 + ((i * 7) % 40))}`) : message('user_message', `e${i}`, `Question ${i}`),
    );
  return entries;
}

const settled = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));

/** Opens the panel with `window.__top()`: the top entry, and how far the view is scrolled into it. */
async function openWithTop(open, options) {
  const panelPage = await open(options);
  await panelPage.page.evaluate(() => {
    window.__top = () => {
      const s = document.querySelector('section[aria-label="Conversation"]');
      const top = s.getBoundingClientRect().top;
      const el = [...s.querySelectorAll('[role="article"][data-key]')].find((e) => e.getBoundingClientRect().bottom > top + 1);
      if (!el) return {};
      return { key: el.dataset.key, offset: Math.round(top - el.getBoundingClientRect().top), gap: s.scrollHeight - s.scrollTop - s.clientHeight };
    };
  });
  return panelPage;
}

/** The saved state once it says where the view now is (the entry at its top, or null at the bottom). */
async function savedState(page, following) {
  await page.waitForFunction((f) => {
    const s = window.__host.states.at(-1);
    const now = window.__top();
    return s && (f ? s.scrollKey === null : s.scrollKey === now.key && Math.abs(s.scrollOffset - now.offset) <= 1);
  }, following);
  return page.evaluate(() => window.__host.states.at(-1));
}

const topEntry = (page) => page.evaluate(() => window.__top());

/** Scrolls up by `px` as a user does (wheel steps), and lets the entries come into view be built. */
async function scrollUp(page, px) {
  await page.locator('section[aria-label="Conversation"]').hover();
  for (let done = 0; done < px; done += 400) {
    await page.mouse.wheel(0, -400);
    await settled(page);
  }
}

export function register(test) {
  test('scroll restore: a reloaded chat opens with the same entry at the top, scrolled into it as far as before', async ({ open }) => {
    const entries = longChat();
    const first = await openWithTop(open, { height: 600 });
    await first.send(snapshot(entries, panel()));
    await first.flush();
    // The user scrolls up into the middle of the chat, part way into an answer.
    await scrollUp(first.page, 6000);
    const state = await savedState(first.page, false);
    const before = await topEntry(first.page);
    await first.close();

    // The reload: a fresh page with that state, the same snapshot.
    const again = await openWithTop(open, { height: 600, state });
    await again.send(snapshot(entries, panel()));
    await again.flush();
    await settled(again.page);
    const after = await topEntry(again.page);
    assert.equal(after.key, before.key, `the same entry at the top (${JSON.stringify({ before, after })})`);
    assert.ok(Math.abs(after.offset - before.offset) <= 4, `scrolled into it as far as before (${JSON.stringify({ before, after })})`);
    assert.ok(after.gap > 100, 'not at the bottom');
  });

  test('scroll restore: a chat left at the bottom reopens at the bottom; a hidden tab restores once it is shown', async ({ open }) => {
    const entries = longChat();
    const first = await openWithTop(open, { height: 600 });
    await first.send(snapshot(entries, panel()));
    await first.flush();
    await scrollUp(first.page, 4000);
    const away = await savedState(first.page, false);
    await first.page.evaluate(() => {
      const s = document.querySelector('section[aria-label="Conversation"]');
      s.scrollTop = s.scrollHeight;
    });
    const following = await savedState(first.page, true);
    await first.close();

    const bottom = await openWithTop(open, { height: 600, state: following });
    await bottom.send(snapshot(entries, panel()));
    await bottom.flush();
    await settled(bottom.page);
    assert.ok((await topEntry(bottom.page)).gap < 2, 'at the bottom');
    await bottom.close();

    // A restored tab behind another one: its webview has no size when the snapshot comes; it goes to
    // the saved entry once it is shown (not to the first turn).
    const hidden = await openWithTop(open, { height: 600, state: away });
    await hidden.page.evaluate(() => (document.body.style.display = 'none'));
    await hidden.send(snapshot(entries, panel()));
    await hidden.flush();
    await settled(hidden.page);
    await hidden.page.evaluate(() => (document.body.style.display = ''));
    await hidden.page.waitForFunction((k) => window.__top().key === k, away.scrollKey);
  });
}
