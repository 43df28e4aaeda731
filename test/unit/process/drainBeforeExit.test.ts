/**
 * An agent's exit is judged only after its stdout was read to the end: the last messages it wrote just
 * before exiting (a turn's end) reach the client first, although the exit is often reported before they
 * are read. A pipe that never ends (a grandchild holding it) holds the exit back only up to a cap.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { linkProcess, spawnAgent, type ConnectOptions, type LinkableProcess } from '../../../src/node/acp/agentLink';
import type { AgentExit } from '../../../src/node/agentProcess';

const LINES = 50;
const update = (i: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: String(i) } } },
  }) + '\n';

function options(seen: { n: number }): ConnectOptions {
  return {
    agent: { id: 'a', name: 'A', command: 'unused', args: [], env: {} },
    cwd: process.cwd(),
    handlers: { requestPermission: () => new Promise(() => undefined) },
    protocolVersion: 1,
    tap: (dir) => {
      if (dir === 'agent->client') seen.n++;
    },
    log: () => undefined,
    onInvalidLine: () => undefined,
    onStderr: () => undefined,
  };
}

/** A process whose exit the test reports by hand, before or after its output. */
function standIn(): LinkableProcess & { exit(e: AgentExit): void; out: PassThrough } {
  const out = new PassThrough();
  const listeners: ((e: AgentExit) => void)[] = [];
  return {
    out,
    stdout: out,
    stdin: new PassThrough(),
    stderrTail: [],
    onExit: (l) => listeners.push(l),
    exit: (e) => listeners.forEach((l) => l(e)),
    describe: () => undefined,
    dispose: () => undefined,
  };
}

describe('agent exit after stdout', () => {
  it('fires the exit only after the output the agent left in the pipe is read: no line is lost', async () => {
    const seen = { n: 0 };
    const proc = standIn();
    const link = linkProcess(proc, options(seen));
    let atExit: number | undefined;
    link.onExit(() => (atExit = seen.n));
    // The exit is reported first; the pipe still holds the agent's last lines.
    proc.exit({ code: 1, signal: null });
    assert.equal(atExit, undefined, 'the exit waits for the output');
    for (let i = 0; i < LINES; i++) proc.out.write(update(i));
    proc.out.end();
    await new Promise<void>((resolve) => link.onExit(() => resolve()));
    assert.equal(atExit, LINES);
    link.dispose();
  });

  it('answers a request whose response was in the pipe when the exit was reported', async () => {
    const proc = standIn();
    const link = linkProcess(proc, options({ n: 0 }));
    const exited = new Promise<string>((resolve) => link.onExit(resolve));
    const answered = link.client.initialize();
    const sent = await new Promise<{ id: number }>((resolve) => proc.stdin.once('data', (b: Buffer) => resolve(JSON.parse(b.toString('utf8')) as { id: number })));
    proc.exit({ code: 0, signal: null });
    proc.out.end(JSON.stringify({ jsonrpc: '2.0', id: sent.id, result: { protocolVersion: 1, agentCapabilities: {} } }) + '\n');
    assert.equal((await answered).protocolVersion, 1);
    assert.match(await exited, /exited with code 0/);
    link.dispose();
  });

  it('fires the exit after the cap when the pipe never ends (a grandchild holds it)', async () => {
    const proc = standIn();
    const link = linkProcess(proc, options({ n: 0 }), 20);
    const exited = new Promise<string>((resolve) => link.onExit(resolve));
    proc.exit({ code: null, signal: 'SIGKILL' });
    assert.match(await exited, /killed by SIGKILL/);
    assert.ok(link.client.isClosed);
    link.dispose();
  });

  it('an agent that closed its connection but lives on is stopped after the cap, and its exit fires', async () => {
    const proc = standIn();
    let stopped = false;
    proc.dispose = () => (stopped = true);
    const link = linkProcess(proc, options({ n: 0 }), 20);
    const exited = new Promise<string>((resolve) => link.onExit(resolve));
    proc.out.end();
    assert.match(await exited, /closed its connection/);
    assert.ok(stopped, 'the process is stopped');
    link.dispose();
  });

  it('a real agent process: the exit comes with every line it wrote', { timeout: 20_000 }, async () => {
    const seen = { n: 0 };
    const script = `let o = ''; for (let i = 0; i < ${LINES}; i++) o += ${JSON.stringify(update(0))}; process.stdout.write(o, () => process.exit(3));`;
    const link = await spawnAgent({ ...options(seen), agent: { id: 'burst', name: 'Burst', command: process.execPath, args: ['-e', script], env: {} } });
    const atExit = await new Promise<number>((resolve) => link.onExit(() => resolve(seen.n)));
    link.dispose();
    assert.equal(atExit, LINES);
  });
});
