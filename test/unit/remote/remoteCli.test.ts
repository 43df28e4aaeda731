// `cli.js run --url` and `check --url`: the CLI reaches an agent over WebSocket and Streamable HTTP through
// the same transport as the extension; its token comes from ACP_CHAT_TOKEN and goes nowhere but the header
// (not the capture, not the output); a plain ws:// URL to another host is refused before anything connects.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseRunArgs, run } from '../../../src/node/cli/run';
import { check, parseCheckArgs } from '../../../src/node/cli/check';
import { TOKEN_ENV } from '../../../src/node/cli/remoteEndpoint';
import { startRemoteAgentServer } from '../helpers/remoteAgentServer';

const dir = mkdtempSync(path.join(tmpdir(), 'cli-remote-'));
writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');

describe('cli over the network', async () => {
  const token = 'cli-tok-93b1-never-printed';
  const server = await startRemoteAgentServer({ token });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    delete process.env[TOKEN_ENV];
  });

  it('parses --url, and refuses it beside an agent command', () => {
    const o = parseRunArgs(['--prompt', 'a', '--url', 'wss://agents.example.com/acp']);
    assert.ok(typeof o !== 'string');
    assert.equal(o.url, 'wss://agents.example.com/acp');
    assert.match(String(parseRunArgs(['--prompt', 'a', '--url', 'wss://x', '--', 'agent'])), /not both/);
    assert.match(String(parseCheckArgs(['--url', 'wss://x', '--', 'agent'])), /one of them/);
  });

  for (const kind of ['ws', 'http'] as const) {
    it(`run --url (${kind}): a turn, with the token from ${TOKEN_ENV} in the header only`, async () => {
      process.env[TOKEN_ENV] = token;
      const capture = path.join(dir, `${kind}.jsonl`);
      const o = parseRunArgs(['--cwd', dir, '--capture', capture, '--grace', '0', '--prompt', 'hello', '--url', kind === 'ws' ? server.wsUrl() : server.httpUrl()]);
      assert.ok(typeof o !== 'string', String(o));
      let out = '';
      let err = '';
      const code = await run(
        o,
        (s) => (out += s),
        (s) => (err += s),
      );
      assert.equal(code, 0, err);
      assert.match(out, /\[stop\] end_turn/);
      const all = out + err + readFileSync(capture, 'utf8');
      assert.equal(all.includes(token), false, 'the token is nowhere but the header');
      assert.ok(server.authSeen.includes(`Bearer ${token}`));
    });
  }

  it('check --url runs the live conformance check over WebSocket', async () => {
    process.env[TOKEN_ENV] = token;
    const o = parseCheckArgs(['--url', server.wsUrl()]);
    assert.ok(typeof o !== 'string', String(o));
    let out = '';
    let err = '';
    const code = await check(
      o,
      (s) => (out += s),
      (s) => (err += s),
    );
    assert.match(out, /agent: .*\(protocol 1\)/, err);
    assert.equal(code, 0, out);
  });

  it('run --url refuses plain ws:// to another host before connecting', async () => {
    const o = parseRunArgs(['--cwd', dir, '--grace', '0', '--prompt', 'hello', '--url', 'ws://example.com/acp']);
    assert.ok(typeof o !== 'string');
    let err = '';
    const code = await run(
      o,
      () => undefined,
      (s) => (err += s),
    );
    assert.notEqual(code, 0);
    assert.match(err, /refused ws:\/\/example\.com: an unencrypted connection is only allowed to this machine/);
  });
});
