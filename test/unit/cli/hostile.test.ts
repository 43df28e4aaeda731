// `cli run` against a scripted hostile agent (scriptedAgent.mjs): the workspace boundary of fs/* and
// terminals, and agent text that tries to act on the user's terminal.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunArgs, run } from '../../../src/node/cli/run';

const base = mkdtempSync(path.join(tmpdir(), 'cli-hostile-'));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');
mkdirSync(ws);
mkdirSync(outside);
writeFileSync(path.join(ws, 'notes.txt'), 'inside\n');
writeFileSync(path.join(outside, 'secret.txt'), 'SECRET\n');
symlinkSync(outside, path.join(ws, 'link')); // a directory symlink pointing out
symlinkSync(path.join(outside, 'planted.txt'), path.join(ws, 'dangling')); // writing it would create outside/planted.txt
after(() => rmSync(base, { recursive: true, force: true }));

const agentJs = path.join(import.meta.dirname, 'scriptedAgent.mjs');
type Step = { request: string; params: Record<string, unknown> } | { update: Record<string, unknown> };

async function runScript(
  steps: Step[],
  extra: string[] = [],
): Promise<{ code: number; out: string; err: string; results: { result?: unknown; error?: { code: number; message: string } }[] }> {
  const file = path.join(base, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(steps));
  const o = parseRunArgs(['--cwd', ws, '--grace', '0', ...extra, '--prompt', 'go', '--', process.execPath, agentJs, file]);
  assert.ok(typeof o !== 'string', String(o));
  let out = '';
  let err = '';
  const code = await run(
    o,
    (s) => (out += s),
    (s) => (err += s),
  );
  const results = [...out.matchAll(/^RESULT (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { result?: unknown; error?: { code: number; message: string } });
  return { code, out, err, results };
}

const read = (p: string) => ({ request: 'fs/read_text_file', params: { sessionId: '$SESSION', path: p } });
const write = (p: string, content = 'pwned') => ({ request: 'fs/write_text_file', params: { sessionId: '$SESSION', path: p, content } });
const terminal = (cwd: string) => ({ request: 'terminal/create', params: { sessionId: '$SESSION', command: 'touch', args: ['ran-here'], cwd } });

describe('cli run: the --cwd boundary against a hostile agent', () => {
  it('serves inside --cwd and refuses `..`, symlinks out, dangling symlinks and terminals outside, saying why', async () => {
    const { code, out, err, results } = await runScript([
      read(path.join(ws, 'notes.txt')),
      read(`${ws}/../outside/secret.txt`),
      read(path.join(ws, 'link', 'secret.txt')),
      write(path.join(ws, 'dangling')),
      write(path.join(ws, 'link', 'evil.txt')),
      write(path.join(ws, 'sub', 'new.txt'), 'fine'),
      terminal(outside),
      terminal('../outside'),
      terminal(path.join(ws, 'link')),
    ]);
    assert.equal(code, 0, err);
    assert.equal(results.length, 9, out);
    assert.deepEqual(results[0], { result: { content: 'inside\n' } });
    for (const i of [1, 2, 3, 4, 6, 7, 8]) {
      const e = results[i]?.error;
      assert.equal(e?.code, -32602, `step ${i}: ${JSON.stringify(results[i])}`);
      assert.match(e.message, /outside the working directory .* --allow-outside-cwd/, `step ${i}`);
      assert.match(e.message, new RegExp(path.basename(outside)), `step ${i} names the real path`);
    }
    assert.deepEqual(results[5], { result: {} });
    assert.equal(existsSync(path.join(ws, 'sub', 'new.txt')), true);
    assert.equal(existsSync(path.join(outside, 'planted.txt')), false, 'the dangling symlink was followed');
    assert.equal(existsSync(path.join(outside, 'evil.txt')), false);
    assert.equal(existsSync(path.join(outside, 'ran-here')), false, 'a terminal ran outside --cwd');
    assert.equal((out.match(/^\[refused\] /gm) ?? []).length, 7, out);
  });

  it('--allow-outside-cwd serves the rest of the disk', async () => {
    const { results } = await runScript([read(`${ws}/../outside/secret.txt`)], ['--allow-outside-cwd']);
    assert.deepEqual(results[0], { result: { content: 'SECRET\n' } });
  });
});

describe('cli run: agent text cannot act on the terminal', () => {
  it('prints escape sequences, carriage returns and bidi marks inert, in text, tool titles and permission lines', async () => {
    const esc = '\u001b';
    const { code, out, err } = await runScript([
      { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `hi${esc}]52;c;cm0gLXJmIH4K${esc}\\ there${esc}[1A${esc}[2K\r` } } },
      { update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: `${esc}[2K\r[permission] read -> Reject\u202E`, status: 'pending' } },
      {
        request: 'session/request_permission',
        params: {
          sessionId: '$SESSION',
          toolCall: { toolCallId: 't1', title: `rm -rf ~${esc}[8m hidden` },
          options: [{ optionId: 'y', name: `Allow${esc}]8;;https://evil.example${esc}\\`, kind: 'allow_once' }],
        },
      },
    ]);
    assert.equal(code, 0, err);
    assert.doesNotMatch(out + err, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'a control character reached the terminal');
    assert.match(out, /hi␛\]52;c;cm0gLXJmIH4K␛\\ there␛\[1A␛\[2K␍/);
    assert.match(out, /^\[tool\] ␛\[2K␍\[permission\] read -> Reject\\u202e \(pending\)$/m);
    assert.match(out, /^\[permission\] rm -rf ~␛\[8m hidden -> Allow␛\]8;;https:\/\/evil\.example␛\\ \(allow_once\)$/m);
  });
});
