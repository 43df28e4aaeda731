// Browser checks of the richer context (issue 41): chips of every kind with their size and what will be
// sent in the tooltip; the Add Context button; `@` words (`@problems`, `@symbol`…) that add context
// instead of text, listed before the files; files dropped on the prompt box. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { message, panel, snapshot } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const CHIPS = [
  { id: 'c1', kind: 'selection', label: 'greet.ts:3-9', size: '214 B', detail: '/w/src/greet.ts:3-9 — 214 B, sent as text\n\nexport function greet(name) {' },
  { id: 'c2', kind: 'folder', label: 'src/', size: '1.2 KB', detail: '/w/src — 1.2 KB, sent as text\n\napp.ts\ngreet.ts' },
  { id: 'c3', kind: 'symbol', label: 'greet', size: '214 B', detail: '/w/src/greet.ts:3-9' },
  { id: 'c4', kind: 'terminal', label: 'Terminal: npm test', size: '3.4 KB', detail: 'bash — 3.4 KB, sent as text\n\n$ npm test' },
  { id: 'c5', kind: 'problems', label: 'Problems: workspace (3)', size: '420 B', detail: '/w — 420 B' },
  { id: 'c6', kind: 'file', label: 'big.bin', size: '8.6 MB', detail: '/w/big.bin — sent as a link' },
];

export function register(test) {
  test('context: chips of every kind show their icon, label and size; the tooltip says what will be sent', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 420 });
    await send(snapshot([message('user_message', 'u1', 'Earlier question'), message('agent_message', 'a1', 'Earlier answer.')], panel({ turn: 'idle', context: CHIPS })));
    await flush();
    const row = page.locator('[role="list"][aria-label="Context for the next message"]');
    assert.deepEqual(
      await row.locator('[role="listitem"] .label').allInnerTexts(),
      CHIPS.map((c) => c.label),
    );
    assert.deepEqual(
      await row.locator('[role="listitem"] .size').allInnerTexts(),
      CHIPS.map((c) => c.size),
    );
    assert.deepEqual(
      await row
        .locator('[role="listitem"] .codicon')
        .evaluateAll((els) => els.map((e) => [...e.classList].find((c) => c.startsWith('codicon-') && c !== 'codicon-close')))
        .then((l) => l.filter(Boolean)),
      ['codicon-list-selection', 'codicon-folder', 'codicon-symbol-method', 'codicon-terminal', 'codicon-warning', 'codicon-file'],
    );
    assert.equal(await row.locator('[data-kind="folder"]').getAttribute('title'), CHIPS[1].detail);
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-context-kinds.png') });
    assert.deepEqual(errors, []);
  });

  test('context: Add Context asks the host; @ words are listed before files and add a chip, not text', async ({ open }) => {
    const { page, send, flush, posted, clearPosted, errors } = await open({ height: 520 });
    await send(snapshot([], panel({ turn: 'idle' })));
    await flush();
    await clearPosted();
    await page.getByRole('button', { name: 'Add context… (or type @)' }).click();
    assert.deepEqual(await posted(), [{ type: 'addContext', source: 'pick' }]);
    await clearPosted();
    const box = page.locator('textarea[aria-label="Prompt"]');
    await box.click();
    await box.type('fix @pro');
    const list = page.locator('#slash-list');
    await list.waitFor({ state: 'visible' });
    // The host answers the file query too; the word stays first.
    await page.waitForFunction(() => true);
    assert.match(await list.locator('[role="option"]').first().innerText(), /@problems/);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(shots, 'webview-context-mentions.png') });
    await box.press('Enter');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'addContext'),
      [{ type: 'addContext', source: 'workspaceProblems' }],
    );
    assert.equal(await box.inputValue(), 'fix ', 'the @ word leaves no text behind');
    // A path-like query lists no words.
    await box.type('@src/');
    await page.waitForTimeout(0);
    assert.equal(await list.locator('[data-source]').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('context: files dropped on the prompt box are posted as their URIs', async ({ open }) => {
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(snapshot([], panel({ turn: 'idle' })));
    await flush();
    await clearPosted();
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/uri-list', '# from the explorer\r\nfile:///w/src/app.ts\r\nfile:///w/docs\r\n');
      const prompt = document.querySelector('.prompt');
      const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
      prompt.dispatchEvent(over);
      window.__dragAccepted = over.defaultPrevented && prompt.classList.contains('drop-target');
      prompt.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    assert.equal(await page.evaluate(() => window.__dragAccepted), true, 'the drop is accepted and shown');
    assert.deepEqual(await posted(), [{ type: 'dropContext', uris: ['file:///w/src/app.ts', 'file:///w/docs'] }]);
    assert.equal(await page.locator('.prompt.drop-target').count(), 0);
    assert.deepEqual(errors, []);
  });
}
