// Issue 38 item 7: the agent pickers say what a user can act on: Select Agent names each agent's program
// (not its command line) and offers Add Agent…; Add Agent's offline reason is in words; a chat nobody wrote
// in is replaced when another agent is chosen there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADD_AGENT_ROW, addAgentPlaceholder, fetchFailureText, isUnusedChat, programName, selectAgentRows } from '../../src/common/agents/agentChoice';
import { demoAgent } from '../../src/common/config/settings';

const claude = {
  id: 'claude',
  name: 'Claude Code',
  command: '/home/ann/.nvm/versions/node/v22.1.0/bin/npx',
  args: ['-y', '@zed-industries/claude-code-acp@0.5.1', '--verbose'],
  env: {},
};
const gemini = { id: 'gemini', name: 'Gemini CLI', command: 'C:\\Tools\\gemini.exe', args: ['--experimental-acp'], env: {} };

test('Select Agent: each agent by name and program, the active one marked, then Add Agent…', () => {
  assert.equal(programName(claude), 'npx @zed-industries/claude-code-acp@0.5.1');
  assert.equal(programName(gemini), 'gemini.exe');
  const rows = selectAgentRows([demoAgent('/usr/bin/node', '/ext/dist/demo-agent.js'), claude, gemini], 'claude');
  assert.deepEqual(
    rows.map((r) => r.label),
    ['Demo agent', 'Claude Code', 'Gemini CLI', '', 'Add Agent…'],
  );
  assert.deepEqual(
    rows.map((r) => r.description ?? ''),
    ['', 'active', '', '', ''],
  );
  assert.match(rows[0]?.detail ?? '', /^built in/);
  for (const r of rows) assert.doesNotMatch(r.detail ?? '', /--verbose|\/home\/|demo-agent\.js|-y /, 'no command lines');
  assert.equal(rows[3]?.separator, true);
  assert.equal(rows.at(-1)?.id, ADD_AGENT_ROW);
});

test('Add Agent offline: why the registry was not fetched, in words; a short placeholder', () => {
  const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  assert.equal(fetchFailureText(refused), 'the server refused the connection');
  assert.match(fetchFailureText(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } })), /^no network connection/);
  assert.equal(fetchFailureText(new TypeError('fetch failed')), 'no network connection, or the server did not answer');
  assert.equal(fetchFailureText(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })), 'the server did not answer in time');
  assert.equal(fetchFailureText(new Error('HTTP 500 Internal Server Error')), 'HTTP 500 Internal Server Error', 'other reasons are kept');
  for (const offline of [true, false]) assert.ok(addAgentPlaceholder(offline).length <= 60 && !/https?:/.test(addAgentPlaceholder(offline)));
});

test('a chat nobody wrote in is unused; one entry anywhere makes it used', () => {
  assert.equal(isUnusedChat([]), true);
  assert.equal(isUnusedChat([{ entries: [] }]), true);
  assert.equal(isUnusedChat([{ entries: [] }, { entries: [{}] }]), false);
});
