/**
 * Issue 11, items 12 and 13: no agent (nor anything it started) outlives its host or its own exit, and
 * a missing agent command says so and names the setting to fix.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { spawnAgent } from '../../src/node/acp/agentLink';
import { AgentProcess } from '../../src/node/agentProcess';
import { isRunning, groupMembers, startHostPrinting } from './helpers/procs';
import { until } from '../helpers/until.mjs';

const node = process.execPath;

/** Starts the stand-in host; resolves with its pid and the pids it reports. */
async function startHost(flags: string[] = []): Promise<{ host: number; group: number; agent: number; child: number }> {
  const { host, printed } = await startHostPrinting<{ group: number; agent: number; child: number }>(path.join(__dirname, 'helpers/orphanHost.ts'), flags);
  return { host: host.pid!, ...printed };
}

describe('orphans', () => {
  it("ends the agent's children when the agent exits by itself", { timeout: 20_000 }, async () => {
    let child = 0;
    const p = new AgentProcess({
      command: node,
      args: ['-e', 'const c = require("child_process").spawn("sleep", ["300"], { stdio: "ignore" }); console.error("child " + c.pid); setTimeout(() => process.exit(3), 10)'],
      onStderrLine: (l) => {
        const m = /^child (\d+)$/.exec(l);
        if (m) child = Number(m[1]);
      },
    });
    const exit = await p.exited;
    assert.equal(exit.code, 3);
    assert.ok(child > 0);
    await until(() => !isRunning(child), 'the processes to be gone', 60_000);
    await until(() => groupMembers(p.pid!).length === 0, 'the processes to be gone', 60_000);
    p.dispose();
  });

  it('ends an agent that ignores stdin closing, and its child, when its host is killed', { timeout: 20_000 }, async () => {
    const pids = await startHost();
    assert.ok(isRunning(pids.agent) && isRunning(pids.child));
    process.kill(pids.host, 'SIGKILL');
    await until(() => !isRunning(pids.agent) && !isRunning(pids.child), 'the processes to be gone', 60_000);
    await until(() => groupMembers(pids.group).length === 0, 'the processes to be gone', 60_000);
  });

  it("ends an agent that ignores SIGTERM too, when the host's whole process group is killed (server stopped)", { timeout: 20_000 }, async () => {
    const pids = await startHost(['--ignore-term']);
    process.kill(-pids.host, 'SIGKILL');
    await until(() => !isRunning(pids.agent) && !isRunning(pids.child), 'the processes to be gone', 60_000);
    await until(() => groupMembers(pids.group).length === 0, 'the processes to be gone', 60_000);
  });

  it('says a missing agent command was not found, and which setting to fix', { timeout: 20_000 }, async () => {
    await assert.rejects(
      spawnAgent({
        agent: { id: 'ghost', name: 'Ghost', command: 'no-such-agent-cmd-4242', args: [], env: {} },
        cwd: process.cwd(),
        handlers: { requestPermission: () => new Promise(() => undefined) },
        protocolVersion: 1,
        tap: () => undefined,
        log: () => undefined,
        onInvalidLine: () => undefined,
        onStderr: () => undefined,
      }),
      (e: unknown) =>
        e instanceof Error &&
        /command not found: no-such-agent-cmd-4242 \(ENOENT\)/.test(e.message) &&
        /acpChat\.agents/.test(e.message) &&
        !/output stream is closed/.test(e.message),
    );
  });
});
