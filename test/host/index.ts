/**
 * Mocha entry point loaded by the VS Code extension host through `extensionTestsPath`: the same `run()`
 * contract as @vscode/test-electron, so the suite runs unchanged in code-server (test/e2e/run-host-tests.mjs)
 * and in desktop VS Code (test/e2e/run-electron.mjs).
 *
 * The counts are written to the file named by ACP_CHAT_TEST_REPORT because the runner sees only an exit
 * code from the workbench; the file is written by the extension host process itself, so it cannot be
 * faked by a workbench that never ran the suite.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import Mocha = require('mocha');

interface Report {
  readonly passes: number;
  readonly failures: number;
  readonly tests: number;
  readonly failed: readonly { readonly title: string; readonly error: string }[];
  readonly pid: number;
  readonly node: string;
  readonly vscode: string;
}

/**
 * The files of shard "K/N" (test/e2e/run-host-tests.mjs runs N hosts side by side): the Kth of N runs of
 * consecutive files, in the order the whole suite runs them; all files without a shard.
 */
function shardOf(files: readonly string[], shard: string | undefined): readonly string[] {
  const m = /^(\d+)\/(\d+)$/.exec(shard ?? '');
  if (!m) return files;
  const [k, n] = [Number(m[1]), Number(m[2])];
  const size = Math.ceil(files.length / n);
  return files.slice((k - 1) * size, k * size);
}

export function run(): Promise<void> {
  // 60 s: a test may start the demo agent and wait for a whole streamed turn on a busy 2-core machine.
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.ACP_CHAT_TEST_GREP;
  if (grep) mocha.grep(grep);
  // Activation is checked before anything can start an agent, so it is loaded first on purpose; every other
  // file sets up what it needs itself and may run in any order.
  const first = 'activation.test.js';
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && f !== first);
  for (const f of shardOf([first, ...files], process.env.ACP_CHAT_TEST_SHARD)) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    const failed: { title: string; error: string }[] = [];
    const runner = mocha.run((failures) => {
      const stats = runner.stats;
      const report: Report = {
        passes: stats?.passes ?? 0,
        failures: stats?.failures ?? failures,
        tests: stats?.tests ?? 0,
        failed,
        pid: process.pid,
        node: process.version,
        vscode: vscode.version,
      };
      console.log(`acp-chat host suite: ${report.passes} passed, ${report.failures} failed`);
      const file = process.env.ACP_CHAT_TEST_REPORT;
      if (file) fs.writeFileSync(file, JSON.stringify(report, null, 1));
      if (failures > 0) reject(new Error(`${failures} tests failed.`));
      else resolve();
    });
    runner.on('fail', (test, err: unknown) => {
      failed.push({ title: test.fullTitle(), error: err instanceof Error ? err.message : String(err) });
    });
  });
}
