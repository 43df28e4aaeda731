import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { MAX_OUTPUT_BYTES, NodeTerminalHost, OutputTail, trimUtf8Start } from '../../src/node/terminals';

const signal = new AbortController().signal;
const sid = 's';

describe('trimUtf8Start', () => {
  it('keeps at most the limit, starting on a character boundary', () => {
    const buf = Buffer.from('aé日🎉z'); // 1 + 2 + 3 + 4 + 1 bytes
    assert.equal(trimUtf8Start(buf, 100).toString(), 'aé日🎉z');
    assert.equal(trimUtf8Start(buf, 5).toString(), '🎉z');
    assert.equal(trimUtf8Start(buf, 4).toString(), 'z'); // cutting into 🎉 drops it whole
    assert.equal(trimUtf8Start(buf, 8).toString(), '日🎉z');
    assert.equal(trimUtf8Start(buf, 9).toString(), '日🎉z');
    for (let limit = 0; limit <= buf.length; limit++) {
      const kept = trimUtf8Start(buf, limit);
      assert.ok(kept.length <= limit);
      assert.ok(!kept.toString().includes('\uFFFD'));
    }
  });
});

describe('NodeTerminalHost', () => {
  it("tells output and exit with the session that created the terminal (a subagent's is its own)", async () => {
    const seen: string[] = [];
    const host = new NodeTerminalHost({
      defaultCwd: tmpdir(),
      onOutput: (_id, text, s) => void seen.push(`${s}: ${text.trim()}`),
      onExit: (_id, st, s) => void seen.push(`${s}: exit ${st.exitCode}`),
    });
    const { terminalId } = await host.create({ sessionId: 'child', command: 'echo', args: ['hi'] });
    await host.waitForExit({ sessionId: 'child', terminalId }, signal);
    assert.deepEqual(seen, ['child: hi', 'child: exit 0']);
  });

  it('runs a command with args, reports output and exit status', async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId } = await host.create({ sessionId: sid, command: 'echo', args: ['hello', 'world'], env: [{ name: 'X', value: '1' }] });
    const exit = await host.waitForExit({ sessionId: sid, terminalId }, signal);
    assert.deepEqual(exit, { exitCode: 0, signal: null });
    const out = await host.output({ sessionId: sid, terminalId });
    assert.equal(out.output, 'hello world\n');
    assert.equal(out.truncated, false);
    assert.deepEqual(out.exitStatus, { exitCode: 0, signal: null });
    await host.release({ sessionId: sid, terminalId });
    await assert.rejects(host.output({ sessionId: sid, terminalId }), /unknown terminal/);
  });

  it('runs a whole command line through the shell when there are no args, with env and exit code', async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId } = await host.create({ sessionId: sid, command: 'echo "$FOO" && exit 3', env: [{ name: 'FOO', value: 'bar' }] });
    assert.deepEqual(await host.waitForExit({ sessionId: sid, terminalId }, signal), { exitCode: 3, signal: null });
    assert.equal((await host.output({ sessionId: sid, terminalId })).output, 'bar\n');
  });

  it('trims output from the start to outputByteLimit', async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId } = await host.create({ sessionId: sid, command: 'printf', args: ['0123456789é'], outputByteLimit: 4 });
    await host.waitForExit({ sessionId: sid, terminalId }, signal);
    const out = await host.output({ sessionId: sid, terminalId });
    assert.equal(out.output, '89é');
    assert.equal(out.truncated, true);
  });

  it('kill stops the process but keeps the id valid; release forgets it', async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId } = await host.create({ sessionId: sid, command: 'sleep', args: ['30'] });
    const before = await host.output({ sessionId: sid, terminalId });
    assert.equal(before.exitStatus, undefined);
    await host.kill({ sessionId: sid, terminalId });
    const exit = await host.waitForExit({ sessionId: sid, terminalId }, signal);
    assert.equal(exit.signal, 'SIGKILL');
    assert.deepEqual((await host.output({ sessionId: sid, terminalId })).exitStatus, exit);
    await host.release({ sessionId: sid, terminalId });
    await assert.rejects(host.kill({ sessionId: sid, terminalId }), /unknown terminal/);
  });

  it('reports a command that cannot start as exit 127 with the error in the output', async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const { terminalId } = await host.create({ sessionId: sid, command: 'definitely-not-a-command-xyz', args: ['a'] });
    const exit = await host.waitForExit({ sessionId: sid, terminalId }, signal);
    assert.equal(exit.exitCode, 127);
    assert.match((await host.output({ sessionId: sid, terminalId })).output, /ENOENT/);
    host.dispose();
  });

  it("releaseSession kills only that session's terminals", async () => {
    const host = new NodeTerminalHost({ defaultCwd: tmpdir() });
    const a = await host.create({ sessionId: 'a', command: 'sleep', args: ['30'] });
    const b = await host.create({ sessionId: 'b', command: 'sleep', args: ['30'] });
    host.releaseSession('a');
    await assert.rejects(host.output({ sessionId: 'a', ...a }), /unknown terminal/);
    assert.equal((await host.output({ sessionId: 'b', ...b })).exitStatus, undefined);
    host.dispose();
  });
});

describe('OutputTail', () => {
  it('keeps the newest limit bytes at a character boundary, holding about the limit whatever flows through', () => {
    const tail = new OutputTail(1000);
    let all = '';
    let biggest = 0;
    for (let i = 0; i < 20_000; i++) {
      const piece = `${i}:é日🎉|`.repeat((i % 7) + 1);
      all += piece;
      biggest = Math.max(biggest, Buffer.byteLength(piece));
      tail.append(Buffer.from(piece));
      // Bounded: the limit plus at most one chunk, never the whole stream.
      assert.ok(tail.held <= 1000 + biggest, `held ${tail.held} after ${i} chunks`);
    }
    const { text, truncated } = tail.read();
    assert.equal(truncated, true);
    assert.ok(Buffer.byteLength(text) <= 1000 && Buffer.byteLength(text) > 990);
    assert.ok(all.endsWith(text), 'the kept text is the end of the stream');
    assert.ok(!text.includes('\uFFFD'));
    // Reading twice gives the same answer; appending after a read continues the stream.
    assert.deepEqual(tail.read(), { text, truncated: true });
    tail.append(Buffer.from('END'));
    assert.ok(tail.read().text.endsWith('|END'));
  });

  it('is exact under the limit, and trims one oversized chunk at once', () => {
    const small = new OutputTail(100);
    small.append(Buffer.from('ab'));
    small.append(Buffer.from('cd'));
    assert.deepEqual(small.read(), { text: 'abcd', truncated: false });
    const big = new OutputTail(10);
    big.append(Buffer.alloc(1_000_000, 'x'));
    assert.equal(big.held, 10);
    assert.deepEqual(big.read(), { text: 'x'.repeat(10), truncated: true });
    const none = new OutputTail(0);
    none.append(Buffer.from('abc'));
    assert.deepEqual(none.read(), { text: '', truncated: true });
  });
});

describe('NodeTerminalHost limits and working directory', () => {
  it("caps an agent's huge outputByteLimit at the client maximum", async () => {
    assert.ok(MAX_OUTPUT_BYTES >= 1024 * 1024);
    const host = new NodeTerminalHost({ defaultCwd: tmpdir(), maxOutputBytes: 64 });
    const { terminalId } = await host.create({ sessionId: sid, command: 'head', args: ['-c', '100000', '/dev/zero'], outputByteLimit: 1e12 });
    await host.waitForExit({ sessionId: sid, terminalId }, signal);
    const out = await host.output({ sessionId: sid, terminalId });
    assert.equal(Buffer.byteLength(out.output), 64);
    assert.equal(out.truncated, true);
  });

  it('resolves a relative cwd against the default one and asks admitCwd before starting anything', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'term-cwd-')));
    try {
      const asked: string[] = [];
      const host = new NodeTerminalHost({
        defaultCwd: path.join(root, 'ws'),
        admitCwd: async (cwd, sessionId) => {
          asked.push(`${sessionId} ${cwd}`);
          if (!cwd.startsWith(path.join(root, 'ws'))) throw new Error(`refused ${cwd}`);
        },
      });
      await assert.rejects(host.create({ sessionId: sid, command: 'touch', args: ['ran'], cwd: '../elsewhere' }), /refused .*elsewhere/);
      assert.deepEqual(asked, [`${sid} ${path.join(root, 'elsewhere')}`]);
      host.dispose();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
