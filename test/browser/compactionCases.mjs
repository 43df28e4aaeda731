// Browser checks of compaction and the context meter: the Claude recording's compaction as a compact row
// (state, the summary folded and rendered as Markdown through the allowlist), its live states (in progress,
// failed with the error as text, cancelled), and the header's meter (levels, spoken value, Compact sending
// the agent's /compact). Entries are the recorded transcript reduced by the store. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { panel, snapshot, patch } from './fixtures.mjs';
import { assertClean, axeRun } from './a11y.mjs';
import { root } from './server.mjs';
import { recordedSessions } from './recorded.mjs';

const shots = path.join(root, 'test-results');

const stats = { chunks: 0, upserts: 1, bytes: 0, firstSeen: 1, lastSeen: 1, lines: [] };
const row = (over) => ({ kind: 'compaction', key: 'c-live', compactionId: 'c9', status: 'in_progress', summary: [], error: null, meta: null, provenance: 'live', stats, ...over });

export function register(test) {
  test('compaction: the Claude recording shows one compact row, its summary folded and rendered as Markdown; the meter warns and Compact sends /compact', async ({ open }) => {
    const s = recordedSessions('claude-next-compact.jsonl')[0];
    const c = s.entries.find((e) => e.kind === 'compaction');
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(
      snapshot(
        s.entries,
        panel({ sessionId: s.sessionId, usage: { used: 970_000, size: 1_000_000, cost: { amount: 0.42, currency: 'USD' } }, availableCommands: s.availableCommands }),
      ),
    );
    await flush();
    const el = page.locator(`[data-key="${c.key}"][data-kind="compaction"]`);
    assert.equal(await page.locator('[data-kind="compaction"]').count(), 1);
    assert.equal(await el.getAttribute('aria-label'), 'Context compaction, conversation compacted');
    assert.equal(await el.locator('.compaction-state').innerText(), 'conversation compacted');
    assert.equal(await el.locator('.compaction-state .codicon-fold').count(), 1);
    assert.equal(await el.locator('.entry-head, .who').count(), 0, 'a row, not a chat bubble');
    const details = el.locator('details.compaction-summary');
    assert.equal(await details.getAttribute('open'), null, 'the summary starts folded');
    await details.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await details.getAttribute('open'), '');
    assert.match(await details.innerText(), /Primary Request and Intent/);
    assert.ok((await details.locator('ol li, p').count()) > 0, 'rendered as Markdown');
    // The meter: 97 % is nearly full, said in words; Compact sends the agent's command.
    const meter = page.getByRole('meter', { name: 'Context used' });
    assert.match(await meter.getAttribute('aria-valuetext'), /^97% of the context used \(970,000 of 1,000,000 tokens\); cost so far 0\.42 USD; the context is nearly full/);
    assert.match(await meter.innerText(), /970k \/ 1\.0M \(97%\) · 0\.42 USD/);
    assert.equal(await page.locator('.usage-fill.full').count(), 1);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-compaction.png') });
    await clearPosted();
    await page.getByRole('button', { name: 'Compact the conversation (sends /compact)' }).click();
    assert.deepEqual(await posted(), [{ type: 'prompt', text: '/compact' }]);
    assertClean(await axeRun(page), 'compaction row and meter');
    assert.deepEqual(errors, []);
  });

  test('compaction: live states: in progress, then failed with its error as text; a summary is Markdown, never HTML; no Compact where the agent offers none', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    await send(snapshot([], panel({ turn: 'busy', usage: { used: 40_000, size: 200_000 }, availableCommands: [{ name: 'init', description: '' }] })));
    await send(patch({ op: 'insert', entry: row({}) }));
    await flush();
    const el = page.locator('[data-key="c-live"]');
    assert.equal(await el.locator('.compaction-state').innerText(), 'compacting the conversation…');
    assert.equal(await el.locator('.compaction-state.status-in_progress .codicon-loading').count(), 1);
    assert.equal(await el.locator('details.compaction-summary').isHidden(), true, 'no summary yet');
    assert.equal(await page.locator('.compact-button').count(), 0);
    assert.equal(await page.locator('.usage-fill.ok').count(), 1);
    await send(patch({ op: 'replace', entry: row({ status: 'completed', summary: [{ type: 'text', text: '**Kept** <img src=x onerror="window.__pwned=1"> the plan' }] }) }));
    await flush();
    const details = el.locator('details.compaction-summary');
    await details.locator('summary').click();
    assert.equal(await details.locator('strong').innerText(), 'Kept');
    assert.equal(await details.locator('img').count(), 0, 'HTML in the summary is text');
    assert.match(await details.innerText(), /<img src=x/);
    await send(patch({ op: 'replace', entry: row({ status: 'failed', error: '<b>context</b> too large' }) }));
    await flush();
    assert.equal(await el.getAttribute('aria-label'), 'Context compaction, compaction failed');
    assert.equal(await el.locator('.compaction-error').innerText(), '<b>context</b> too large');
    assert.equal(await el.locator('.compaction-error b').count(), 0);
    await send(patch({ op: 'replace', entry: row({ status: 'cancelled' }) }));
    await send(patch({ op: 'panel', panel: { usage: { used: 170_000, size: 200_000 } } }));
    await flush();
    assert.equal(await el.locator('.compaction-state').innerText(), 'compaction cancelled');
    assert.equal(await el.locator('.compaction-error').isHidden(), true);
    assert.equal(await page.locator('.usage.warn .codicon-warning').count(), 1, 'the meter warns from 80 %');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(errors, []);
  });

  test('session capabilities: a boolean config option is a toggle beside the pickers, set through setConfigOption (disabled read-only); an agent notice shows its severity, as text', async ({
    open,
  }) => {
    const options = [
      {
        id: 'model',
        name: 'Model',
        type: 'select',
        currentValue: 'a',
        options: [
          { value: 'a', name: 'A' },
          { value: 'b', name: 'B' },
        ],
      },
      { id: 'fast', name: 'Fast mode', type: 'boolean', currentValue: true },
    ];
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(
      snapshot(
        [],
        panel({ configOptions: options, notices: [{ severity: 'warning', title: '<b>Rate</b> limited', description: '<img src=x onerror="window.__pwned=1">retry in 30 s' }] }),
      ),
    );
    await flush();
    const toggle = page.getByRole('checkbox', { name: 'Fast mode' });
    assert.equal(await toggle.isChecked(), true);
    assert.equal(await page.locator('.pickers .picker').count(), 2, 'beside the select');
    await clearPosted();
    await toggle.click();
    assert.deepEqual(await posted(), [{ type: 'setConfigOption', configId: 'fast', value: false }]);
    const notice = page.locator('.notices .notice-warning');
    assert.equal(await notice.locator('.codicon-warning').count(), 1);
    assert.match(await notice.innerText(), /<b>Rate<\/b> limited/);
    assert.match(await notice.innerText(), /<img src=x/);
    assert.equal(await page.locator('.notices b, .notices img').count(), 0, 'never HTML');
    await send(snapshot([], panel({ configOptions: options, readOnly: true })));
    await flush();
    assert.equal(await page.getByRole('checkbox', { name: 'Fast mode' }).isDisabled(), true);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(errors, []);
  });
}
