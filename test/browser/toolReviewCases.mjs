// Browser checks of issue 41's review in step: a tool card whose change was reviewed says so beside its
// status (Kept, Undone, Partly kept / undone), derived from the Changes summary's sets (a `changeSet`
// patch redraws the card, a snapshot draws it again), and nothing while nothing was reviewed; and
// Restore in place's `restoreDraft`, which gives the restored message back to the prompt box as a plain
// draft (above what the box held; Send posts an ordinary prompt). A subagent's edits: the delegation card
// and the child's own cards, expanded in it, say the same as the Changes summary that names them; so do
// its cards in the subagent's own tab, where the sets come marked for the cards only.
// Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { changeSet, message, panel, patch, snapshot, toolCall } from './fixtures.mjs';
import { root } from './server.mjs';
import { recordedSessions } from './recorded.mjs';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const turn = () => [
  message('user_message', 'u1', 'Fix parseRange and add a test.'),
  toolCall('t1', { title: 'Edit src/range.ts', toolKind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/w/src/range.ts', oldText: 'a\n', newText: 'b\n' }] }),
  toolCall('t2', {
    title: 'Write src/range.test.ts',
    toolKind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: '/w/src/range.test.ts', oldText: null, newText: 'test\n' }],
  }),
  message('agent_message', 'a1', 'Done.'),
];

/** The turn's set with the two files named by their cards, `fields` laid over each file by index. */
const set = (...fields) => {
  const base = changeSet('c1', 'a1');
  return { ...base, files: base.files.slice(0, 2).map((f, i) => ({ ...f, tools: [`t${i + 1}`], ...(fields[i] ?? {}) })) };
};
const badge = (page, key) => page.locator(`[data-key="${key}"] .tool-head [data-review]`);

export function register(test) {
  test('tool cards in step with review: nothing until reviewed, then Kept / Undone / Partly kept, redrawn by changeSet patches', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 640 });
    await send(snapshot(turn(), panel({ changeSets: [set()] })));
    await flush();
    assert.equal(await badge(page, 't1').count(), 0, 'nothing reviewed: the card says nothing more');
    await send(patch({ op: 'changeSet', id: 'c1', set: set({ hunks: { kept: 1, undone: 0 } }, { state: 'undone', canUndo: false }) }));
    await page.waitForFunction(() => document.querySelector('[data-key="t2"] [data-review]')?.textContent === 'Undone');
    assert.equal(await badge(page, 't1').innerText(), 'Partly kept', 'one hunk kept, the rest still to review');
    assert.equal(await badge(page, 't1').getAttribute('title'), 'Changes review: Partly kept');
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    await page.locator('[data-key="t1"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(root, 'test-results', 'webview-tool-review.png') });
    await send(patch({ op: 'changeSet', id: 'c1', set: set({ state: 'kept', canUndo: false, hunks: { kept: 1, undone: 0 } }, { state: 'undone', canUndo: false }) }));
    await page.waitForFunction(() => document.querySelector('[data-key="t1"] [data-review]')?.textContent === 'Kept');
    // A snapshot (a reload of the panel) draws the same from the sets it carries.
    await send(snapshot(turn(), panel({ changeSets: [set({ state: 'kept' }, { state: 'undone' })] })));
    await flush();
    assert.deepEqual([await badge(page, 't1').innerText(), await badge(page, 't2').innerText()], ['Kept', 'Undone']);
    // The summary is gone (dropped): so is what the cards said.
    await send(patch({ op: 'changeSet', id: 'c1', set: null }));
    await page.waitForFunction(() => document.querySelector('[data-review]') === null);
    assert.deepEqual(errors, []);
  });

  test("a subagent's edits: its delegation card and the child's card expanded in it follow review, redrawn by changeSet patches", async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const edit = toolCall('child-edit', {
      title: 'Edit notes.txt',
      toolKind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/notes.txt', oldText: 'hello\n', newText: 'hello\nworld\n' }],
    });
    const last = parent.entries[parent.entries.length - 1];
    // The host names the delegation card and the child's card with the file the child edited (toolCards.ts).
    const childSet = (fields = {}) => ({
      ...changeSet('c1', last.key, []),
      files: [{ ...changeSet('c1', null).files[0], path: 'notes.txt', tools: [card.key, 'child-edit'], ...fields }],
    });
    const { page, send, flush, errors } = await open({ height: 720 });
    await send(snapshot(parent.entries, panel({ sessionId: parent.sessionId, changeSets: [childSet()] })));
    await flush();
    const el = page.locator(`[data-key="${card.key}"]`);
    assert.equal(await el.locator('.subagent-head [data-review]').count(), 0, 'nothing reviewed: the card says nothing more');
    await el.getByRole('button', { name: "Show the subagent's transcript here" }).click();
    await send({ type: 'subagent', childSessionId: child.sessionId, message: snapshot([...child.entries, edit], panel({ sessionId: child.sessionId, readOnly: true })) });
    await flush();
    const childBadge = el.locator('[data-key="child-edit"] .tool-head [data-review]');
    assert.equal(await childBadge.count(), 0);
    await send(patch({ op: 'changeSet', id: 'c1', set: childSet({ hunks: { kept: 1, undone: 0 } }) }));
    await page.waitForFunction((key) => document.querySelector(`[data-key="${key}"] .subagent-head [data-review]`)?.textContent === 'Partly kept', card.key);
    assert.equal(await childBadge.innerText(), 'Partly kept', "the child's card, drawn in the delegation card, is redrawn too");
    await send(patch({ op: 'changeSet', id: 'c1', set: childSet({ state: 'undone', canUndo: false }) }));
    await page.waitForFunction(() => document.querySelector('[data-key="child-edit"] [data-review]')?.textContent === 'Undone');
    assert.equal(await el.locator('.subagent-head [data-review]').innerText(), 'Undone');
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    await el.scrollIntoViewIfNeeded();
    await el.screenshot({ path: path.join(root, 'test-results', 'webview-subagent-review.png'), animations: 'disabled' });
    assert.deepEqual(errors, []);
  });

  test("a subagent's own tab: its cards say Kept / Undone from the chat's sets, shown on the cards only (no second summary)", async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const edit = toolCall('child-edit', {
      title: 'Edit notes.txt',
      toolKind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/notes.txt', oldText: 'hello\n', newText: 'hello\nworld\n' }],
    });
    const onCards = (fields = {}) => ({
      ...changeSet('c1', parent.entries[parent.entries.length - 1].key, []),
      files: [{ ...changeSet('c1', null).files[0], path: 'notes.txt', tools: [card.key, 'child-edit'], ...fields }],
      cardsOnly: true,
    });
    const { page, send, flush, errors } = await open({ height: 560 });
    const tab = panel({ sessionId: child.sessionId, readOnly: true, parentSession: { sessionId: parent.sessionId, title: 'Parent' } });
    await send(snapshot([...child.entries, edit], { ...tab, changeSets: [onCards({ state: 'undone', canUndo: false })] }));
    await flush();
    const childBadge = page.locator('[data-key="child-edit"] .tool-head [data-review]');
    assert.equal(await childBadge.innerText(), 'Undone');
    assert.equal(await page.locator('section.changes').count(), 0, "the summary is the chat's: not drawn here");
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    await page.locator('[data-key="child-edit"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(root, 'test-results', 'webview-subagent-tab-review.png') });
    // An editor undo of that Undo (the review follows the file): pending again, and the badge goes.
    await send(patch({ op: 'changeSet', id: 'c1', set: onCards() }));
    await page.waitForFunction(() => document.querySelector('[data-key="child-edit"] [data-review]') === null);
    assert.equal(await page.locator('section.changes').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('restore in place: restoreDraft puts the message back in the box as a plain draft, above what it held', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')]));
    await flush();
    const box = page.locator('textarea[aria-label="Prompt"]');
    await box.fill('half a thought');
    await clearPosted();
    await send({ type: 'restoreDraft', text: 'question', images: [{ mimeType: 'image/png', data: PNG }] });
    await page.waitForFunction(() => document.querySelector('textarea[aria-label="Prompt"]')?.value === 'question\n\nhalf a thought');
    assert.equal(await page.locator('.prompt-image img').count(), 1, "the message's image is back in the box");
    assert.equal(await page.locator('.prompt-editing').isVisible(), false, 'not an edit: no branch banner');
    assert.equal(await box.evaluate((t) => t === document.activeElement), true, 'the box has focus');
    await box.fill('question, better');
    await box.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'prompt', text: 'question, better', images: [{ mimeType: 'image/png', data: PNG }] }], 'sent here, as a new turn');
  });
}
