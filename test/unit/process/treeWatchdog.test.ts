/**
 * The tree watchdog (the Windows way: no process groups) run for real on Linux, with /proc and signals,
 * and with stand-ins for PowerShell and taskkill that speak the Windows tools' protocol: a grandchild
 * whose parent exited (which `taskkill /T` alone cannot find) still ends with its agent, its terminal,
 * and its host, however the host goes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isRunning, startHostPrintingPids } from '../helpers/procs';
import { until } from '../../helpers/until.mjs';
import { orphanedTree, treeWatch } from '../helpers/treeWatchHost';

const dir = mkdtempSync(path.join(tmpdir(), 'acp-tree-'));

for (const mode of ['proc', 'cim'] as const) {
  describe(`tree watchdog (${mode === 'proc' ? '/proc and signals' : 'PowerShell and taskkill stand-ins'})`, () => {
    it('an agent that exits takes along what it left, a grandchild whose parent already exited included', { timeout: 30_000 }, async () => {
      const trees = treeWatch(mode, dir);
      const { root, orphan } = await orphanedTree(trees, true);
      assert.ok(isRunning(orphan));
      process.kill(root, 'SIGKILL');
      await until(() => !isRunning(orphan), 'the processes to be gone', 60_000);
    });

    it("a terminal's leftovers outlive its command, and end on kill", { timeout: 30_000 }, async () => {
      const trees = treeWatch(mode, dir);
      let exited = false;
      const { proc, root, orphan } = await orphanedTree(trees, false, () => (exited = true));
      process.kill(root, 'SIGKILL');
      await until(() => exited, 'exited', 60_000);
      assert.ok(isRunning(orphan), "a terminal's background job lives until the terminal is killed or released");
      proc.end('SIGKILL');
      await until(() => !isRunning(orphan), 'the processes to be gone', 60_000);
    });

    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      it(`when the host gets ${signal}, its agents' and terminals' trees end, orphans included`, { timeout: 30_000 }, async () => {
        const { host, pids } = await startHostPrintingPids(path.join(__dirname, '../helpers/treeWatchHost.ts'), [mode, dir]);
        assert.equal(pids.length, 3);
        assert.ok(pids.every(isRunning));
        process.kill(host.pid!, signal);
        await until(() => !pids.some(isRunning), 'the processes to be gone', 60_000);
      });
    }
  });
}
