import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcpClient } from '../../src/node/acp/client';
import { AcpClosedError } from '../../src/node/acp/errors';
import { AgentProcess } from '../../src/node/agentProcess';
import { groupMembers } from './helpers/procs';
import { until } from '../helpers/until.mjs';

const node = process.execPath;

describe('AgentProcess', () => {
  it('keeps the last stderr lines and reports the exit code', async () => {
    const lines: string[] = [];
    const p = new AgentProcess({
      command: node,
      args: ['-e', 'for (let i = 0; i < 30; i++) console.error("line " + i); process.stderr.write("tail"); process.exit(5)'],
      stderrLines: 3,
      onStderrLine: (l) => lines.push(l),
    });
    const exit = await p.exited;
    assert.equal(exit.code, 5);
    assert.deepEqual(p.stderrTail, ['line 28', 'line 29', 'tail']);
    assert.equal(lines.length, 31);
    assert.match(p.describe() ?? '', /exited with code 5.*line 29 \| tail/);
    p.dispose();
  });

  it('reports a command that cannot start', async () => {
    const p = new AgentProcess({ command: '/nonexistent/agent-binary' });
    const exit = await p.exited;
    assert.match(exit.error ?? '', /ENOENT/);
    assert.match(p.describe() ?? '', /could not start/);
    p.dispose();
  });

  it('dispose kills the whole process group, once', async () => {
    // The "agent" starts a grandchild and ignores SIGTERM, so only the group SIGKILL ends it.
    const p = new AgentProcess({
      command: node,
      args: ['-e', 'process.on("SIGTERM", () => {}); require("child_process").spawn("sleep", ["30"], { stdio: "inherit" }); console.error("ready"); setInterval(() => {}, 1000)'],
    });
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (p.stderrTail.includes('ready')) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    let exits = 0;
    p.onExit(() => exits++);
    p.dispose(100);
    p.dispose(100);
    const exit = await p.exited;
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(exits, 1);
    // The grandchild was in the same group: nothing in the group is left.
    await until(() => groupMembers(p.pid!).length === 0, 'the processes to be gone', 60_000);
  });

  it('fails a pending request with the exit status and stderr when the agent dies mid-turn', async () => {
    const script = `
      process.stdin.on('data', (d) => {
        for (const line of d.toString().split('\\n').filter(Boolean)) {
          const m = JSON.parse(line);
          if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 1 } }) + '\\n');
          if (m.method === 'session/prompt') { console.error('boom: out of memory'); process.exit(9); }
        }
      });`;
    const p = new AgentProcess({ command: node, args: ['-e', script] });
    const client = new AcpClient({
      input: p.stdout,
      output: p.stdin,
      clientInfo: { name: 't', version: '0' },
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      describeClose: () => p.describe(),
      closeSettled: () => p.exited,
    });
    await client.initialize();
    await assert.rejects(
      client.prompt('s', [{ type: 'text', text: 'x' }]),
      (e: unknown) => e instanceof AcpClosedError && /session\/prompt/.test(e.message) && /code 9/.test(e.message) && /boom: out of memory/.test(e.message),
    );
    client.dispose();
    p.dispose();
  });
});
