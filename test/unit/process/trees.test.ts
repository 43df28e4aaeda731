/** Nothing a chat started outlives it: terminals' background jobs, detached grandchildren, after every kind of end (by pid). */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AgentProcess } from '../../../src/node/agentProcess';
import { NodeTerminalHost } from '../../../src/node/terminals';
import { isRunning, startHostPrintingPids } from '../helpers/procs';
import { until } from '../../helpers/until.mjs';
import { LEAVE_CHILDREN, pidsIn } from '../helpers/treeHost';

const node = process.execPath;
const never = new AbortController().signal;

async function terminalLeavingChildren(host: NodeTerminalHost): Promise<{ terminalId: string; pids: number[] }> {
  const { terminalId } = await host.create({ sessionId: 's', command: node, args: ['-e', LEAVE_CHILDREN(true)] });
  assert.deepEqual(await host.waitForExit({ sessionId: 's', terminalId }, never), { exitCode: 0, signal: null });
  const pids = pidsIn((await host.output({ sessionId: 's', terminalId })).output);
  assert.ok(pids, 'the terminal printed its children');
  // The command has exited; what it left in the background still runs until the terminal goes.
  assert.ok(pids.every(isRunning));
  return { terminalId, pids };
}

describe('process trees', () => {
  it('release ends what a terminal left running after its command exited, detached grandchild included', { timeout: 30_000 }, async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId, pids } = await terminalLeavingChildren(host);
    await host.release({ sessionId: 's', terminalId });
    await until(() => !pids.some(isRunning), 'the processes to be gone', 60_000);
  });

  it('kill ends them too and keeps the terminal readable', { timeout: 30_000 }, async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId, pids } = await terminalLeavingChildren(host);
    await host.kill({ sessionId: 's', terminalId });
    await until(() => !pids.some(isRunning), 'the processes to be gone', 60_000);
    assert.match((await host.output({ sessionId: 's', terminalId })).output, /pids/);
    host.dispose();
  });

  it('kill of a running terminal ends it with its children and reports the signal', { timeout: 30_000 }, async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    let pids: number[] | undefined;
    const created = await host.create({ sessionId: 's', command: node, args: ['-e', LEAVE_CHILDREN(false)] });
    await until(
      () => {
        void host.output({ sessionId: 's', terminalId: created.terminalId }).then((o) => (pids ??= pidsIn(o.output)));
        return pids !== undefined;
      },
      "the terminal to print its children's pids",
      60_000,
    );
    await host.kill({ sessionId: 's', terminalId: created.terminalId });
    assert.deepEqual(await host.waitForExit({ sessionId: 's', terminalId: created.terminalId }, never), { exitCode: null, signal: 'SIGKILL' });
    await until(() => !pids!.some(isRunning), 'the processes to be gone', 60_000);
    host.dispose();
  });

  it('an agent that exits by itself takes its detached grandchild along', { timeout: 30_000 }, async () => {
    let pids: number[] | undefined;
    const p = new AgentProcess({ command: node, args: ['-e', LEAVE_CHILDREN(true)], graceMs: 300, onStderrLine: (l) => (pids ??= pidsIn(l)) });
    await p.exited;
    assert.ok(pids);
    await until(() => !pids!.some(isRunning), 'the processes to be gone', 60_000);
    p.dispose();
  });

  it('dispose of a running agent ends its detached grandchild', { timeout: 30_000 }, async () => {
    let pids: number[] | undefined;
    const p = new AgentProcess({ command: node, args: ['-e', LEAVE_CHILDREN(false)], graceMs: 300, onStderrLine: (l) => (pids ??= pidsIn(l)) });
    await until(() => pids !== undefined, 'the process ids to be printed', 60_000);
    assert.ok(pids!.every(isRunning));
    p.dispose(300);
    await until(() => !pids!.some(isRunning), 'the processes to be gone', 60_000);
  });

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const) {
    it(`when the host gets ${signal}, its agents' and terminals' trees end (background and detached children)`, { timeout: 30_000 }, async () => {
      const { host, pids } = await startHostPrintingPids(path.join(__dirname, '../helpers/treeHost.ts'));
      assert.equal(pids.length, 4);
      assert.ok(pids.every(isRunning));
      process.kill(host.pid!, signal);
      await until(() => !pids.some(isRunning), 'the processes to be gone', 60_000);
    });
  }
});
