// `cli run` end to end against a scripted agent that delegates to a subagent: the real client delivers the
// child's updates, the run attaches its session, and a session nobody announced is not printed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { parseRunArgs, run } from '../../../src/node/cli/run';

const dir = mkdtempSync(path.join(tmpdir(), 'cli-run-sub-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const agentJs = path.join(import.meta.dirname, 'scriptedAgent.mjs');

it('cli run prints a subagent indented under the session, its messages and state, and not an unknown session', async () => {
  const chunk = (t: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
  const steps = [
    { update: chunk('Delegating.') },
    { update: { sessionUpdate: 'subagent_update', sessionId: 'kid', title: 'Read notes.txt', description: 'general-purpose', state: { state: 'running' } } },
    { update: { sessionUpdate: 'session_message', messageId: 'p', senderSessionId: '$SESSION', recipientSessionId: 'kid', content: [{ type: 'text', text: 'read it' }] } },
    { update: chunk('Reading.'), session: 'kid' },
    { update: chunk('INJECTED'), session: 'stranger' },
    { update: { sessionUpdate: 'subagent_update', sessionId: 'kid', state: { state: 'idle', stopReason: 'end_turn' } } },
    { update: { sessionUpdate: 'session_message', messageId: 'p:reply', senderSessionId: 'kid', recipientSessionId: '$SESSION', content: [{ type: 'text', text: 'hello' }] } },
  ];
  const file = path.join(dir, 'script.json');
  writeFileSync(file, JSON.stringify(steps));
  const captured = path.join(dir, 'run.jsonl');
  const o = parseRunArgs(['--cwd', dir, '--grace', '0', '--capture', captured, '--prompt', 'go', '--', process.execPath, agentJs, file]);
  assert.ok(typeof o !== 'string', String(o));
  let out = '';
  let err = '';
  const code = await run(
    o,
    (s) => (out += s),
    (s) => (err += s),
  );
  assert.equal(code, 0, err);
  const turn = out.slice(out.indexOf('[user] go'));
  assert.equal(
    turn,
    [
      '[user] go',
      'Delegating.',
      '[subagent] Read notes.txt (general-purpose) started',
      '[to subagent Read notes.txt] read it',
      '  Reading.',
      '[subagent] Read notes.txt: done',
      '[from subagent Read notes.txt] hello',
      '[stop] end_turn',
      '',
    ].join('\n'),
  );
  // The stranger's update is refused before the printer (the client delivers updates of known sessions only).
  assert.doesNotMatch(out, /INJECTED/);
  // It advertises what it shows: subagents as sessions of their own.
  const init = readFileSync(captured, 'utf8')
    .split('\n')
    .map((l) => (l ? (JSON.parse(l) as { msg?: { method?: string; params?: { clientCapabilities?: Record<string, unknown> } } }) : {}))
    .find((r) => r.msg?.method === 'initialize');
  assert.deepEqual(init?.msg?.params?.clientCapabilities?.['subagents'], {});
});
