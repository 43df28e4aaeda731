// Runs the Mocha suite dist/test/host/index.js INSIDE code-server's Node extension host, the way
// @vscode/test-electron runs --extensionTestsPath, with headless Chromium as the (thin) workbench client.
// The extension is loaded from the repo folder. Last stdout line: `N passed, N failed`.
//   node test/e2e/run-host-tests.mjs        (HOST_VERBOSE=1: echo all ext-host and server output;
//                                            HOST_SHARDS=N: N extension hosts side by side, default 2;
//                                            HOST_SHARD=K: only the Kth of them)
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { launchBrowser, log, root, startCodeServer, workbenchUrl } from './host.mjs';

// A bound for a hung suite, not a timing: the whole suite takes ~3.5 min on a quiet 2-core machine.
const SUITE_TIMEOUT_MS = 480_000;
// The suite's files split over HOST_SHARDS extension hosts (default 2), each in its own code-server, side by
// side: one host leaves about half of this 2-core class of machine idle (most tests wait on an agent, a
// webview or a file event). Every test file sets up what it needs itself (test/host/index.ts).
const SHARDS = Math.max(1, Number(process.env.HOST_SHARDS ?? 2));
const testsPath = path.join(root, 'dist/test/host/index.js');
const resultsDir = path.join(root, 'test-results');

function finish(passed, failed) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

if (!existsSync(testsPath)) {
  console.error(`missing ${path.relative(root, testsPath)}: build first (node scripts/build.mjs)`);
  finish(0, 1);
}
mkdirSync(resultsDir, { recursive: true });

/**
 * Runs shard `shard` (1-based) of `of` in its own code-server; resolves with its counts. The counts come
 * from the report the extension host writes (ACP_CHAT_TEST_REPORT), the only trusted source of them.
 */
async function runShard(shard, of) {
  const tag = of > 1 ? `[shard ${shard}/${of}] ` : '';
  // Written by test/host/index.ts from inside the extension host.
  const reportFile = path.join(resultsDir, of > 1 ? `host-report-${shard}.json` : 'host-report.json');
  rmSync(reportFile, { force: true });
  const t0 = Date.now();
  let exitCode = 1;
  let crash = null;
  let cs;
  let browser;
  try {
    const env = {
      ACP_CHAT_TEST_REPORT: reportFile,
      ACP_CHAT_TEST_SHARD: `${shard}/${of}`,
      ...(process.env.ACP_CHAT_TEST_GREP ? { ACP_CHAT_TEST_GREP: process.env.ACP_CHAT_TEST_GREP } : {}),
    };
    cs = await startCodeServer({ env });
    browser = await launchBrowser(cs);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The workbench calls these in test mode (the same hooks @vscode/test-web uses).
    let resolveExit;
    const exited = new Promise((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationExit', (c) => resolveExit(c));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      // Mocha's spec reporter lines and errors; everything with HOST_VERBOSE.
      if (process.env.HOST_VERBOSE) console.log(`  ${tag}[ext-host ${type}] ${text}`);
      // Otherwise only the first lines of errors: the report below repeats each failure once.
      else if (/passing|failing|pending|✔|✓|^\s*\d+\)|Error|acp-chat/i.test(text)) console.log(`  ${tag}[ext-host ${type}] ${text.split('\n').slice(0, 3).join('\n    ')}`);
    });
    page.on('pageerror', (e) => log(`${tag}page error:`, e.message));
    // A loaded machine can take over a minute to serve the workbench: the suite's own limit applies, not goto's 30 s.
    // A two-folder workspace (the test folder first): the suite runs as a multi-root user's would (multiRoot.test.ts).
    await page.goto(workbenchUrl(cs, { testsPath, workspace: cs.dirs.workspaceFile }), { timeout: SUITE_TIMEOUT_MS });
    log(`${tag}workbench loading; the extension host runs the suite ...`);
    let timer;
    const timeout = new Promise((_, rej) => {
      timer = setTimeout(() => rej(new Error(`the suite did not finish in ${SUITE_TIMEOUT_MS / 1000} s`)), SUITE_TIMEOUT_MS);
    });
    exitCode = await Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
    log(`${tag}extension host reported exit code ${exitCode} after ${Date.now() - t0} ms`);
  } catch (e) {
    crash = e;
    console.error(tag, e);
  } finally {
    await browser?.close().catch(() => {});
    await cs?.stop();
  }

  if (!existsSync(reportFile)) {
    console.error(`${tag}${crash ? 'the run crashed before the suite reported' : 'no report from the extension host (did the suite load?)'}`);
    return { passes: 0, failures: 1 };
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  log(`${tag}report written by extension host pid ${report.pid} (node ${report.node}, vscode ${report.vscode})`);
  for (const f of report.failed ?? []) console.log(`  ${tag}FAIL ${f.title}\n       ${String(f.error).split('\n').join('\n       ')}`);
  // A non-zero exit from the host with a clean report (e.g. run() rejected for another reason) still fails.
  return { passes: report.passes, failures: report.failures + (exitCode !== 0 && report.failures === 0 ? 1 : 0) };
}

// HOST_SHARD=K: only shard K of HOST_SHARDS (to rerun one).
const only = Number(process.env.HOST_SHARD ?? 0);
const shards = await Promise.all(
  Array.from({ length: SHARDS }, (_, i) => i + 1)
    .filter((k) => !only || k === only)
    .map((k) => runShard(k, SHARDS)),
);
finish(
  shards.reduce((n, r) => n + r.passes, 0),
  shards.reduce((n, r) => n + r.failures, 0),
);
