// Browser checks of plans by id (unstable `plan_update` / `plan_removed`): the single v1 plan and several
// plans by id shown at once (a checklist, Markdown drawn through the allowlist, a file as a link the host
// opens), one updated in its place, one removed when the panel is told, and a fold the user closed staying
// closed. Registered by run.mjs.
import assert from 'node:assert/strict';
import path from 'node:path';
import { panel, snapshot, patch } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const items = (planId, ...statuses) => ({
  planId,
  type: 'items',
  entries: statuses.map((status, i) => ({ content: `${planId} step ${i + 1}`, priority: i === 0 ? 'high' : 'medium', status })),
});

export function register(test) {
  test('plans by id: several shown at once, updated in place, one removed when told', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    const markdown = { planId: 'md', type: 'markdown', content: '## Approach\n\n1. Read **notes.txt**\n2. Add a line <img src=x onerror="window.__pwned=1">' };
    const file = { planId: 'file', type: 'file', uri: 'file:///ws/docs/PLAN.md' };
    const legacy = [{ content: 'Old-style step', priority: 'medium', status: 'completed' }];
    await send(snapshot([], panel({ turn: 'busy', plan: legacy, plans: [items('main', 'completed', 'in_progress', 'pending'), markdown, file] })));
    await flush();
    const folds = page.locator('.plan .plan-fold');
    assert.equal(await folds.count(), 4, 'the v1 plan and three plans by id');
    assert.deepEqual(await page.locator('.plan .plan-fold > summary').allTextContents(), ['Plan · 1/1 done', 'Plan 1 · 1/3 done', 'Plan 2', 'Plan 3 · in a file']);
    assert.equal(await page.locator('.plan-fold[data-plan-id="id:main"] .plan-item').count(), 3);
    const md = page.locator('.plan-fold[data-plan-id="id:md"] .plan-markdown');
    assert.equal(await md.locator('h2').textContent(), 'Approach');
    assert.equal(await md.locator('strong').textContent(), 'notes.txt');
    assert.equal(await md.locator('img, [onerror]').count(), 0, 'agent Markdown goes through the allowlist');
    await page.screenshot({ path: path.join(shots, 'webview-plans.png') });
    // A file plan is a link the host opens.
    await clearPosted();
    await page.locator('.plan-fold[data-plan-id="id:file"] a').click();
    await page.waitForFunction(() => window.__host.posted.length >= 1);
    const [opened] = await posted();
    assert.ok(opened && (opened.type === 'openLink' || opened.type === 'openLocation'), `the host is asked to open it (${JSON.stringify(opened)})`);
    // The user closes one fold; an update of that plan keeps it closed and in its place.
    await page.locator('.plan-fold[data-plan-id="id:main"] > summary').click();
    await send(patch({ op: 'panel', panel: { plans: [items('main', 'completed', 'completed', 'in_progress'), markdown, file] } }));
    await flush();
    assert.equal(await page.locator('.plan-fold[data-plan-id="id:main"]').getAttribute('open'), null, 'closed as the user left it');
    assert.equal(await page.locator('.plan .plan-fold > summary').nth(1).textContent(), 'Plan 1 · 2/3 done');
    // plan_removed: the store drops the plan, the panel hears the list without it.
    await send(patch({ op: 'panel', panel: { plans: [items('main', 'completed', 'completed', 'in_progress'), file] } }));
    await flush();
    assert.equal(await page.locator('.plan-fold[data-plan-id="id:md"]').count(), 0);
    assert.equal(await folds.count(), 3);
    await send(patch({ op: 'panel', panel: { plan: null, plans: [] } }));
    await flush();
    assert.equal(await page.locator('.plan').isHidden(), true, 'no plan: no section');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });
}
