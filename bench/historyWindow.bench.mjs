// Window start-up to the chat's first paint with 1,000 chats of 500 messages on disk, over the same with one
// chat, in the local VS Code host (code-server and headless Chromium, as bench/startup.bench.mjs runs it).
// Two windows side by side, each on a workspace of its own whose chats folder is written before the
// window opens: "big" holds 1,000 chats (each a snapshot and a search file of 500 messages, and the chat
// list), "one" holds one of them. In each, the focused chat is opened in a tab; then, rounds interleaved,
// each window is reloaded (Developer: Reload Window) and timed from the command to the chat's newest
// message painted in its restored tab.
//   history.windowStartOverOneChat   the median of the per-round ratios big / one, with its spread
//                                    (goal <= 1.1)
//   history.windowStartMs / history.windowStartOneChatMs   the medians, for scale
// The extension runs from the production bundles (what the .vsix ships), built here first.
//   BENCH_HISTORY_WINDOW_ROUNDS (default 9)
// Prints one JSON object as the last line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { whenFrame } from './lib/whenFrame.mjs';
import { EXTENSION_ID, launchBrowser, log, painted, paletteCommand, reloadWindow, root, startCodeServer, workbenchUrl } from '../test/e2e/host.mjs';

const { MessageStore } = await tsImport('../src/common/store/index.ts', import.meta.url);
const { searchFileText } = await tsImport('../src/common/history/searchLines.ts', import.meta.url);
const { chatHomeDir } = await tsImport('../src/node/persistence/chatHome.ts', import.meta.url);
const { pathsIgnoreCase, workspaceIdentity } = await tsImport('../src/common/chats/workspaceIdentity.ts', import.meta.url);
const { ratioFigure, median } = await tsImport('./lib/rounds.ts', import.meta.url);

const CHATS = Number(process.env.BENCH_HISTORY_CHATS ?? 1000);
const MESSAGES = Number(process.env.BENCH_HISTORY_MESSAGES ?? 500);
const ROUNDS = Number(process.env.BENCH_HISTORY_WINDOW_ROUNDS ?? 9);
const C = '@CHAT@';
const TAIL = 'END-OF-CHAT';
const WORDS = 'the parser streams tokens while the agent edits files and runs tests in a terminal then explains what changed'.split(' ');
const sentence = (i, n) => Array.from({ length: n }, (_, w) => WORDS[(i * 7 + w * 13) % WORDS.length]).join(' ');

/** One chat of MESSAGES messages (turns of a prompt and an answer, ended), C for its number; its last answer ends with TAIL. */
function template() {
  const store = new MessageStore();
  const sid = `s-${C}`;
  store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: sid } });
  const update = (u) => store.ingest('agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: sid, update: u } });
  update({ sessionUpdate: 'session_info_update', title: `Chat ${C} about the parser` });
  for (let m = 0; m < MESSAGES; m += 2) {
    store.ingest('client->agent', { jsonrpc: '2.0', id: 10 + m, method: 'session/prompt', params: { sessionId: sid, prompt: [{ type: 'text', text: sentence(m, 12) }] } });
    const last = m + 2 >= MESSAGES;
    update({ sessionUpdate: 'agent_message_chunk', messageId: `a${m}`, content: { type: 'text', text: `${sentence(m + 1, 60)}${last ? ` ${TAIL}` : ''}` } });
    store.ingest('agent->client', { jsonrpc: '2.0', id: 10 + m, result: { stopReason: 'end_turn' } });
  }
  store.attach(sid);
  const lines = searchFileText(null, store.sessions());
  return { snapshot: JSON.stringify({ format: 'acp-chat/snapshot', version: 1, seq: 0, store: store.toJSON() }), lines: lines.slice(lines.indexOf('\n') + 1) };
}

/** Writes chats 0..n-1 and their list (chat 0 focused) into the chats folder of `cs`'s workspace. */
function generate(cs, t, n) {
  const identity = workspaceIdentity({ folders: [realpathSync(cs.dirs.ws)] }, pathsIgnoreCase(process.platform));
  const home = chatHomeDir(path.join(cs.dirs.user, 'User', 'globalStorage', EXTENSION_ID), identity);
  mkdirSync(home, { recursive: true });
  const now = Date.now();
  const chats = [];
  for (let c = 0; c < n; c++) {
    const id = `chat-bench-${String(c).padStart(6, '0')}`;
    const record = {
      id,
      agentId: 'demo',
      title: `Chat ${c} about the parser`,
      sessionId: `s-${c}`,
      createdAt: now - c * 60_000,
      updatedAt: now - c * 60_000,
      folder: cs.dirs.ws,
      ended: 'finished',
    };
    chats.push(record);
    writeFileSync(path.join(home, `${id}.snapshot.json`), t.snapshot.replaceAll(C, String(c)));
    writeFileSync(path.join(home, `${id}.search.txt`), searchFileText(record, []) + t.lines.replaceAll(C, String(c)));
  }
  writeFileSync(path.join(home, 'chats.json'), JSON.stringify({ version: 1, chats, focused: [chats[0].id] }));
}

/** The chat's newest message is in its frame, with the prompt box: what its first paint shows. */
const chatShown = (tail) =>
  document.querySelector('textarea[aria-label="Prompt"]') !== null && [...document.querySelectorAll('[data-kind="agent_message"]')].some((e) => e.textContent?.includes(tail));

if (spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('the production build failed');
const t0 = performance.now();
const t = template();
const settings = { 'acpChat.notifyWhenUnseen': false, 'workbench.editor.enablePreview': false };
const windows = {};
for (const [name, n] of [
  ['big', CHATS],
  ['one', 1],
]) {
  const cs = await startCodeServer({ settings });
  generate(cs, t, n);
  windows[name] = { cs, n };
}
log(`${CHATS} chats × ${MESSAGES} messages (and one) written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const results = {};
try {
  for (const w of Object.values(windows)) {
    w.browser = await launchBrowser(w.cs);
    w.page = await w.browser.newPage({ viewport: { width: 1300, height: 850 } });
    await w.page.goto(workbenchUrl(w.cs), { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await w.page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 120_000 });
    // The focused chat (chat 0) in a tab: what each reload restores.
    await paletteCommand(w.page, 'ACP: Open Chat');
    await painted(await whenFrame(w.page, 'the chat', chatShown, TAIL));
  }
  const times = { big: [], one: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? ['big', 'one'] : ['one', 'big']) {
      const { page } = windows[name];
      const start = await reloadWindow(page, (title) => paletteCommand(page, title));
      await painted(await whenFrame(page, `the chat after the reload (${name})`, chatShown, TAIL));
      times[name].push(performance.now() - start);
    }
    log(`round ${r + 1}/${ROUNDS}: 1,000 chats ${times.big.at(-1).toFixed(0)} ms, one chat ${times.one.at(-1).toFixed(0)} ms`);
  }
  Object.assign(results, {
    ...ratioFigure('history.windowStartOverOneChat', times.big, times.one),
    'history.windowStartOverOneChat.goal': '<= 1.1',
    'history.windowStartMs': Math.round(median(times.big)),
    'history.windowStartOneChatMs': Math.round(median(times.one)),
    'history.windowRounds': ROUNDS,
  });
} finally {
  for (const w of Object.values(windows)) {
    await w.browser?.close().catch(() => {});
    await w.cs.stop();
  }
}
console.log(JSON.stringify(results));
