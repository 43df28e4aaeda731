// The side bar's History view (webview/history/historyApp.ts) in the test page: typing sends a query per
// settled keystroke, results are drawn grouped by chat with the match highlighted as text (agent text is
// never markup), a match opens its chat at that message, filters go with the query, answers to an older
// query are dropped, the list grows on scroll, and bulk actions name the chats checked or "all matching".
// Registered by run.mjs. Screenshot: test-results/webview-history.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const choices = {
  agents: [
    { id: 'demo', name: 'Demo Agent' },
    { id: 'claude', name: 'Claude Code' },
  ],
  folders: ['/work/alpha', '/work/beta'],
};
const row = (i, o = {}) => ({
  chatId: `chat-${i}`,
  title: `Chat ${i}`,
  agent: 'Demo Agent',
  folder: '/work/alpha',
  updatedAt: Date.UTC(2026, 10, 28, 12, i % 60),
  state: 'finished',
  unread: false,
  ...o,
});

async function lastQuery(page) {
  await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'query'));
  return page.evaluate(() => window.__host.posted.filter((m) => m.type === 'query').at(-1));
}

export function register(test) {
  test('history: list, search as you type grouped by chat, open at a match, filters, bulk actions', async ({ open }) => {
    mkdirSync(shots, { recursive: true });
    const { page, send, errors, clearPosted } = await open({ view: 'history', width: 340, height: 640 });
    const first = await lastQuery(page);
    assert.deepEqual(first, { type: 'query', seq: 1, text: '', filter: { date: 'any' } }, 'the list is asked at start');
    await send({
      type: 'list',
      seq: 1,
      from: 0,
      rows: Array.from({ length: 200 }, (_, i) => row(i, i === 1 ? { unread: true, state: 'needsYou' } : i === 2 ? { state: 'failed' } : {})),
      total: 1000,
      choices,
    });
    await page.waitForSelector('.history-row[data-chat-id="chat-199"]');
    assert.match(await page.locator('.history-status').innerText(), /1000 chats/);
    assert.equal(await page.locator('.history-agent option').count(), 3, 'agents offered from the host');
    // Scrolled to its end, the list asks for more.
    await clearPosted();
    await page.locator('.history-list').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'more' && m.shown === 200));

    // Typing: one query per settled input, with the filter.
    await page.selectOption('.history-agent', 'claude');
    await page.locator('.history-search').fill('walrus');
    await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'query' && m.text === 'walrus'));
    const q = await lastQuery(page);
    assert.deepEqual(q.filter, { agent: 'claude', date: 'any' });
    const hostile = '<img src=x onerror="window.__pwned=1">walrus';
    await send({ type: 'list', seq: q.seq - 1, from: 0, rows: [row(999)], total: 1, choices }); // an older answer: dropped
    await send({ type: 'results', seq: q.seq, groups: [{ row: row(7, { title: 'Walrus plans', agent: 'Claude Code' }), inTitle: true, hits: [] }], done: false, choices });
    await send({
      type: 'results',
      seq: q.seq,
      groups: [
        {
          row: row(42, { title: 'Parser work', agent: 'Claude Code', unread: true }),
          inTitle: false,
          hits: [
            { key: 'k-1', kind: 'user', snippet: 'where is the walrus today', start: 13, length: 6 },
            { key: 'k-2', kind: 'agent', snippet: hostile, start: hostile.length - 6, length: 6 },
            { key: 'k-3', kind: 'path', snippet: '/work/alpha/walrus.ts', start: 12, length: 6 },
          ],
        },
      ],
      done: true,
      choices,
    });
    await page.waitForSelector('.history-row[data-chat-id="chat-42"] .history-hit[data-key="k-3"]');
    assert.equal(await page.locator('.history-row[data-chat-id="chat-999"]').count(), 0, 'an older query’s answer is not drawn');
    assert.deepEqual(await page.locator('.history-row').evaluateAll((els) => els.map((e) => e.dataset.chatId)), ['chat-7', 'chat-42'], 'grouped by chat, title match first');
    assert.deepEqual(await page.locator('.history-row[data-chat-id="chat-42"] mark').allInnerTexts(), ['walrus', 'walrus', 'walrus']);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'agent text is text');
    assert.equal(await page.locator('.history-hits img').count(), 0);
    assert.match(await page.locator('.history-status').innerText(), /2 chats match/);
    await page.screenshot({ path: path.join(shots, 'webview-history.png') });

    // A match opens its chat at that entry; a title opens the chat.
    await clearPosted();
    await page.locator('.history-hit[data-key="k-2"]').click();
    await page.locator('.history-row[data-chat-id="chat-7"] .history-title').click();
    await page.waitForFunction(() => window.__host.posted.filter((m) => m.type === 'open').length === 2);
    assert.deepEqual(await page.evaluate(() => window.__host.posted.filter((m) => m.type === 'open')), [
      { type: 'open', chatId: 'chat-42', key: 'k-2' },
      { type: 'open', chatId: 'chat-7' },
    ]);

    // Bulk: nothing checked, nothing to do; one checked; then all matching.
    assert.equal(await page.locator('.history-archive').isDisabled(), true);
    await page.locator('.history-row[data-chat-id="chat-42"] .history-pick').check();
    await page.locator('.history-archive').click();
    await page.locator('.history-all').check();
    await page.locator('.history-export').click();
    await page.waitForFunction(() => window.__host.posted.filter((m) => m.type === 'bulk').length === 2);
    assert.deepEqual(await page.evaluate(() => window.__host.posted.filter((m) => m.type === 'bulk')), [
      { type: 'bulk', action: 'archive', chatIds: ['chat-42'], all: false },
      { type: 'bulk', action: 'export', chatIds: [], all: true },
    ]);
    await send({ type: 'notice', text: 'Archived 1 chat.' });
    await page.waitForFunction(() => document.querySelector('.history-status')?.textContent === 'Archived 1 chat.');
    assert.deepEqual(errors, []);
  });

  test('history: the agent sessions section lists each agent only when opened, with its state, and opens a session once', async ({ open }) => {
    const { page, send, errors, clearPosted } = await open({ view: 'history', width: 340, height: 640 });
    await lastQuery(page);
    assert.equal(await page.evaluate(() => window.__host.posted.some((m) => m.type === 'listAgentSessions')), false, 'no agent is asked before the section is opened');
    await clearPosted();
    await page.locator('.history-agents summary').click();
    await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'listAgentSessions'));
    const row = (agentId, name, state, note, sessions = []) => ({ agentId, name, state, note, sessions });
    await send({
      type: 'agentSessions',
      done: true,
      rows: [
        row('claude', 'Claude Code', 'listed', '2 sessions not in ACP Chat', [
          { sessionId: 's-1', title: '<img src=x onerror=alert(1)>', updatedAt: '2026-11-01T10:00:00Z' },
          { sessionId: 's-2', title: null, updatedAt: null },
        ]),
        row('gemini', 'Gemini CLI', 'unsupported', 'does not list its sessions (no session/list)'),
        row('codex', 'Codex', 'failed', 'listing failed: no answer within 20 s'),
        row('demo', 'Demo Agent', 'none', 'no sessions that ACP Chat does not show'),
      ],
    });
    await page.waitForSelector('.agent-sessions-row[data-agent-id="demo"]');
    const heads = await page.locator('.agent-sessions-head').allInnerTexts();
    assert.deepEqual(heads, [
      'Claude Code — 2 sessions not in ACP Chat',
      'Gemini CLI — does not list its sessions (no session/list)',
      'Codex — listing failed: no answer within 20 s',
      'Demo Agent — no sessions that ACP Chat does not show',
    ]);
    assert.equal(await page.locator('.history-agents img').count(), 0, 'a title is text, never markup');
    assert.match(await page.locator('.agent-session').first().innerText(), /<img src=x/);
    assert.equal(await page.locator('.history-agents-again').isDisabled(), false);
    await page.locator('.agent-session', { hasText: 'Untitled session' }).click();
    await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'openAgentSession'));
    assert.deepEqual(await page.evaluate(() => window.__host.posted.filter((m) => m.type === 'openAgentSession')), [
      { type: 'openAgentSession', agentId: 'claude', sessionId: 's-2' },
    ]);
    assert.equal(await page.locator('.agent-session').count(), 1, 'the opened session leaves the list');
    await page.screenshot({ path: path.join(shots, 'webview-history-agents.png') });
    assert.deepEqual(errors, []);
  });
}
