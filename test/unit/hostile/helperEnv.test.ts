/**
 * Issue 39 class 5: a terminal's `env` is the command's, never our helpers'. The process watchdog (a Node
 * process of ours) starts with our environment; the agent's NODE_OPTIONS must not run code inside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeTerminalHost } from '../../../src/node/terminals';

test('NODE_OPTIONS from a terminal request reaches the command, not the watchdog', { skip: process.platform === 'win32' }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-env-'));
  try {
    const marks = path.join(dir, 'ran.txt');
    const evil = path.join(dir, 'evil.cjs');
    writeFileSync(evil, `require('fs').appendFileSync(${JSON.stringify(marks)}, JSON.stringify(process.argv) + '\\n');\n`);
    const host = new NodeTerminalHost({ defaultCwd: dir });
    const env = [
      { name: 'NODE_OPTIONS', value: `--require ${evil}` },
      { name: 'FOO', value: 'bar' },
    ];
    // The command itself is Node: the agent may run its own code in its own command.
    const { terminalId } = await host.create({
      sessionId: 's',
      command: process.execPath,
      args: ['-e', 'process.stdout.write(process.env.FOO + "|" + Object.keys(process.env).filter((k) => k.startsWith("ACP_CHAT_CMD_ENV")).length)'],
      env,
    });
    const exit = await host.waitForExit({ sessionId: 's', terminalId }, new AbortController().signal);
    assert.deepEqual(exit, { exitCode: 0, signal: null });
    assert.equal((await host.output({ sessionId: 's', terminalId })).output, 'bar|0', 'the command has the agent env, and none of the hand-over variables');
    assert.ok(existsSync(marks), 'the command ran the required file');
    const ran = readFileSync(marks, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    assert.equal(ran.length, 1, `only the command ran it, not our watchdog: ${JSON.stringify(ran)}`);
    assert.ok(!ran.some((argv) => argv.some((a) => a.includes('treeToken'))));
    host.dispose?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
