/** Bounded output: a budget across all terminals of a host, and an agent's stderr kept as a bounded tail. */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { MAX_LINE_CHARS, MAX_QUOTE_CHARS, StderrTail } from '../../../src/node/process/stderrTail';
import { NodeTerminalHost } from '../../../src/node/terminals';

const never = new AbortController().signal;

describe('output bounds', () => {
  it('all terminals of a host share one output budget, given back on release', { timeout: 30_000 }, async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir(), maxOutputBytes: 64, totalOutputBytes: 100 });
    const print = ['-e', 'process.stdout.write("x".repeat(200))'];
    const run = async () => {
      const { terminalId } = await host.create({ sessionId: 's', command: process.execPath, args: print, outputByteLimit: 1000 });
      await host.waitForExit({ sessionId: 's', terminalId }, never);
      return { terminalId, kept: (await host.output({ sessionId: 's', terminalId })).output.length };
    };
    const a = await run();
    assert.equal(a.kept, 64);
    const b = await run();
    assert.equal(b.kept, 36, 'the second terminal gets what is left of the budget');
    await assert.rejects(host.create({ sessionId: 's', command: process.execPath, args: print }), /too much terminal output is held: release terminals/);
    await host.release({ sessionId: 's', terminalId: a.terminalId });
    assert.equal((await run()).kept, 64);
    host.dispose();
  });

  it('a progress bar that never writes a newline is kept as its newest part, and its last state is the line', () => {
    const lines: string[] = [];
    const tail = new StderrTail(3, (l) => lines.push(l));
    const frame = (i: number) => `\r[${'#'.repeat(i % 50).padEnd(50)}] ${i}%`;
    let biggest = 0;
    for (let i = 0; i < 200_000; i++) {
      tail.push(frame(i));
      biggest = Math.max(biggest, (tail as unknown as { partial: string }).partial.length);
    }
    assert.ok(biggest <= MAX_LINE_CHARS, `held ${biggest} chars of an unfinished line`);
    tail.push(' done\n');
    assert.equal(lines.length, 1);
    assert.equal(lines[0], `[${'#'.repeat(199_999 % 50).padEnd(50)}] 199999% done`);
  });

  it('a huge line is cut to its newest part, and an error message quotes a bounded tail', () => {
    const tail = new StderrTail(20, () => undefined);
    tail.push('x'.repeat(5_000_000));
    tail.push('y'.repeat(10) + '\nshort\r\n');
    tail.push('z'.repeat(MAX_LINE_CHARS * 3));
    tail.end();
    assert.equal(tail.lines.length, 3);
    assert.equal(tail.lines[0], `…${'x'.repeat(MAX_LINE_CHARS - 10)}${'y'.repeat(10)}`);
    assert.equal(tail.lines[1], 'short');
    assert.equal(tail.lines[2]!.length, MAX_LINE_CHARS + 1);
    assert.ok(tail.quote(5).length <= MAX_QUOTE_CHARS + 1);
    assert.match(tail.quote(5), /z$/);
  });
});
