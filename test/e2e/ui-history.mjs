// History at scale in the real workbench: a generated history of 1,000 chats (their snapshots, search files
// and chat list, written into the workspace's chats folder, then Reload Window) is listed in the side bar's
// History view, searched as you type, filtered, bulk-archived, and a match reopens its chat at that message.
// Screenshots in test-results/history/NN-<what>.png (look at them).
//   node test/e2e/ui-history.mjs
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { until } from '../helpers/until.mjs';
import { chatFrame, launchBrowser, log, painted, paletteCommand, reloadWindow, root, sendPrompt, startCodeServer, stepRunner, workbenchUrl } from './host.mjs';

const { MessageStore } = await tsImport('../../src/common/store/index.ts', import.meta.url);
const { searchFileText } = await tsImport('../../src/common/history/searchLines.ts', import.meta.url);

const shots = path.join(root, 'test-results/history');
mkdirSync(shots, { recursive: true });
const CHATS = 1000;
const steps = stepRunner({ onFail: (name) => page.screenshot({ path: path.join(shots, `failure-${name.slice(0, 12).replace(/\W+/g, '-')}.png`) }) });
const step = steps.step;
const shot = async (file) => {
  await painted(page);
  await page.screenshot({ path: path.join(shots, file) });
};

/** The folder holding chats.json under `dir` (the workspace's chats home). */
function findHome(dir) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const p = path.join(dir, name);
    if (name === 'chats.json') return dir;
    let isDir = false;
    try {
      isDir = lstatSync(p).isDirectory();
    } catch {
      // gone meanwhile
    }
    if (isDir) {
      const found = findHome(p);
      if (found) return found;
    }
  }
  return undefined;
}

/** Writes `n` chats of a few messages each (one in ten mentions the walrus) into `home`, beside what is there. */
function generate(home, n) {
  const list = JSON.parse(readFileSync(path.join(home, 'chats.json'), 'utf8'));
  const now = Date.now();
  for (let c = 0; c < n; c++) {
    const id = `chat-gen-${String(c).padStart(6, '0')}`;
    const store = new MessageStore();
    const sid = `gen-${c}`;
    store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
    store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: sid } });
    for (let m = 0; m < 6; m++) {
      const text = `Message ${m} of chat ${c}${c % 10 === 3 && m === 4 ? ': where did the walrus go?' : ''}`;
      if (m % 2 === 0) store.ingest('client->agent', { jsonrpc: '2.0', id: 10 + m, method: 'session/prompt', params: { sessionId: sid, prompt: [{ type: 'text', text }] } });
      else
        store.ingest('agent->client', {
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId: sid, update: { sessionUpdate: 'agent_message_chunk', messageId: `a${m}`, content: { type: 'text', text } } },
        });
    }
    store.attach(sid);
    const record = {
      id,
      agentId: 'demo',
      title: `Generated chat ${c}`,
      sessionId: sid,
      createdAt: now - c * 3_600_000,
      updatedAt: now - c * 3_600_000,
      open: false,
      ended: c % 7 === 0 ? 'failed' : 'finished',
      ...(c % 5 === 0 ? { unread: true } : {}),
    };
    list.chats.push(record);
    writeFileSync(path.join(home, `${id}.snapshot.json`), JSON.stringify({ format: 'acp-chat/snapshot', version: 1, seq: 0, store: store.toJSON() }));
    writeFileSync(path.join(home, `${id}.search.txt`), searchFileText(record, store.sessions()));
  }
  writeFileSync(path.join(home, 'chats.json'), JSON.stringify(list));
}

/** The History view's frame (found by its search box). */
function historyFrame() {
  return until(
    async () => {
      for (const f of page.frames()) {
        if (f.isDetached()) continue;
        if (
          (await f
            .locator('input.history-search')
            .count()
            .catch(() => 0)) > 0
        )
          return f;
      }
      return undefined;
    },
    'the History view (input.history-search)',
    60_000,
  );
}

const cs = await startCodeServer({ settings: { 'acpChat.notifyWhenUnseen': false } });
const browser = await launchBrowser(cs);
const page = await browser.newPage({ viewport: { width: 1300, height: 850 } });
page.setDefaultTimeout(30_000);
try {
  await page.goto(workbenchUrl(cs, { dev: true }), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  let home;
  await step('setup: one chat, then 1,000 generated chats in its folder, and a reload', async () => {
    await paletteCommand(page, 'ACP: Open Chat');
    const frame = await chatFrame(page, 60_000);
    await sendPrompt(frame, 'Say hello.');
    const base = cs.dirs.user;
    home = await until(() => findHome(base), 'the chats folder', 30_000);
    generate(home, CHATS);
    await reloadWindow(page, (t) => paletteCommand(page, t));
  });
  let h;
  await step('the History view lists 1,000 chats', async () => {
    await paletteCommand(page, 'Focus on History View');
    // The side bar's other views folded, so History has the height.
    for (const title of ['ACP Messages', 'Chat']) {
      const header = page.locator('.pane-header.expanded', { hasText: new RegExp(`^${title}`) }).first();
      if (await header.count()) await header.click({ position: { x: 8, y: 10 } }); // the twistie, not its actions
    }
    h = await historyFrame();
    await h.locator('.history-status', { hasText: /100\d chats/ }).waitFor({ timeout: 30_000 });
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
    await h.locator('.history-status', { hasText: /chats match/ }).waitFor({ timeout: 30_000 });
    const hit = h.locator('.history-hit', { hasText: 'walrus' }).first();
    await hit.click();
    const chat = await until(
      async () => {
        for (const f of page.frames()) {
          if (f.isDetached()) continue;
          if (
            (await f
              .locator('[data-kind="user_message"]', { hasText: 'walrus' })
              .count()
              .catch(() => 0)) > 0
          )
            return f;
        }
        return undefined;
      },
      'a chat showing the walrus message',
      60_000,
    );
    await chat.locator('[data-kind="user_message"]', { hasText: 'walrus' }).first().waitFor();
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
