// The UI check: the real workbench in headless Chromium, the extension in code-server's Node extension host.
// F1 -> "ACP: Open Chat", type a prompt into the chat webview, click Send, wait for the demo agent's reply in
// the webview, save a screenshot. Last stdout line: `N passed, N failed` (one check per variant).
//
//   node test/e2e/ui-check.mjs
//   UI_FROM=vsix|folder|both   vsix: install dist/acp-chat.vsix (default when it exists), folder: load the
//                              extension from the repo (extension-development mode), both: one run of each.
//   Screenshots: test-results/ui-chat.png (the first variant), test-results/ui-chat-folder.png (folder, with both).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { DEMO_REPLY, chatFrame, launchBrowser, log, painted, root, runCommand, startCodeServer, workbenchUrl } from './host.mjs';

const vsixPath = path.join(root, 'dist/acp-chat.vsix');
const resultsDir = path.join(root, 'test-results');
const from = process.env.UI_FROM ?? (existsSync(vsixPath) ? 'vsix' : 'folder');
if (!['vsix', 'folder', 'both'].includes(from)) {
  console.error(`UI_FROM must be vsix, folder or both (got "${from}")`);
  process.exit(2);
}
const variants = from === 'both' ? ['vsix', 'folder'] : [from];
const COMMAND = 'ACP: Open Chat';
const REPLY_TIMEOUT_MS = 60_000;

async function check(variant, shot) {
  const t0 = Date.now();
  const cs = await startCodeServer({ vsix: variant === 'vsix' ? vsixPath : undefined });
  let browser;
  try {
    browser = await launchBrowser(cs);
    const page = await browser.newPage({ viewport: { width: 1280, height: 960 } });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (e) => log('page error:', e.message));
    try {
      await page.goto(workbenchUrl(cs, { dev: variant === 'folder' }));
      await page.locator('.monaco-workbench').waitFor();
      log(`workbench visible after ${Date.now() - t0} ms`);
      await runCommand(page, COMMAND);
      log(`"${COMMAND}" run from the Command Palette after ${Date.now() - t0} ms`);
      const frame = await chatFrame(page, 30_000);
      log(`chat webview rendered after ${Date.now() - t0} ms`);
      const prompt = 'Say hello, please.';
      const box = frame.locator('textarea[aria-label="Prompt"]');
      await box.click();
      await box.fill(prompt);
      await frame.locator('button[aria-label="Send"]').click();
      await frame.locator('[data-kind="user_message"]', { hasText: prompt }).first().waitFor({ timeout: 15_000 });
      await frame.locator('[data-kind="agent_message"]', { hasText: DEMO_REPLY }).first().waitFor({ timeout: REPLY_TIMEOUT_MS });
      log(`demo agent reply rendered after ${Date.now() - t0} ms`);
      await frame.locator('.turn.turn-idle').waitFor({ timeout: REPLY_TIMEOUT_MS }); // the whole turn landed
      // The picture should show the prompt and the start of the reply, not only the end of a long turn.
      await frame
        .locator('[data-kind="user_message"]', { hasText: prompt })
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await painted(frame);
      await page.screenshot({ path: shot });
      log(`screenshot saved to ${path.relative(root, shot)}`);
    } catch (e) {
      const failShot = shot.replace(/\.png$/, '-failure.png');
      await page.screenshot({ path: failShot }).then(
        () => log(`failure screenshot: ${path.relative(root, failShot)}`),
        () => {},
      );
      throw e;
    }
  } finally {
    await browser?.close().catch(() => {});
    await cs.stop();
    log(`ui check (${variant}) took ${Date.now() - t0} ms`);
  }
}

mkdirSync(resultsDir, { recursive: true });
let passed = 0;
let failed = 0;
for (const [i, variant] of variants.entries()) {
  const shot = path.join(resultsDir, i === 0 ? 'ui-chat.png' : `ui-chat-${variant}.png`);
  log(`UI check: extension from the ${variant === 'vsix' ? 'packaged .vsix' : 'repo folder'}`);
  try {
    await check(variant, shot);
    passed++;
  } catch (e) {
    failed++;
    console.error(`FAIL ui check (${variant}):`, e instanceof Error ? e.message : e);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
