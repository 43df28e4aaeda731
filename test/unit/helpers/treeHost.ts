/**
 * A stand-in for the CLI or the extension host in the process-tree tests: starts an agent and a
 * terminal that each leave a background child and a detached (setsid) grandchild, prints their pids as
 * one JSON line once all four run, and waits to be killed.
 *   node --import tsx test/unit/helpers/treeHost.ts
 */
import { tmpdir } from 'node:os';
import { AgentProcess } from '../../../src/node/agentProcess';
import { NodeTerminalHost } from '../../../src/node/terminals';

/** Starts `sleep 300` twice (one detached into its own session), prints both pids, keeps running or exits. */
export const LEAVE_CHILDREN = (exitAfter: boolean) => `
  const { spawn } = require('child_process');
  const bg = spawn('sleep', ['300'], { stdio: 'ignore' });
  const detached = spawn('sleep', ['301'], { stdio: 'ignore', detached: true });
  detached.unref();
  console.log('pids ' + bg.pid + ' ' + detached.pid);
  console.error('pids ' + bg.pid + ' ' + detached.pid);
  ${exitAfter ? 'bg.unref(); process.exit(0);' : 'process.stdin.resume(); setInterval(() => {}, 1000);'}
`;

export function pidsIn(text: string): number[] | undefined {
  const m = /pids (\d+) (\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

if (require.main === module) {
  const found: number[] = [];
  const report = () => {
    if (found.length === 4) process.stdout.write(JSON.stringify(found) + '\n');
  };
  const agent = new AgentProcess({
    command: process.execPath,
    args: ['-e', LEAVE_CHILDREN(false)],
    graceMs: 300,
    onStderrLine: (line) => {
      const p = pidsIn(line);
      if (p) found.push(...p);
      report();
    },
  });
  const terminals = new NodeTerminalHost({
    defaultCwd: tmpdir(),
    onOutput: (_id, text) => {
      const p = pidsIn(text);
      if (p) found.push(...p);
      report();
    },
  });
  void terminals.create({ sessionId: 's', command: process.execPath, args: ['-e', LEAVE_CHILDREN(true)] });
  void agent;
  setInterval(() => undefined, 1000);
}
