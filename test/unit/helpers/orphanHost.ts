/**
 * A stand-in for the extension host in the orphan tests: starts one agent through AgentProcess and
 * prints `{"group", "agent", "child"}` (pids) on stdout once the agent has started its own child.
 * The test then kills this process (or its whole group) and checks that nothing it started survives.
 *   node --import tsx test/unit/helpers/orphanHost.ts [--ignore-term]
 */
import { AgentProcess } from '../../../src/node/agentProcess';

const ignoreTerm = process.argv.includes('--ignore-term');
// The agent ignores stdin closing (like adapters that keep running) and spawns a long `sleep`.
const script = `
  ${ignoreTerm ? 'process.on("SIGTERM", () => {});' : ''}
  process.stdin.resume();
  process.stdin.on('end', () => {});
  const c = require('child_process').spawn('sleep', ['300'], { stdio: 'ignore' });
  console.error('child ' + c.pid);
  setInterval(() => {}, 1000);
`;
const p = new AgentProcess({
  command: process.execPath,
  args: ['-e', script],
  graceMs: 300,
  onStderrLine: (line) => {
    const m = /^child (\d+)$/.exec(line);
    if (m) process.stdout.write(JSON.stringify({ group: p.pid, agent: p.agentPid, child: Number(m[1]) }) + '\n');
  },
});
setInterval(() => undefined, 1000);
