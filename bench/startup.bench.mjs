// Start and reload in the local VS Code host (code-server and headless Chromium, as the host test stages
// run it), each figure divided by the same thing done by VS Code's built-in Markdown preview in the same
// run, so the figures mean the same on a quiet or a loaded machine:
//   startup.activationOverMarkdownPreview  the extension's activation (VS Code's own figure from Show
//                                          Running Extensions: code loading + the activate call) / the
//                                          Markdown preview of a small file, from its command to its text
//                                          in the preview's frame
//   startup.chatPaintOverMarkdownPreview   ACP: Open Chat, from its command to the chat's prompt box shown in
//                                          its frame (VS Code shows a webview's document at its load event:
//                                          every figure here waits for that, not just for the DOM) /
//                                          Markdown: Open Preview to the Side of another small file:
//                                          with no chat tab open, the chat opens beside the editor, so both
//                                          make a new editor group (a relayout that repaints the editor area)
//   startup.chatPaintOverMarkdownPreviewSameGroup  the same over the preview opened in the editor's own
//                                          group (no new group): for scale, no goal
//   reload.*OverMarkdownPreview            after Reload Window with a chat holding a 20,000-chunk answer
//                                          (the flood agent) beside a Markdown preview, each from the reload
//                                          command, over the preview's restore (its text back in its frame):
//                                          activation (as above), chatPaint (the prompt box),
//                                          newestEntries (the answer's entry painted), messageEnd (the
//                                          answer's last chunk in view)
// The start figures are medians, over BENCH_STARTUP_ROUNDS fresh windows (Reload Window between them), of
// each window's own ratio. The webview infrastructure is warmed by one preview first in each window, so
// neither measured webview pays for it.
// The extension runs from the production bundles (what the .vsix ships), built here first.
// Prints one JSON object as the last line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, log, painted, paletteCommand, quickPick, reloadWindow, root, startCodeServer, workbenchUrl } from '../test/e2e/host.mjs';
import { percentile } from './lib/trace.mjs';
import { POLL_MS, whenFrame as pollFrame } from './lib/whenFrame.mjs';

const CHUNKS = 20_000;
const TAIL = 'END-OF-THE-LONG-ANSWER';
const HEADING = 'Small preview heading';
/** Fresh windows whose start is measured (BENCH_STARTUP_ROUNDS); the figures are medians over them. */
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 5);
const flood = {
  id: 'flood',
  name: 'Flood agent',
  command: process.execPath,
  args: [path.join(root, 'bench/fixtures/floodAgent.mjs')],
  env: { FLOOD_CHUNKS: String(CHUNKS), FLOOD_TAIL: TAIL },
};

if (spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('the production build failed');
const cs = await startCodeServer({ settings: { 'acpChat.agents': [flood], 'acpChat.defaultAgent': 'flood', 'workbench.editor.enablePreview': false } });
const SIDE_HEADING = 'Preview beside its file';
writeFileSync(path.join(cs.dirs.ws, 'small.md'), `# ${HEADING}\n\nA small file: one heading, one paragraph and a list.\n\n- one\n- two\n`);
writeFileSync(path.join(cs.dirs.ws, 'side.md'), `# ${SIDE_HEADING}\n\nA small file: one heading, one paragraph and a list.\n\n- one\n- two\n`);
const browser = await launchBrowser(cs);
const results = {};
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
try {
  await page.goto(workbenchUrl(cs), { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 120_000 });
  log('workbench loaded');

  /** A command from the Command Palette; resolves with the time its row was clicked. */
  const command = (title) => paletteCommand(page, title);

  /** A workspace file through Quick Open (the palette without its `>`), its tab shown. */
  async function openFile(name) {
    await quickPick(page, name, name);
    await page.locator('.tab', { hasText: name }).first().waitFor();
  }

  /** The first frame (of any webview) for which `test` (run in the frame) is true (bench/lib/whenFrame.mjs). */
  const whenFrame = (what, test, arg, timeoutMs) => pollFrame(page, what, test, arg, timeoutMs);
  // Each test also asks that the document is shown: VS Code writes a webview's document into a hidden frame
  // and shows it at the document's load event (or 200 ms after writing it), so a document in the DOM may not
  // be on screen yet. Its frame is the webview host's own (same origin), so frameElement is readable.
  const hasHeading = (h) => window.frameElement?.style.visibility !== 'hidden' && [...document.querySelectorAll('h1')].some((e) => e.textContent === h);
  const hasPrompt = () => window.frameElement?.style.visibility !== 'hidden' && document.querySelector('textarea[aria-label="Prompt"]') !== null;
  const hasAnswer = () =>
    window.frameElement?.style.visibility !== 'hidden' &&
    document.querySelector('textarea[aria-label="Prompt"]') !== null &&
    document.querySelector('[data-kind="agent_message"]') !== null;
  /** The answer's last chunk is on screen: a text node holding it, inside the frame's viewport. */
  const tailInView = (tail) => {
    if (window.frameElement?.style.visibility === 'hidden') return false;
    const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (!n.textContent?.includes(tail)) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      const b = r.getBoundingClientRect();
      return b.height > 0 && b.bottom > 0 && b.top < window.innerHeight;
    }
    return false;
  };

  /** VS Code's activation time for ACP Chat, from Developer: Show Running Extensions. */
  async function activationMs() {
    await command('Developer: Show Running Extensions');
    // Loaded from the repository folder, the extension is listed by its id.
    const row = page.locator('.monaco-list-row', { hasText: /acp-chat\.acp-chat|ACP Chat/ }).first();
    const label = row.locator('.activation-time').filter({ hasText: /\d+ms/ });
    await label.waitFor({ timeout: 60_000 });
    const text = (await label.textContent()) ?? '';
    await page.keyboard.press('Escape');
    await row.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => command('View: Close Editor'));
    const m = /(\d+)ms/.exec(text);
    if (!m) throw new Error(`no activation time in "${text}"`);
    return Number(m[1]);
  }

  /**
   * One fresh window's start: the Markdown preview of a small file (in its group, then beside its file),
   * then Open Chat beside a small file's editor, each from its command to its first paint, and the
   * activation. Every round but the first starts with Reload Window.
   */
  async function startRound(round) {
    if (round > 0) {
      await command('View: Close All Editors');
      await reloadWindow(page, command);
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 120_000 });
      // A window restores what the last one showed if its state was saved before the close: cleared again.
      await command('View: Close All Editors');
    }
    // Warm-up: the first webview of a window loads the webview host; neither measured one should pay for it.
    await openFile('README.md');
    await command('Markdown: Open Preview');
    await whenFrame('the warm-up preview', hasHeading, 'test workspace');
    await command('View: Close All Editors');
    await openFile('small.md');
    let t = await command('Markdown: Open Preview');
    await painted(await whenFrame('the Markdown preview', hasHeading, HEADING));
    const sameGroup = performance.now() - t;
    await command('View: Close All Editors');
    await openFile('side.md');
    t = await command('Markdown: Open Preview to the Side');
    await painted(await whenFrame('the Markdown preview beside', hasHeading, SIDE_HEADING));
    const beside = performance.now() - t;
    await command('View: Close All Editors');
    // As the preview beside its file: the chat opens beside a text editor (no chat tab is open), a new group.
    await openFile('small.md');
    t = await command('ACP: Open Chat');
    await painted(await whenFrame('the chat', hasPrompt));
    const chatPaint = performance.now() - t;
    const activation = await activationMs();
    log(
      `start ${round + 1}/${ROUNDS}: Markdown preview ${sameGroup.toFixed(0)} ms (beside: ${beside.toFixed(0)} ms), chat first paint ${chatPaint.toFixed(0)} ms, activation ${activation} ms`,
    );
    return { sameGroup, beside, chatPaint, activation };
  }

  // Each start figure is the median over ROUNDS fresh windows of its ratio within the window: one window's
  // chat-over-preview ratio ran from about 1.0 to 2.3 on the same code (the preview alone 620-1100 ms).
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await startRound(i));
  // The median as the webview benches take it (traced.mjs): for an even count, the upper middle window.
  const med = (f) => percentile(rounds.map(f), 0.5);
  Object.assign(results, {
    'startup.rounds': ROUNDS,
    'startup.markdownPreviewMs': round(med((r) => r.beside)),
    'startup.markdownPreviewSameGroupMs': round(med((r) => r.sameGroup)),
    'startup.chatPaintMs': round(med((r) => r.chatPaint)),
    'startup.activationMs': round(med((r) => r.activation)),
    'startup.chatPaintOverMarkdownPreview': round(
      med((r) => r.chatPaint / r.beside),
      2,
    ),
    'startup.chatPaintOverMarkdownPreview.goal': '<= 1.0',
    'startup.chatPaintOverMarkdownPreview.spread': rounds.map((r) => round(r.chatPaint / r.beside, 2)).join(' '),
    'startup.chatPaintOverMarkdownPreviewSameGroup': round(
      med((r) => r.chatPaint / r.sameGroup),
      2,
    ),
    'startup.activationOverMarkdownPreview': round(
      med((r) => r.activation / r.beside),
      2,
    ),
    'startup.activationOverMarkdownPreview.goal': '<= 1.5',
    'startup.activationOverMarkdownPreview.spread': rounds.map((r) => round(r.activation / r.beside, 2)).join(' '),
  });

  // A long chat: one answer of CHUNKS chunks, in the chat beside the preview of small.md, so both restore
  // visibly after the reload.
  await command('View: Close All Editors');
  await openFile('small.md');
  await command('Markdown: Open Preview');
  await whenFrame('the Markdown preview', hasHeading, HEADING);
  await command('ACP: Open Chat');
  const box = (await whenFrame('the chat', hasPrompt)).locator('textarea[aria-label="Prompt"]');
  await box.fill('flood');
  await box.press('Enter');
  const streamed = performance.now();
  await whenFrame('the whole answer', tailInView, TAIL, 300_000).catch(async (e) => {
    await page.screenshot({ path: path.join(root, 'test-results', 'startup-bench-answer.png') });
    throw e;
  });
  log(`${CHUNKS} chunks shown in ${(performance.now() - streamed).toFixed(0)} ms`);
  await whenFrame('the preview beside the chat', hasHeading, HEADING);

  // Reload: every figure from the reload command.
  // (Resolves once the new page is there, with the time the command was clicked.)
  const t = await reloadWindow(page, command);
  const seen = {};
  const end = Date.now() + 300_000;
  const checks = { markdownPreview: [hasHeading, HEADING], chatPaint: [hasPrompt], newestEntries: [hasAnswer], messageEnd: [tailInView, TAIL] };
  while (Object.keys(seen).length < Object.keys(checks).length) {
    if (Date.now() > end) {
      // On a loaded machine the workbench has been seen to restore neither webview (the preview's nor
      // ours): said in the results, and the start figures kept, rather than the whole bench lost.
      const missing = Object.keys(checks).filter((k) => !(k in seen));
      results['reload.error'] = `after the reload, never seen in 300 s: ${missing.join(', ')}`;
      await page.screenshot({ path: path.join(root, 'test-results', 'startup-bench-reload.png') }).catch(() => {});
      log(results['reload.error']);
      break;
    }
    for (const f of page.frames()) {
      if (f.isDetached()) continue;
      for (const [name, [test, arg]] of Object.entries(checks)) {
        if (name in seen) continue;
        if (await f.evaluate(test, arg).catch(() => false)) seen[name] = performance.now() - t;
      }
    }
    await page.waitForTimeout(POLL_MS);
  }
  if (!results['reload.error']) {
    const reloadActivation = await activationMs();
    log(
      `reload: ${Object.entries(seen)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(', ')}, activation ${reloadActivation} ms`,
    );
    Object.assign(results, {
      'reload.markdownPreviewMs': round(seen.markdownPreview),
      'reload.activationMs': reloadActivation,
      'reload.chatPaintMs': round(seen.chatPaint),
      'reload.newestEntriesMs': round(seen.newestEntries),
      'reload.messageEndMs': round(seen.messageEnd),
    });
    for (const k of ['activation', 'chatPaint', 'newestEntries', 'messageEnd']) {
      const ms = k === 'activation' ? reloadActivation : seen[k];
      results[`reload.${k}OverMarkdownPreview`] = round(ms / seen.markdownPreview, 2);
      // The restored chat's first paint at the preview's speed (issue 45); the rest within half again.
      results[`reload.${k}OverMarkdownPreview.goal`] = k === 'chatPaint' ? '<= 1.0' : '<= 1.5';
    }
  }
} catch (e) {
  // What the workbench showed when a step failed, for whoever reads the failure.
  const shot = path.join(root, 'test-results', 'startup-bench-failure.png');
  mkdirSync(path.dirname(shot), { recursive: true });
  await page.screenshot({ path: shot }).catch(() => {});
  log(`failed; the workbench as it was: ${path.relative(root, shot)}`);
  throw e;
} finally {
  await browser.close().catch(() => {});
  await cs.stop();
}
console.log(JSON.stringify(results));

function round(x, digits = 0) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
