// Browser checks of issue 38's webview items (what a new user tripped over in their first hour): focus that
// arrives in the panel lands in the prompt box; sending while scrolled up goes to the bottom; a permission
// that arrives while the user reads further up is brought into view; Jump to latest whenever the view is
// away from the bottom; a cancelled or interrupted turn is marked inline and said. Registered by run.mjs.
import assert from 'node:assert/strict';
import { message, panel, toolCall, snapshot, patch } from './fixtures.mjs';

const long = () => Array.from({ length: 20 }, (_, i) => message(i % 2 ? 'agent_message' : 'user_message', `o${i}`, `Entry ${i} ${'words '.repeat(40)}`));
const inView = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const s = document.querySelector('section[aria-label="Conversation"]').getBoundingClientRect();
    const r = el?.getBoundingClientRect();
    return !!r && r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
  }, selector);

export function register(test) {
  test('item 1: focus arriving in the panel from outside lands in the prompt box; a click keeps it where it was put', async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot(long()));
    await flush();
    const active = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);
    // VS Code focuses the webview's document (New Chat, Add Selection to Chat): nothing inside has focus.
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.dispatchEvent(new FocusEvent('focus'));
    });
    assert.equal(await active(), 'Prompt');
    await page.keyboard.type('first words');
    assert.equal(await page.locator('textarea[aria-label="Prompt"]').inputValue(), 'first words', 'the first words typed are not lost');
    // A pointer that brings the focus (into the transcript, to select text) keeps it there.
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.dispatchEvent(new PointerEvent('pointerdown'));
      window.dispatchEvent(new FocusEvent('focus'));
      window.dispatchEvent(new PointerEvent('pointerup'));
    });
    assert.equal(await active(), 'BODY');
  });

  test('item 2: sending while scrolled up goes to the bottom, where the message and its answer come', async ({ open }) => {
    const { page, send, flush } = await open({ height: 600 });
    await send(snapshot(long()));
    await flush();
    const scroller = page.locator('section[aria-label="Conversation"]');
    await scroller.hover();
    await page.mouse.wheel(0, -1500);
    await page.waitForFunction(() => !window.__acpChat.transcript.isPinned);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor({ state: 'visible' }); // away from the bottom: the way back is there, nothing new needed
    await page.locator('textarea[aria-label="Prompt"]').fill('Here is my question');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__acpChat.transcript.isPinned);
    await send(patch({ op: 'insert', index: 20, entry: message('user_message', 'mine', 'Here is my question') }));
    await flush();
    await page.waitForFunction(() => {
      const s = document.querySelector('section[aria-label="Conversation"]');
      return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
    });
    assert.ok(await inView(page, '[data-key="mine"]'), 'your message is in view');
    await jump.waitFor({ state: 'hidden' });
  });

  test('item 2: a permission request arriving while the user reads further up is brought into view', async ({ open }) => {
    const { page, send, flush } = await open({ height: 600 });
    const tc = toolCall('tc9', { title: 'Edit notes.md', toolKind: 'edit' });
    await send(snapshot([...long(), tc], panel({ turn: 'busy' })));
    await flush();
    await page.locator('section[aria-label="Conversation"]').hover();
    await page.mouse.wheel(0, -2500);
    await page.waitForFunction(() => !window.__acpChat.transcript.isPinned);
    const perm = {
      requestId: 'p1',
      toolCallKey: 'tc9',
      toolCallId: 'tc-tc9',
      title: 'Edit notes.md?',
      options: [
        { optionId: 'ok', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    };
    await send(patch({ op: 'panel', panel: { permissions: [perm] } }));
    await flush();
    await page.locator('.permission[data-request-id="p1"]').waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector('.permission[data-request-id="p1"]');
      const s = document.querySelector('section[aria-label="Conversation"]').getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
    });
    // An old request the user scrolls away from stays where they left it.
    await page.mouse.wheel(0, -2500);
    await page.waitForFunction(() => !window.__acpChat.transcript.isPinned);
    const top = await page.locator('section[aria-label="Conversation"]').evaluate((s) => s.scrollTop);
    await send(patch({ op: 'panel', panel: { permissions: [perm], usage: { used: 1, size: 10 } } }));
    await flush();
    assert.equal(await page.locator('section[aria-label="Conversation"]').evaluate((s) => s.scrollTop), top);
  });

  test('item 8: a cancelled turn is marked Cancelled inline and said; an interrupted one Interrupted, with Retry', async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'half an ans')], panel({ turn: 'busy' })));
    await flush();
    const mark = page.getByTestId('turn-end');
    assert.equal(await mark.count(), 0, 'no mark while the turn runs');
    // The cancel went through in one step (no `cancelling` seen): still said as cancelled, not "Agent finished".
    await send(patch({ op: 'panel', panel: { turn: 'idle', lastTurnEnd: 'cancelled' } }));
    await mark.filter({ hasText: 'Cancelled' }).waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('[data-key="a1"]').nextElementSibling?.dataset.testid), 'turn-end', 'right after the cut answer');
    await page.getByTestId('announcer').filter({ hasText: 'Turn cancelled' }).waitFor({ state: 'attached' });
    // A new turn takes the mark away.
    await send(patch({ op: 'panel', panel: { turn: 'busy', lastTurnEnd: null } }));
    await mark.waitFor({ state: 'detached' });
    // The agent stopped mid-turn (or the window reloaded): Interrupted, and Retry is offered.
    await send(patch({ op: 'panel', panel: { turn: 'exited', lastTurnEnd: 'interrupted', message: 'Demo agent stopped' } }));
    await mark.filter({ hasText: 'Interrupted' }).waitFor();
    await send(patch({ op: 'panel', panel: { turn: 'idle' } }));
    await page.getByRole('button', { name: /^Retry/ }).waitFor();
    // A snapshot (a reload) keeps it.
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'half an ans')], panel({ lastTurnEnd: 'interrupted' })));
    await flush();
    await mark.filter({ hasText: 'Interrupted' }).waitFor();
  });
}
