// Browser checks of the Changes summary after a turn: placed after the turn's last entry, one row per
// file with named buttons, clicks posting typed `changes` messages, `changeSet` patches redrawing the
// block in place with focus kept and the result announced, agent-controlled paths shown as text only,
// and the block surviving a snapshot. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { changeSet, message, panel, toolCall, snapshot, patch } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');

const turn = () => [
  message('user_message', 'u1', 'Fix parseRange and add a test.'),
  toolCall('t1', { title: 'Edit src/range.ts', toolKind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/w/src/range.ts', oldText: 'a\n', newText: 'b\n' }] }),
  message('agent_message', 'a1', 'Done: the end index is exclusive now, and a test covers it.'),
];
const order = (page) => page.locator('.entries > *').evaluateAll((els) => els.map((e) => e.dataset.key ?? e.dataset.setId ?? e.className));

export function register(test) {
  test('changes summary: after the turn, one row per file with named buttons; clicks post typed messages', async ({ open }) => {
    const { page, send, flush, posted, clearPosted, errors } = await open({ height: 760 });
    await send(snapshot(turn(), panel({ changeSets: [changeSet('c1', 'a1')] })));
    await flush();
    assert.deepEqual(await order(page), ['u1', 't1', 'a1', 'c1']);
    const block = page.locator('section.changes[data-set-id="c1"]');
    assert.equal(await block.getAttribute('aria-label'), 'Changes: 4 files');
    assert.deepEqual(await block.locator('.change-path').allTextContents(), ['src/range.ts', 'src/range.test.ts', 'README.md', '/etc/hosts']);
    assert.match(await block.locator('.changes-count').innerText(), /4 files/);
    for (const name of [
      'Keep all changes',
      'Undo all changes',
      'Open diff of src/range.ts',
      'Review src/range.ts hunk by hunk in the editor',
      'Keep src/range.ts',
      'Undo src/range.ts',
    ]) {
      assert.equal(await block.getByRole('button', { name, exact: true }).count(), 1, name);
    }
    // Not undoable (outside the workspace): no Undo, the reason shown.
    assert.equal(await block.getByRole('button', { name: 'Undo /etc/hosts' }).count(), 0);
    assert.match(await block.locator('[data-file-index="3"] .change-note').innerText(), /outside the workspace/);
    assert.match(await block.locator('[data-file-index="2"] .change-state').innerText(), /Changed since/);
    assert.match(await block.locator('[data-file-index="1"]').innerText(), /new file/);
    await clearPosted();
    await block.getByRole('button', { name: 'Open diff of src/range.ts' }).click();
    await block.getByRole('button', { name: 'Review src/range.ts hunk by hunk in the editor' }).click();
    await block.getByRole('button', { name: 'Keep src/range.test.ts' }).click();
    await block.getByRole('button', { name: 'Undo all changes' }).click();
    await block.getByRole('button', { name: 'Keep all changes' }).click();
    assert.deepEqual(await posted(), [
      { type: 'changes', setId: 'c1', index: 0, action: 'openDiff' },
      { type: 'changes', setId: 'c1', index: 0, action: 'review' },
      { type: 'changes', setId: 'c1', index: 1, action: 'keep' },
      { type: 'changes', setId: 'c1', index: null, action: 'undo' },
      { type: 'changes', setId: 'c1', index: null, action: 'keep' },
    ]);
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(shots, { recursive: true });
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'webview-changes.png') });
    assert.deepEqual(errors, []);
  });

  test('changes summary: a patch redraws the block in place, keeps the keyboard on the row and says the result', async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot(turn(), panel({ changeSets: [changeSet('c1', 'a1')] })));
    await flush();
    const undo = page.getByRole('button', { name: 'Undo src/range.ts', exact: true });
    await undo.focus();
    const set = changeSet('c1', 'a1');
    const undone = { ...set, files: set.files.map((f, i) => (i === 0 ? { ...f, state: 'undone', canUndo: false } : f)) };
    await send(patch({ op: 'changeSet', id: 'c1', set: undone }));
    await page.waitForFunction(() => document.querySelector('.changes [data-file-index="0"]')?.dataset.state === 'undone');
    assert.equal(await page.locator('.changes [data-file-index="0"] .change-state').innerText(), 'Undone');
    assert.equal(await undo.count(), 0, 'an undone file offers no Undo');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Open diff of src/range.ts', 'focus stays on the row');
    await page.waitForFunction(() => /src\/range\.ts: undone/.test(document.querySelector('[data-testid="announcer"]')?.textContent ?? ''));
    // A conflict is said with its reason.
    const conflict = {
      ...undone,
      files: undone.files.map((f, i) => (i === 1 ? { ...f, state: 'conflict', note: 'src/range.test.ts changed after the edit, so Undo left it alone.' } : f)),
    };
    await send(patch({ op: 'changeSet', id: 'c1', set: conflict }));
    await page.waitForFunction(() => /range\.test\.ts changed after the edit/.test(document.querySelector('[data-testid="announcer"]')?.textContent ?? ''));
    assert.match(await page.locator('.changes [data-file-index="1"] .change-note').innerText(), /changed after the edit/);
    // The next turn's entries go after the block; a new summary is announced and placed after its turn.
    await send(
      patch({ op: 'insert', index: 3, entry: message('user_message', 'u2', 'Thanks') }, { op: 'insert', index: 4, entry: message('agent_message', 'a2', 'Also fixed the docs.') }),
    );
    await send(
      patch({
        op: 'changeSet',
        id: 'c2',
        set: changeSet('c2', 'a2', [{ path: 'docs/range.md', state: 'pending', source: 'diff', created: false, added: 1, removed: 1, note: null, canUndo: true, canDiff: true }]),
      }),
    );
    await flush();
    assert.deepEqual(await order(page), ['u1', 't1', 'a1', 'c1', 'u2', 'a2', 'c2']);
    await page.waitForFunction(() => /Changes: 1 file edited/.test(document.querySelector('[data-testid="announcer"]')?.textContent ?? ''));
    // Gone: a set the host dropped.
    await send(patch({ op: 'changeSet', id: 'c1', set: null }));
    assert.deepEqual(await order(page), ['u1', 't1', 'a1', 'u2', 'a2', 'c2']);
  });

  test('changes summary: agent-controlled paths and notes are text, never markup; a snapshot puts the block back', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    const evil = '<img src=x onerror="window.__pwned=1">.ts';
    const set = changeSet('c1', 'a1', [
      { path: evil, state: 'conflict', source: 'diff', created: false, added: 1, removed: 0, note: `${evil} changed <b>since</b>`, canUndo: true, canDiff: true },
    ]);
    await send(snapshot(turn(), panel({ changeSets: [set] })));
    await flush();
    assert.equal(await page.locator('section.changes img, section.changes b').count(), 0);
    assert.equal(await page.locator('section.changes .change-path').textContent(), evil);
    assert.equal(await page.getByRole('button', { name: `Undo ${evil}`, exact: true }).count(), 1);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    await send(snapshot(turn(), panel({ changeSets: [set] })));
    await flush();
    assert.deepEqual(await order(page), ['u1', 't1', 'a1', 'c1']);
    assert.equal(await page.locator('section.changes').count(), 1);
    assert.deepEqual(errors, []);
  });
}

/** Registered by run.mjs: a Changes row's buttons fit a 300 px side bar (Undo was cut off once Review came). */
export function registerNarrow(test) {
  test('changes summary: at 300 px wide every button of every row is whole inside the panel', async ({ open }) => {
    const { page, send, flush } = await open({ width: 300, height: 700 });
    await send(snapshot(turn(), panel({ changeSets: [changeSet('c1', 'a1')] })));
    await flush();
    const block = page.locator('section.changes[data-set-id="c1"]');
    await block.getByRole('button', { name: 'Undo src/range.ts', exact: true }).waitFor();
    const cut = await block.evaluate((el) => {
      const clip = el.closest('section.transcript').getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll('button')]
        .map((b) => ({ b, r: b.getBoundingClientRect() }))
        .filter(({ r }) => r.left < Math.max(clip.left, box.left) - 0.5 || r.right > Math.min(clip.right, box.right) + 0.5 || r.width === 0)
        .map(({ b, r }) => `${b.getAttribute('aria-label')} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    });
    mkdirSync(shots, { recursive: true });
    await block.screenshot({ path: path.join(shots, 'webview-changes-300px.png') });
    assert.deepEqual(cut, [], 'buttons cut off at 300 px');
  });
}
