// Issue 9 §1.1, as Gemini CLI replays (seen in the real-panel stage): it answers session/load after the
// first replayed chunk and streams the rest of the history afterwards, and it replays a turn's tool calls
// together, ahead of the messages that came between them live. Nothing may come back twice and no tool
// call may lose its title, locations or diff.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { chunk, connected, ok, req, update } from './helpers';

const diff = { type: 'diff', path: '/ws/notes.txt', oldText: 'hello\n', newText: 'hello\nupdated\n' };

function liveTurn() {
  const store = connected();
  store.ingest('client->agent', req(2, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Read notes.txt, then update it.' }] }));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', '**Inspecting** the file first'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', "I'll start by reading notes.txt."));
  store.ingest(
    'agent->client',
    update('s', { sessionUpdate: 'tool_call', toolCallId: 'read_1', title: 'notes.txt', kind: 'read', status: 'completed', locations: [{ path: '/ws/notes.txt' }] }),
  );
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', "Now I'll edit the file."));
  store.ingest(
    'agent->client',
    update('s', { sessionUpdate: 'tool_call', toolCallId: 'edit_1', title: 'notes.txt: hello => hello', kind: 'edit', status: 'completed', content: [diff] }),
  );
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Let me run a shell command.'));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'sh_1', title: 'cat notes.txt && echo ok', kind: 'execute', status: 'completed' }));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', '**Summarizing**'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Done! I read, edited and ran.'));
  store.ingest('agent->client', ok(2, { stopReason: 'end_turn' }));
  return store;
}

test('a replay streamed after the session/load response, tool calls grouped, matches the shown entries', () => {
  const store = liveTurn();
  const before = store.session('s')?.entries ?? [];
  assert.equal(before.length, 10);
  store.ingest('client->agent', req(3, AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', ok(3, {}));
  // Everything below arrives after the response, in Gemini CLI's order.
  store.ingest('agent->client', chunk('s', 'user_message_chunk', 'Read notes.txt, then update it.'));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', '**Inspecting** the file first'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', "I'll start by reading notes.txt."));
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'read_1', title: 'ReadFile', kind: 'read', status: 'completed', content: [] }));
  store.ingest(
    'agent->client',
    update('s', { sessionUpdate: 'tool_call', toolCallId: 'edit_1', title: 'Edit', kind: 'edit', status: 'completed', content: [{ ...diff, path: 'notes.txt' }] }),
  );
  store.ingest('agent->client', update('s', { sessionUpdate: 'tool_call', toolCallId: 'sh_1', title: 'Shell', kind: 'execute', status: 'completed', content: [] }));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', "Now I'll edit the file."));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Let me run a shell command.'));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', '**Summarizing**'));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Done! I read, edited and ran.'));
  const after = store.session('s')?.entries ?? [];
  assert.deepEqual(
    after.map((e) => e.key),
    before.map((e) => e.key),
    'nothing appended',
  );
  const tools = after.filter((e) => e.kind === 'tool_call');
  assert.deepEqual(
    tools.map((t) => t.title),
    ['notes.txt', 'notes.txt: hello => hello', 'cat notes.txt && echo ok'],
  );
  assert.deepEqual(tools[0]?.locations, [{ path: '/ws/notes.txt' }]);
  assert.deepEqual(tools[1]?.content, [diff]);
  // The next prompt ends the replay: its reply is a new, live entry.
  store.ingest('client->agent', req(4, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'again' }] }));
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Done! I read, edited and ran.'));
  const last = store.session('s')?.entries ?? [];
  assert.equal(last.length, 12);
  assert.equal(last[11]?.provenance, 'live');
});

test('a failed session/load ends the replay window at once', () => {
  const store = liveTurn();
  store.ingest('client->agent', req(3, AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'No previous sessions found' } });
  store.ingest('agent->client', chunk('s', 'agent_message_chunk', 'Done! I read, edited and ran.'));
  const e = store.session('s')?.entries ?? [];
  assert.equal(e.length, 11);
  assert.equal(e[10]?.provenance, 'live');
});

test("a replay counts its lines on the entries it matches but keeps their live span (a thought's duration)", () => {
  let clock = 1000;
  const store = connected(1, { now: () => clock });
  store.ingest('client->agent', req(2, AgentMethods.sessionPrompt, { sessionId: 's', prompt: [{ type: 'text', text: 'Think.' }] }));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'first '));
  clock = 4000;
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'second'));
  store.ingest('agent->client', ok(2, { stopReason: 'end_turn' }));
  const live = store.session('s')?.entries.find((e) => e.kind === 'agent_thought')?.stats;
  assert.deepEqual([live?.firstSeen, live?.lastSeen], [1000, 4000]);
  clock = 900_000; // the window reloads a quarter of an hour later
  store.ingest('client->agent', req(3, AgentMethods.sessionLoad, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', chunk('s', 'user_message_chunk', 'Think.'));
  store.ingest('agent->client', chunk('s', 'agent_thought_chunk', 'first second'));
  store.ingest('agent->client', ok(3, {}));
  const thoughts = store.session('s')?.entries.filter((e) => e.kind === 'agent_thought') ?? [];
  assert.equal(thoughts.length, 1, 'the replay matched the thought');
  assert.deepEqual([thoughts[0]?.stats.firstSeen, thoughts[0]?.stats.lastSeen], [1000, 4000]);
  assert.ok((thoughts[0]?.stats.chunks ?? 0) > (live?.chunks ?? 0), 'the replayed chunk is still counted');
});
