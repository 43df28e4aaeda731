// Where a chat's first paint goes: a CPU profile of the extension host (through the extension's test-only
// probe, src/node/soakProbe.ts) and a Chromium trace of the renderer while ACP: Open Chat opens a new chat,
// in the local VS Code host. Not a benchmark (its file name has no `.bench`): a look for whoever works on
// startup.chatPaintOverMarkdownPreview (bench/startup.bench.mjs).
//   node bench/firstPaintProfile.mjs [ROUNDS]
// Writes test-results/first-paint/open-N.cpuprofile and open-N.trace.json (Chrome DevTools: Performance
// tab, Load profile) and prints, per round, the time from the command to the panel's creation and to the
// prompt box in its frame, and the extension host's costliest functions over all rounds.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, log, painted, paletteCommand, quickPick, reloadWindow, root, startCodeServer, workbenchUrl } from '../test/e2e/host.mjs';
import { until } from '../test/helpers/until.mjs';
import { firstCall, topFunctions } from './lib/cpuProfile.mjs';
import { hostProbe } from './lib/soakHost.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const out = path.join(root, 'test-results/first-paint');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const cs = await startCodeServer({ env: { ACP_CHAT_SOAK_PROBE: out }, settings: { 'workbench.editor.enablePreview': false } });
writeFileSync(path.join(cs.dirs.ws, 'small.md'), '# Small\n\ntext\n');
const probe = hostProbe(out);
const browser = await launchBrowser(cs);
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const command = (title) => paletteCommand(page, title);
const hasPrompt = () => document.querySelector('textarea[aria-label="Prompt"]') !== null;
const chatShown = () =>
  until(
    async () => {
      for (const f of page.frames()) if (!f.isDetached() && (await f.evaluate(hasPrompt).catch(() => false))) return f;
      return undefined;
    },
    'the chat',
    60_000,
  );
const profiles = [];
try {
  await page.goto(workbenchUrl(cs), { waitUntil: 'domcontentloaded', timeout: 180_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 180_000 });
  for (let r = 1; r <= ROUNDS; r++) {
    if (r > 1) {
      await command('View: Close All Editors');
      await reloadWindow(page, command);
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 180_000 });
      await command('View: Close All Editors');
    }
    const host = await probe.next();
    // The webview host warmed by a preview first, as the start-up bench does.
    await quickPick(page, 'small.md', 'small.md');
    await command('Markdown: Open Preview to the Side');
    await command('View: Close All Editors');
    await quickPick(page, 'small.md', 'small.md');
    await new Promise((res) => setTimeout(res, 2_000));
    await probe.ask(host);
    await probe.ask(host, { profile: 'start' });
    await browser.startTracing(page, {
      path: path.join(out, `open-${r}.trace.json`),
      categories: ['devtools.timeline', 'blink.user_timing', 'loading', 'v8.execute', 'disabled-by-default-devtools.timeline'],
    });
    const t = await command('ACP: Open Chat');
    await painted(await chatShown());
    const paintMs = performance.now() - t;
    await browser.stopTracing();
    await probe.ask(host, { profile: `open-${r}.cpuprofile` });
    const file = path.join(out, `open-${r}.cpuprofile`);
    const profile = await until(() => JSON.parse(readFileSync(file, 'utf8')), 'the CPU profile', 30_000);
    profiles.push(profile);
    const at = (n) => firstCall(profile, n)?.toFixed(0) ?? '—';
    log(
      `round ${r}: first paint ${paintMs.toFixed(0)} ms after the command; in the host profile: openChat at ${at('openChat')} ms, panel created at ${at('adopt')} ms, html at ${at('renderWebviewHtml')} ms`,
    );
  }
  const merged = profiles.flatMap((p) => topFunctions(p, { only: /\/dist\/extension\.js$/, limit: 40 }));
  const sum = new Map();
  for (const m of merged) sum.set(m.fn, { totalMs: (sum.get(m.fn)?.totalMs ?? 0) + m.totalMs / ROUNDS, selfMs: (sum.get(m.fn)?.selfMs ?? 0) + m.selfMs / ROUNDS });
  log("the extension's costliest functions while a chat opens (mean per round, ms):");
  for (const [fn, v] of [...sum].sort((a, b) => b[1].totalMs - a[1].totalMs).slice(0, 25)) log(`  total ${v.totalMs.toFixed(1)}  self ${v.selfMs.toFixed(1)}  ${fn}`);
} finally {
  await browser.close().catch(() => {});
  await cs.stop();
}
