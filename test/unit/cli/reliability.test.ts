/**
 * Issue 11 through `cli.js run` with scripted hostile agents as real subprocesses: deep JSON no longer
 * kills the CLI (the turn ends, the text is kept, the capture is written), an oversized response fails
 * the turn at once, and a missing command says "command not found".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunArgs, run } from '../../../src/node/cli/run';
import type { RunOptions } from '../../../src/node/cli/run';

const ws = mkdtempSync(path.join(tmpdir(), 'cli-rel-'));
after(() => rmSync(ws, { recursive: true, force: true }));

function opts(agent: string[], over: Partial<RunOptions> = {}): RunOptions {
  const parsed = parseRunArgs(['--cwd', ws, '--prompt', 'go', '--timeout', '60', '--', ...agent]);
  assert.ok(typeof parsed !== 'string');
  return { ...parsed, graceMs: 0, ...over };
}

/** A minimal agent: answers initialize and session/new, and on session/prompt writes `onPrompt(id)` raw. */
function scripted(onPrompt: string): string[] {
  const script = `
    let buf = '';
    const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
    process.stdin.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: {} } });
        if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 's1' } });
        if (m.method === 'session/prompt') process.stdout.write((${onPrompt})(m.id));
      }
    });`;
  return [process.execPath, '-e', script];
}

async function drive(o: RunOptions): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(
    o,
    (s) => (out += s),
    (s) => (err += s),
  );
  return { code, out, err };
}

describe('cli run against hostile agents', () => {
  it('a 5,000-deep tool call in the same write as a chunk and the answer: the turn ends, the text is kept, the capture is written', async () => {
    const capture = path.join(ws, 'deep.jsonl');
    const onPrompt = `(id) => '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"deep","rawInput":' + '['.repeat(5000) + ']'.repeat(5000) + '}}}\\n' +
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'still here' } } } }) + '\\n' +
      JSON.stringify({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } }) + '\\n'`;
    const r = await drive(opts(scripted(onPrompt), { capture }));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /still here/);
    assert.match(r.out, /\[stop\] end_turn/);
    const records = readFileSync(capture, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { dir: string; msg: { text?: string; reason?: string } });
    assert.ok(
      records.some((x) => x.dir === 'note' && /nested deeper than 256 levels/.test(x.msg.reason ?? '')),
      'the refused line is noted in the capture',
    );
  });

  it('an oversized prompt response fails the turn at once with the reason', async () => {
    const onPrompt = `(id) => '{"jsonrpc":"2.0","id":' + id + ',"result":{"stopReason":"end_turn","_meta":{"pad":"' + 'x'.repeat(33 * 1024 * 1024) + '"}}}\\n'`;
    const r = await drive(opts(scripted(onPrompt)));
    assert.equal(r.code, 1);
    assert.match(r.err, /session\/prompt failed .*exceeds the limit of 33554432 bytes/);
  });

  it('a missing agent command is reported as not found', async () => {
    const r = await drive(opts(['no-such-agent-cmd-4242']));
    assert.equal(r.code, 1);
    assert.match(r.err, /command not found: no-such-agent-cmd-4242 \(ENOENT\)/);
    assert.doesNotMatch(r.err, /output stream is closed/);
  });
});
