// History at scale in the real workbench: a generated history of 1,000 chats (their snapshots, search files
// and chat list, written into the workspace's chats folder before the window opens, so the window starts
// with them) is listed in the side bar's History view, searched as you type, filtered, bulk-archived, and a
// match reopens its chat at that message. A stage of `npm test` (scripts/test.sh).
// Screenshots in test-results/history/NN-<what>.png (look at them).
//   node test/e2e/ui-history.mjs
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { EXTENSION_ID, frameWith, launchBrowser, log, painted, paletteCommand, root, startCodeServer, stepRunner, workbenchUrl } from './host.mjs';

const { MessageStore } = await tsImport('../../src/common/store/index.ts', import.meta.url);
const { searchFileText } = await tsImport('../../src/common/history/searchLines.ts', import.meta.url);
const { chatHomeDir } = await tsImport('../../src/node/persistence/chatHome.ts', import.meta.url);
const { pathsIgnoreCase, workspaceIdentity } = await tsImport('../../src/common/chats/workspaceIdentity.ts', import.meta.url);

const shots = path.join(root, 'test-results/history');
mkdirSync(shots, { recursive: true });
const CHATS = 1000;
const steps = stepRunner({ onFail: (name) => page.screenshot({ path: path.join(shots, `failure-${name.slice(0, 12).replace(/\W+/g, '-')}.png`) }) });
const step = steps.step;
const shot = async (file) => {
  await painted(page);
  await page.screenshot({ path: path.join(shots, file) });
};

/** The workspace's chats folder, as the extension finds it (src/node/persistence/chatHome.ts). */
function chatsHome(user, ws) {
  const identity = workspaceIdentity({ folders: [realpathSync(ws)] }, pathsIgnoreCase(process.platform));
  return chatHomeDir(path.join(user, 'User', 'globalStorage', EXTENSION_ID), identity);
}

/** Where a chat's number goes in the two template chats (`generate`). */
const C = '@CHAT@';

/** A chat's snapshot and search lines, with C for its number: one of six messages, the walrus in one when `walrus`. */
function templateChat(walrus) {
  const store = new MessageStore();
  const sid = `gen-${C}`;
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: sid } });
  const update = (u) => store.ingest('agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: sid, update: u } });
  // Its title from the agent, as a real chat's is (the list's title is only the store's cache).
  update({ sessionUpdate: 'session_info_update', title: `Generated chat ${C}` });
  for (let m = 0; m < 6; m += 2) {
    const text = (k) => `Message ${k} of chat ${C}${walrus && k === 4 ? ': where did the walrus go?' : ''}`;
    store.ingest('client->agent', { jsonrpc: '2.0', id: 10 + m, method: 'session/prompt', params: { sessionId: sid, prompt: [{ type: 'text', text: text(m) }] } });
    update({ sessionUpdate: 'agent_message_chunk', messageId: `a${m}`, content: { type: 'text', text: text(m + 1) } });
    store.ingest('agent->client', { jsonrpc: '2.0', id: 10 + m, result: { stopReason: 'end_turn' } });
  }
  store.attach(sid);
  const lines = searchFileText(null, store.sessions());
  return { snapshot: JSON.stringify({ format: 'acp-chat/snapshot', version: 1, seq: 0, store: store.toJSON() }), lines: lines.slice(lines.indexOf('\n') + 1) };
}

/**
 * Writes `n` chats (one in ten mentions the walrus) and their chat list into `home`: two chats built once
 * through the real store, each chat a copy with its number put in (a store per chat took seconds).
 */
function generate(home, n) {
  mkdirSync(home, { recursive: true });
  const templates = [templateChat(false), templateChat(true)];
  const list = { version: 1, chats: [], focused: [] };
  const now = Date.now();
  for (let c = 0; c < n; c++) {
    const id = `chat-gen-${String(c).padStart(6, '0')}`;
    const t = templates[c % 10 === 3 ? 1 : 0];
    const record = {
      id,
      agentId: 'demo',
      title: `Generated chat ${c}`,
      sessionId: `gen-${c}`,
      createdAt: now - c * 3_600_000,
      updatedAt: now - c * 3_600_000,
      open: false,
      ended: c % 7 === 0 ? 'failed' : 'finished',
      ...(c % 5 === 0 ? { unread: true } : {}),
    };
    list.chats.push(record);
    writeFileSync(path.join(home, `${id}.snapshot.json`), t.snapshot.replaceAll(C, String(c)));
    writeFileSync(path.join(home, `${id}.search.txt`), searchFileText(record, []) + t.lines.replaceAll(C, String(c)));
  }
  writeFileSync(path.join(home, 'chats.json'), JSON.stringify(list));
}

/** The History view's frame (found by its search box). */
function historyFrame() {
  return frameWith(page, 'input.history-search', 'the History view (input.history-search)', 60_000);
}

const cs = await startCodeServer({ settings: { 'acpChat.notifyWhenUnseen': false } });
const t0 = performance.now();
generate(chatsHome(cs.dirs.user, cs.dirs.ws), CHATS);
log(`${CHATS} chats generated in ${(performance.now() - t0).toFixed(0)} ms`);
const browser = await launchBrowser(cs);
const page = await browser.newPage({ viewport: { width: 1300, height: 850 } });
page.setDefaultTimeout(30_000);
try {
  await page.goto(workbenchUrl(cs, { dev: true }), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  let h;
  await step('the History view lists 1,000 chats', async () => {
    await paletteCommand(page, 'Focus on History View');
    // The side bar's other views folded, so History has the height.
    for (const title of ['ACP Messages', 'Chat']) {
      const header = page.locator('.pane-header.expanded', { hasText: new RegExp(`^${title}`) }).first();
      if (await header.count()) await header.click({ position: { x: 8, y: 10 } }); // the twistie, not its actions
    }
    h = await historyFrame();
    await h.locator('.history-status', { hasText: /^1000 chats/ }).waitFor({ timeout: 30_000 });
    await shot('01-list.png');
  });
  await step('search as you type, grouped by chat', async () => {
    await h.locator('input.history-search').fill('walrus');
    await h.locator('.history-status', { hasText: /^100 chats match/ }).waitFor({ timeout: 30_000 });
    await shot('02-search.png');
  });
  await step('filter: failed only', async () => {
    await h.locator('select.history-state').selectOption('failed');
    await h.locator('.history-status', { hasText: /^1[45] chats match/ }).waitFor({ timeout: 30_000 });
    await shot('03-filter-failed.png');
  });
  await step('bulk archive all matching, then find them under Archived', async () => {
    await h.locator('input.history-all').check();
    await h.locator('button.history-archive').click();
    await h.locator('.history-status', { hasText: /Archived 1[45] chats/ }).waitFor({ timeout: 30_000 });
    await h.locator('select.history-state').selectOption('archived');
    await h.locator('.history-status', { hasText: /^1[45] chats match/ }).waitFor({ timeout: 30_000 });
    await shot('04-archived.png');
  });
  await step('a match reopens its chat at that message', async () => {
    await h.locator('select.history-state').selectOption('');
    // The walrus chats not archived (100 less the 14 or 15 archived), not the archived list still shown before.
    await h.locator('.history-status', { hasText: /^8[56] chats match/ }).waitFor({ timeout: 30_000 });
    const hit = h.locator('.history-hit', { hasText: 'walrus' }).first();
    const title = (await hit.locator('xpath=ancestor::li[contains(@class, "history-row")]').locator('.history-title').innerText()).replace('●', '').trim();
    const n = /^Generated chat (\d+)$/.exec(title)?.[1];
    if (n === undefined) throw new Error(`the first hit's chat is "${title}"`);
    const said = `Message 4 of chat ${n}: where did the walrus go?`;
    await hit.click();
    // That chat (its own message, not another walrus chat's), named by its store's title (not "Chat N").
    const chat = await frameWith(page, '[data-kind="user_message"]', `the chat "${title}" showing its walrus message`, 60_000, said);
    await page.locator('.tab', { hasText: title }).first().waitFor({ timeout: 10_000 });
    // Its turns had ended when it was saved: no "Interrupted" notice.
    if (await chat.getByText('Interrupted').count()) throw new Error('the reopened chat says a turn was interrupted');
    await shot('05-opened-at-match.png');
  });
} catch (e) {
  log(`stopped: ${e instanceof Error ? e.message : e}`);
} finally {
  await browser.close().catch(() => {});
  await cs.stop();
}
console.log(`${steps.passed} passed, ${steps.failed} failed`);
process.exit(steps.failed ? 1 : 0);
