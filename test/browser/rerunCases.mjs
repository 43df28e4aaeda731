// Browser checks of Retry, Regenerate and a branch's carried transcript. Retry is offered after a turn
// that failed or was cancelled, Regenerate once the last prompt has an answer; neither while a turn runs,
// on a read-only transcript or before anything was asked. Both are buttons with names, in the Tab order,
// posting `retry` / `regenerate`. A branch's first message folds the transcript it carried into one
// line (size, message count) that opens to the Markdown, live and from a snapshot. Registered by run.mjs.
import assert from 'node:assert/strict';
import { message, panel, snapshot, patch } from './fixtures.mjs';

const CARRIED = { 'acpChat/carried': true };
const TRANSCRIPT = '# Earlier conversation\n\n## User\n\na first question\n\n## Demo Agent\n\nThe **first** answer.\n';

/** A branch's first message, as the host records it: lead line, embedded transcript, the edited text. */
function branchMessage(key, carry = 'embedded') {
  const lead = {
    type: 'text',
    text: 'This continues an earlier conversation; its transcript up to here is attached as earlier-conversation.md. My next message follows.',
    _meta: CARRIED,
  };
  const meta = { ...CARRIED, 'acpChat/carriedMessages': 2 };
  const transcript =
    carry === 'embedded'
      ? { type: 'resource', resource: { uri: 'file:///store/branch.md', mimeType: 'text/markdown', text: TRANSCRIPT }, _meta: meta }
      : { type: 'resource_link', uri: 'file:///store/branch.md', name: 'earlier-conversation.md', mimeType: 'text/markdown', size: 2048, _meta: meta };
  const m = message('user_message', key, 'x');
  return { ...m, content: [lead, transcript, { type: 'text', text: 'tell me more instead' }] };
}

export function register(test) {
  test('Rewind, Retry and Regenerate: shown when they apply, hidden while a turn runs, read-only or with nothing asked', async ({ open }) => {
    const { page, send, flush } = await open();
    const retry = page.getByRole('button', { name: /^Retry/ });
    const regenerate = page.getByRole('button', { name: /^Regenerate/ });
    const shown = async () => [await retry.isVisible(), await regenerate.isVisible()];
    await send(snapshot([]));
    await flush();
    assert.deepEqual(await shown(), [false, false], 'nothing asked yet');
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')]));
    await flush();
    assert.deepEqual(await shown(), [false, true], 'an answered prompt: Regenerate only');
    await send(patch({ op: 'panel', panel: { lastTurnEnd: 'cancelled' } }));
    assert.deepEqual(await shown(), [true, true], 'after a cancel: Retry too');
    await send(patch({ op: 'panel', panel: { turn: 'busy' } }));
    assert.deepEqual(await shown(), [false, false], 'not while a turn runs');
    await send(patch({ op: 'panel', panel: { turn: 'idle', lastTurnEnd: null } }));
    assert.deepEqual(await shown(), [false, true]);
    await send(patch({ op: 'insert', index: 2, entry: message('user_message', 'u2', 'another') }, { op: 'panel', panel: { lastTurnEnd: 'error' } }));
    await flush();
    assert.deepEqual(await shown(), [true, false], 'the last prompt failed before any answer: Retry only');
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')], panel({ readOnly: true, lastTurnEnd: 'error' })));
    await flush();
    assert.deepEqual(await shown(), [false, false], 'a read-only transcript');
    await send(snapshot([message('user_message', 'u1', 'question')], panel({ turn: 'exited', lastTurnEnd: 'error' })));
    await flush();
    assert.deepEqual(await shown(), [false, false], "the agent is down: the banner's Restart is the way on");
  });

  test('Rewind, Retry and Regenerate: keyboard reachable, named, post retry / regenerate; focus goes to the prompt box when the turn starts', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'partial answer')], panel({ lastTurnEnd: 'cancelled' })));
    await flush();
    await clearPosted();
    // Tab backwards from the prompt box reaches the buttons (they sit just above it).
    const box = page.locator('textarea[aria-label="Prompt"]');
    await box.focus();
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    for (let i = 0; i < 4 && !/^Regenerate/.test(await focusedName()); i++) await page.keyboard.press('Shift+Tab');
    assert.match(await focusedName(), /^Regenerate: a new answer to the last prompt, in a new branch/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    assert.match(await focusedName(), /^Retry: send the last prompt again/);
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'regenerate' }, { type: 'retry' }]);
    await send(patch({ op: 'panel', panel: { turn: 'busy', lastTurnEnd: null } }));
    assert.equal(await page.getByRole('button', { name: /^Retry/ }).isVisible(), false);
    assert.equal(await box.evaluate((t) => t === document.activeElement), true, 'the pressed button went away: focus is in the prompt box');
  });

  test("Rewind: a branch's carried transcript: one folded line with size and message count that opens to the Markdown, live and from a snapshot", async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot([]));
    await flush();
    await send(patch({ op: 'insert', index: 0, entry: branchMessage('b1') }, { op: 'panel', panel: { turn: 'busy' } }));
    await flush();
    const check = async (what) => {
      const fold = page.locator('[data-key="b1"] details.carried');
      assert.equal(await fold.count(), 1, `${what}: one folded block`);
      assert.equal(await fold.getAttribute('open'), null, `${what}: folded`);
      assert.equal(await fold.locator('summary').innerText(), `Earlier conversation sent with this message · 2 messages · ${new TextEncoder().encode(TRANSCRIPT).length} B`);
      assert.equal(await page.locator('[data-key="b1"] .carried-markdown').isVisible(), false);
      assert.match(
        await page.locator('[data-key="b1"] .entry-body > .user-text-block > .user-text').innerText(),
        /^tell me more instead$/,
        `${what}: the message's own text shows as usual`,
      );
      await fold.locator('summary').focus();
      await page.keyboard.press('Enter');
      assert.equal(await fold.getAttribute('open'), '', `${what}: opened by keyboard`);
      assert.equal(await page.locator('[data-key="b1"] .carried-markdown strong').innerText(), 'first', `${what}: the transcript, as Markdown`);
      assert.match(await page.locator('[data-key="b1"] .carried-lead').innerText(), /continues an earlier conversation/);
      await fold.locator('summary').click();
      assert.equal(await fold.getAttribute('open'), null, `${what}: and closed again`);
    };
    await check('live');
    await send(snapshot([branchMessage('b1'), message('agent_message', 'a1', 'more')]));
    await flush();
    await check('from a snapshot');
    await send(snapshot([branchMessage('b1', 'link')]));
    await flush();
    assert.equal(
      await page.locator('[data-key="b1"] details.carried summary').innerText(),
      'Earlier conversation sent with this message · 2 messages · 2.0 KB (as a link to the file)',
    );
    assert.equal(await page.locator('[data-key="b1"] .carried-markdown').count(), 0, 'a link carries no text to show');
  });

  test('Rewind, Edit keeps the draft and its chips: Cancel gives them back, a sent edit too', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    const chip = { id: 'ctx-1', kind: 'file', label: 'mine.ts', detail: '/ws/mine.ts' };
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')], panel({ context: [chip] })));
    await flush();
    const box = page.locator('textarea[aria-label="Prompt"]');
    await box.fill('my half-written draft');
    await clearPosted();
    // The host puts the edited message's chips in place of the user's, then opens the edit.
    await send(patch({ op: 'panel', panel: { context: [{ id: 'ctx-2', kind: 'selection', label: 'edited.ts:3-4', detail: '/ws/edited.ts:3-4' }] } }));
    await send({ type: 'editPrompt', key: 'u1', text: 'question', images: [] });
    await page.waitForFunction(() => document.querySelector('textarea[aria-label="Prompt"]')?.value === 'question');
    await box.press('Escape');
    assert.equal(await box.inputValue(), 'my half-written draft', 'Cancel gives the draft back');
    assert.deepEqual(await posted(), [{ type: 'cancelEdit' }], 'and asks the host for the chips');
    await clearPosted();
    await send({ type: 'editPrompt', key: 'u1', text: 'question', images: [] });
    await page.waitForFunction(() => document.querySelector('textarea[aria-label="Prompt"]')?.value === 'question');
    // A second edit while one is open keeps the draft from before the first.
    await send({ type: 'editPrompt', key: 'u1', text: 'question again', images: [] });
    await page.waitForFunction(() => document.querySelector('textarea[aria-label="Prompt"]')?.value === 'question again');
    await box.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'prompt', text: 'question again', branchFrom: 'u1' }]);
    assert.equal(await box.inputValue(), 'my half-written draft', 'a sent edit gives the draft back too');
    assert.equal(await page.locator('.prompt-editing').isVisible(), false);
  });
}
