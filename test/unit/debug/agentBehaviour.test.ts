import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AgentBehaviour, behaviourMarkdown } from '../../../src/common/debug/agentBehaviour';

const up = (update: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } });

test('observes ids per update kind, quirks and non-standard methods', () => {
  const b = new AgentBehaviour();
  b.observe('client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } });
  b.observe('agent->client', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } } });
  b.observe('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/', mcpServers: [] } });
  b.observe('agent->client', up({ sessionUpdate: 'available_commands_update', availableCommands: [] }));
  b.observe('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId: 's', modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }] } } });
  b.observe('client->agent', { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 's', prompt: [] } });
  b.observe('agent->client', up({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }));
  b.observe('agent->client', up({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' }, messageId: 'm' }));
  b.observe('agent->client', up({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'y' } }));
  b.observe('agent->client', { jsonrpc: '2.0', method: '_vendor/telemetry', params: {} });
  b.observe('agent->client', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } });
  b.observe('agent->client', up({ sessionUpdate: 'usage_update', used: 1, size: 2 }));
  const r = b.report();
  assert.deepEqual(r.updateKinds['agent_message_chunk'], { count: 1, withMessageId: 1 });
  assert.deepEqual(r.updateKinds['agent_thought_chunk'], { count: 1, withMessageId: 0 });
  assert.deepEqual(r.nonStandardMethods, ['← _vendor/telemetry']);
  assert.equal(r.updatesBeforeSessionResult, 1);
  assert.equal(r.updatesAfterPromptResult, 1);
  assert.equal(r.echoedPrompt, true);
  assert.deepEqual(r.sessions, [{ sessionId: 's', via: 'session/new', modes: ['a'], configOptions: [] }]);
  const md = behaviourMarkdown('Test', r);
  assert.match(md, /\| session\/load \| yes \|\s+\|/);
  assert.match(md, /\| session\/list \| no \| No history picker/);
  assert.match(md, /no `messageId` on user_message_chunk, agent_thought_chunk/);
});

test('real transcripts: only opencode sends messageId on agent text', () => {
  const dir = path.resolve(__dirname, '../../fixtures/transcripts');
  const ids: Record<string, number> = {};
  for (const name of ['claude', 'gemini', 'opencode', 'codex']) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, `${name}.jsonl`), 'utf8');
    } catch {
      return; // shared material not present beside the checkout
    }
    const b = new AgentBehaviour();
    for (const line of text.split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as { dir: string; msg: unknown };
      b.observe(r.dir, r.msg);
    }
    ids[name] = b.report().updateKinds['agent_message_chunk']?.withMessageId ?? 0;
    assert.ok(b.report().initialize, `${name}: initialize seen`);
  }
  assert.ok((ids['opencode'] ?? 0) > 0);
  assert.equal(ids['claude'], 0);
  assert.equal(ids['gemini'], 0);
});

test('a v2 initialize result is read through the v2 names (info, capabilities.session)', () => {
  const b = new AgentBehaviour();
  b.observe('client->agent', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2 } });
  b.observe('agent->client', {
    jsonrpc: '2.0',
    id: 0,
    result: { protocolVersion: 2, info: { name: 'demo', version: '1.0.0' }, capabilities: { session: { prompt: { embeddedContext: {} } } } },
  });
  const md = behaviourMarkdown('Demo', b.report());
  assert.match(md, /agent \{"name":"demo","version":"1.0.0"\}/);
  assert.doesNotMatch(md, /agent null/);
  assert.match(md, /\| session\/resume \| yes \|/);
  assert.match(md, /\| session\/list \| yes \|/);
  assert.match(md, /\| embedded context \| yes \|/);
  assert.match(md, /\| session\/load \| no \|/);
});
