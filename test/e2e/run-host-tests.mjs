// Runs the Mocha suite dist/test/host/index.js INSIDE code-server's Node extension host, the way
// @vscode/test-electron runs --extensionTestsPath, with headless Chromium as the (thin) workbench client.
// The extension is loaded from the repo folder. Last stdout line: `N passed, N failed`.
//   node test/e2e/run-host-tests.mjs        (HOST_VERBOSE=1: echo all ext-host and server output)
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { launchBrowser, log, root, startCodeServer, workbenchUrl } from './host.mjs';

// A bound for a hung suite, not a timing: the whole suite takes ~3.5 min on a quiet 2-core machine.
const SUITE_TIMEOUT_MS = 480_000;
const testsPath = path.join(root, 'dist/test/host/index.js');
const resultsDir = path.join(root, 'test-results');
// Written by test/host/index.ts from inside the extension host; the only trusted source of the counts.
const reportFile = path.join(resultsDir, 'host-report.json');

function finish(passed, failed) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

if (!existsSync(testsPath)) {
  console.error(`missing ${path.relative(root, testsPath)}: build first (node scripts/build.mjs)`);
  finish(0, 1);
}
mkdirSync(resultsDir, { recursive: true });
rmSync(reportFile, { force: true });

const t0 = Date.now();
let exitCode = 1;
let crash = null;
let cs;
let browser;
try {
  cs = await startCodeServer({ env: { ACP_CHAT_TEST_REPORT: reportFile, ...(process.env.ACP_CHAT_TEST_GREP ? { ACP_CHAT_TEST_GREP: process.env.ACP_CHAT_TEST_GREP } : {}) } });
  browser = await launchBrowser(cs);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // The workbench calls these in test mode (the same hooks @vscode/test-web uses).
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationExit', (c) => resolveExit(c));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    // Mocha's spec reporter lines and errors; everything with HOST_VERBOSE.
    if (process.env.HOST_VERBOSE) console.log(`  [ext-host ${type}] ${text}`);
    // Otherwise only the first lines of errors: the report below repeats each failure once.
    else if (/passing|failing|pending|✔|✓|^\s*\d+\)|Error|acp-chat/i.test(text)) console.log(`  [ext-host ${type}] ${text.split('\n').slice(0, 3).join('\n    ')}`);
  });
  page.on('pageerror', (e) => log('page error:', e.message));
  // A loaded machine can take over a minute to serve the workbench: the suite's own limit applies, not goto's 30 s.
  // A two-folder workspace (the test folder first): the suite runs as a multi-root user's would (multiRoot.test.ts).
  await page.goto(workbenchUrl(cs, { testsPath, workspace: cs.dirs.workspaceFile }), { timeout: SUITE_TIMEOUT_MS });
  log('workbench loading; the extension host runs the suite ...');
  let timer;
  const timeout = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new Error(`the suite did not finish in ${SUITE_TIMEOUT_MS / 1000} s`)), SUITE_TIMEOUT_MS);
  });
  exitCode = await Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
  log(`extension host reported exit code ${exitCode} after ${Date.now() - t0} ms`);
} catch (e) {
  crash = e;
  console.error(e);
} finally {
  await browser?.close().catch(() => {});
  await cs?.stop();
}

if (!existsSync(reportFile)) {
  console.error(crash ? 'the run crashed before the suite reported' : 'no report from the extension host (did the suite load?)');
  finish(0, 1);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
log(`report written by extension host pid ${report.pid} (node ${report.node}, vscode ${report.vscode})`);
for (const f of report.failed ?? []) console.log(`  FAIL ${f.title}\n       ${String(f.error).split('\n').join('\n       ')}`);
// A non-zero exit from the host with a clean report (e.g. run() rejected for another reason) still fails.
finish(report.passes, report.failures + (exitCode !== 0 && report.failures === 0 ? 1 : 0));
