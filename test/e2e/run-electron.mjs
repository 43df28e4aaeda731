// The same extension-host suite (dist/test/host/index.js) in desktop VS Code, through @vscode/test-electron.
// For machines that can download VS Code; this offline setup uses test/e2e/run-host-tests.mjs instead.
//   node scripts/build.mjs && node test/e2e/run-electron.mjs      (VSCODE_VERSION=stable|insiders|1.100.0)
// Last stdout line: `N passed, N failed`.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const extensionTestsPath = path.join(root, 'dist/test/host/index.js');
if (!existsSync(extensionTestsPath)) {
  console.error('missing dist/test/host/index.js: build first (node scripts/build.mjs)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(path.join(root, 'test-results'), { recursive: true });
const reportFile = path.join(root, 'test-results/electron-report.json');
rmSync(reportFile, { force: true });
// A private workspace and profile, so the run sees neither the user's settings nor their other extensions.
const tmp = mkdtempSync(path.join(tmpdir(), 'acp-chat-electron-'));
const workspace = path.join(tmp, 'ws');
mkdirSync(workspace);
writeFileSync(path.join(workspace, 'README.md'), '# test workspace\n');

let code = 1;
try {
  code = await runTests({
    version: process.env.VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: root,
    extensionTestsPath,
    extensionTestsEnv: { ACP_CHAT_TEST_REPORT: reportFile },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--user-data-dir',
      path.join(tmp, 'user'),
      '--extensions-dir',
      path.join(tmp, 'exts'),
    ],
  });
} catch (e) {
  // runTests rejects when VS Code exits non-zero (a failing test) as well as when it cannot start.
  console.error(e instanceof Error ? e.message : e);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (existsSync(reportFile)) {
  const r = JSON.parse(readFileSync(reportFile, 'utf8'));
  for (const f of r.failed ?? []) console.log(`  FAIL ${f.title}\n       ${f.error}`);
  console.log(`${r.passes} passed, ${r.failures} failed`);
  process.exit(r.failures > 0 || r.passes === 0 || code !== 0 ? 1 : 0);
}
console.log('0 passed, 1 failed');
process.exit(1);
