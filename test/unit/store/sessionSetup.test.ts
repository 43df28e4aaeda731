// What the client opened a session with (cwd, additional directories, system prompt, MCP servers) is kept
// by the store once the agent accepted it, replaced by a later load or resume, saved, and shown in the
// Message Tree's Session state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { groupChildren } from '../../../src/common/debug/treeModel';
import { err, ok, req } from './helpers';

const opened = {
  cwd: '/w/app',
  additionalDirectories: ['/w/lib'],
  systemPrompt: { mode: 'append', content: [{ type: 'text', text: 'Be brief.' }] },
  mcpServers: [{ name: 'files', command: 'x', args: [], env: [] }],
};

function store(): MessageStore {
  const s = new MessageStore();
  s.ingest('client->agent', req(0, AgentMethods.initialize, { protocolVersion: 1 }));
  s.ingest('agent->client', ok(0, { protocolVersion: 1 }));
  return s;
}

test('session/new: the setup is kept once the agent accepts it, shown in Session state, saved', () => {
  const s = store();
  s.ingest('client->agent', req(1, AgentMethods.sessionNew, opened));
  s.ingest('agent->client', ok(1, { sessionId: 's' }));
  assert.deepEqual(s.session('s')?.setup, { cwd: '/w/app', additionalDirectories: ['/w/lib'], systemPrompt: 'Be brief.', mcpServers: ['files'] });
  const rows = groupChildren(s.session('s')!, 'state', []).map((n) => (n.type === 'detail' ? `${n.label}: ${n.description}` : ''));
  assert.ok(rows.includes('working folder: /w/app'));
  assert.ok(rows.includes('additional directories: /w/lib'));
  assert.ok(rows.includes('system prompt: Be brief.'));
  assert.ok(rows.includes('MCP servers: files'));
  const back = MessageStore.fromJSON(JSON.parse(JSON.stringify(s.toJSON()))).store;
  assert.deepEqual(back.session('s')?.setup, s.session('s')?.setup);
});

test('a later resume replaces it; a refused one does not', () => {
  const s = store();
  s.ingest('client->agent', req(1, AgentMethods.sessionNew, opened));
  s.ingest('agent->client', ok(1, { sessionId: 's' }));
  s.ingest('client->agent', req(2, AgentMethods.sessionResume, { sessionId: 's', cwd: '/w/app', mcpServers: [] }));
  s.ingest('agent->client', err(2, -32602, 'no'));
  assert.deepEqual(s.session('s')?.setup?.additionalDirectories, ['/w/lib']);
  s.ingest('client->agent', req(3, AgentMethods.sessionResume, { sessionId: 's', cwd: '/w/app', additionalDirectories: ['/w/lib', '/w/docs'], mcpServers: [] }));
  s.ingest('agent->client', ok(3, {}));
  assert.deepEqual(s.session('s')?.setup, { cwd: '/w/app', additionalDirectories: ['/w/lib', '/w/docs'], systemPrompt: null, mcpServers: [] });
});
