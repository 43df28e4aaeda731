// Browser checks of issue 38 item 9 (space): a finished plan folds to its one-line summary (every step done,
// or its turn over, when it also says the rest stopped) unless the user opened it; a long user message
// shows its first lines with a button that shows it all and folds it again. Item 10: tool-card paths relative
// to the session's folder, an edit card's file named once. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { message, panel, snapshot, patch, toolCall } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const steps = (...statuses) => statuses.map((status, i) => ({ content: `Step ${i + 1}`, priority: 'medium', status }));

export function register(test) {
  test('space: a plan is open while it runs, folds when done or stopped, and stays as the user opened it', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 800 });
    await send(snapshot([message('user_message', 'u1', 'do it')], panel({ turn: 'busy', plan: steps('completed', 'in_progress', 'pending') })));
    await flush();
    const fold = page.locator('.plan-fold[data-plan-id=""]');
    const summary = fold.locator('> summary');
    assert.notEqual(await fold.getAttribute('open'), null, 'open while its steps run');
    await send(patch({ op: 'panel', panel: { plan: steps('completed', 'completed', 'completed') } }));
    await flush();
    assert.equal(await fold.getAttribute('open'), null, 'every step done: folded, though the turn still runs');
    assert.equal(await summary.textContent(), 'Plan · 3/3 done');
    // The next turn's plan runs again, then the user cancels it.
    await send(patch({ op: 'panel', panel: { plan: steps('completed', 'in_progress', 'pending') } }));
    await flush();
    assert.notEqual(await fold.getAttribute('open'), null);
    await send(patch({ op: 'panel', panel: { turn: 'idle' } }));
    await flush();
    assert.equal(await fold.getAttribute('open'), null, 'its turn over: folded');
    assert.equal(await summary.textContent(), 'Plan · 1/3 done · stopped', 'after a cancel the summary says the rest stopped');
    const height = await page.locator('.plan').evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(height < 40, `a folded plan is one line (${height} px)`);
    // The user opens the finished plan: it stays open across updates, also one that comes before the
    // click's toggle event (a task later; in one CI run a patch came first and folded it again).
    await page.evaluate(
      (m) => {
        document.querySelector('.plan-fold[data-plan-id=""] > summary').click();
        window.__host.deliver(m, {});
        window.__acpChat.flush();
      },
      patch({ op: 'panel', panel: { plan: steps('completed', 'completed', 'pending') } }),
    );
    assert.notEqual(await fold.getAttribute('open'), null, 'opened by the user, kept open through an update before its toggle event');
    await send(patch({ op: 'panel', panel: { plan: steps('completed', 'completed', 'completed') } }));
    await flush();
    assert.notEqual(await fold.getAttribute('open'), null, 'opened by the user, kept open');
    assert.deepEqual(errors, []);
  });

  test('space: a long user message shows its first lines and a button that shows it all and folds it again', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 700 });
    const pasted = Array.from({ length: 300 }, (_, i) => `line ${i + 1}: ${'pasted text '.repeat(3)}`).join('\n');
    await send(
      snapshot([message('user_message', 'short', 'A short question'), message('user_message', 'long', `Please review:\n${pasted}`), message('agent_message', 'a1', 'Reviewed.')]),
    );
    await flush();
    const entry = page.locator('[data-key="long"]');
    const toggle = entry.locator('.user-text-toggle');
    const tall = () => entry.evaluate((el) => el.getBoundingClientRect().height);
    assert.ok((await tall()) < 400, `folded to its first lines (${await tall()} px)`);
    assert.equal(await toggle.textContent(), 'Show all 301 lines');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.match(await entry.locator('.user-text').textContent(), /line 300: /, 'the whole text is there for search, copy and screen readers');
    assert.equal(await page.locator('[data-key="short"] .user-text-toggle').isHidden(), true, 'a short message has no button');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-long-message-folded.png') });
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[data-key="long"]').getBoundingClientRect().height > 3000);
    assert.equal(await toggle.textContent(), 'Show less');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[data-key="long"]').getBoundingClientRect().height < 400);
    assert.deepEqual(errors, []);
  });
}

export function registerPaths(test) {
  test('item 10: a tool card names files relative to the session folder, and an edit card names its file once', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 500 });
    const diff = { type: 'diff', path: '/ws/proj/src/demo-edit.txt', oldText: 'a\n', newText: 'a\nb\n' };
    const edit = toolCall('e1', {
      title: 'Edit `/ws/proj/src/demo-edit.txt`',
      toolKind: 'edit',
      status: 'completed',
      content: [diff],
      locations: [{ path: '/ws/proj/src/demo-edit.txt', line: 1 }],
    });
    const read = toolCall('r1', { title: 'Read notes.txt', toolKind: 'read', status: 'completed', locations: [{ path: '/ws/proj/notes.txt', line: 3 }, { path: '/etc/hosts' }] });
    await send(snapshot([edit, read], panel({ roots: ['/ws/proj'] })));
    await flush();
    const card = page.locator('[data-key="e1"]');
    assert.equal(await card.locator('.tool-title').innerText(), 'Edit src/demo-edit.txt');
    assert.equal(await card.locator('.diff-path').innerText(), 'src/demo-edit.txt');
    assert.equal(await card.locator('.chip.location').count(), 0, 'the file is named once, by its diff');
    assert.equal(await card.locator('.diff-path').getAttribute('data-path'), '/ws/proj/src/demo-edit.txt', 'a click opens the whole path');
    assert.deepEqual(await page.locator('[data-key="r1"] .chip.location').allInnerTexts(), ['notes.txt:3', '/etc/hosts']);
    assert.deepEqual(errors, []);
  });
}

export function registerSmallThings(test) {
  test('item 10: the editing banner keeps its icon beside its text; a queued prompt is edited in a field of a few lines', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 600 });
    await send(
      snapshot(
        [message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')],
        panel({ turn: 'busy', queuedPrompts: [{ id: 'q1', text: 'then the docs', note: '' }] }),
      ),
    );
    await flush();
    await send({ type: 'editPrompt', key: 'u1', text: 'question', images: [] });
    await page.locator('.prompt-editing').waitFor();
    const gap = await page.locator('.prompt-editing').evaluate((bar) => {
      const iconBox = bar.querySelector('.codicon').getBoundingClientRect();
      const text = bar.querySelector('span:not(.codicon)').getBoundingClientRect();
      return text.left - iconBox.right;
    });
    assert.ok(gap >= 0 && gap < 12, `the text follows its icon (${gap} px apart)`);
    await page.locator('.queued-item[data-id="q1"] button[aria-label="Edit queued prompt"]').click();
    const field = await page.locator('.queued-editor').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { width: r.width, height: r.height, row: el.closest('.queued').getBoundingClientRect().width };
    });
    assert.ok(field.width > field.row * 0.5, `as wide as the row allows (${field.width} of ${field.row} px)`);
    assert.ok(field.height >= 50, `a few lines tall (${field.height} px)`);
    assert.deepEqual(errors, []);
  });
}
