// The demo agent's subagent step: only for a client that advertised `subagents`; the child's permission
// request and file write name the child's session; with "background" the child and the parent's own turn
// come after the prompt's response.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RequestPermissionParams, SessionNotification } from '../../../src/common/protocol/requests';
import { policyPermission } from '../../../src/node/acp/nodeHandlers';
import { SUBAGENT_REPORT, SUBAGENT_TITLE } from '../../../src/node/demoAgent/subagent';
import { demoPair } from '../helpers/demoPair';
import { until } from '../../helpers/until.mjs';

const ws = mkdtempSync(path.join(tmpdir(), 'demo-sub-'));
after(() => rmSync(ws, { recursive: true, force: true }));

function connect(subagents: boolean) {
  const asked: RequestPermissionParams[] = [];
  const written: string[] = [];
  const allow = policyPermission('all');
  const pair = demoPair({
    client: {
      subagents,
      handlers: { requestPermission: async (p) => (asked.push(p), allow(p)), writeTextFile: async (p) => void written.push(p.sessionId) },
    },
  });
  const updates: SessionNotification[] = [];
  pair.client.onSessionUpdate((n) => updates.push(n));
  return { ...pair, updates, asked, written };
}

const kinds = (updates: readonly SessionNotification[], sessionId: string) => updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);

describe('demo agent: subagent', () => {
  it('starts a child session whose permission request and write name the child; idle and a reply end it', async () => {
    const c = connect(true);
    await c.client.initialize();
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    assert.equal((await c.client.prompt(sessionId, [{ type: 'text', text: 'ask a subagent' }])).stopReason, 'end_turn');
    const announce = c.updates.find((u) => u.update.sessionUpdate === 'subagent_update');
    const child = announce?.update['sessionId'] as string;
    assert.equal(announce?.sessionId, sessionId);
    assert.equal(announce?.update['title'], SUBAGENT_TITLE);
    assert.deepEqual(
      c.asked.map((p) => p.sessionId),
      [child],
    );
    assert.deepEqual(c.written, [child]);
    assert.deepEqual(kinds(c.updates, child), ['session_message', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'tool_call_update', 'agent_message_chunk']);
    const states = c.updates.filter((u) => u.update.sessionUpdate === 'subagent_update').map((u) => (u.update['state'] as { state: string }).state);
    assert.deepEqual(states, ['running', 'idle']);
    const reply = c.updates.find((u) => u.update.sessionUpdate === 'session_message' && u.update['senderSessionId'] === child);
    assert.equal(reply?.sessionId, sessionId);
    c.dispose();
  });

  it('without the capability there is no subagent', async () => {
    const c = connect(false);
    await c.client.initialize();
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    await c.client.prompt(sessionId, [{ type: 'text', text: 'ask a subagent' }]);
    assert.equal(
      c.updates.some((u) => u.update.sessionUpdate === 'subagent_update' || u.sessionId !== sessionId),
      false,
    );
    c.dispose();
  });

  it('"background": the child outlives the turn, and the parent runs a turn of its own after the response', async () => {
    const c = connect(true);
    await c.client.initialize();
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    await c.client.prompt(sessionId, [{ type: 'text', text: 'ask a subagent in the background' }]);
    const atResponse = c.updates.length;
    await until(() => c.updates.slice(atResponse).some((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'usage_update'), "the parent's own turn after the response");
    const later = c.updates
      .slice(atResponse)
      .filter((u) => u.sessionId === sessionId)
      .map((u) => u.update.sessionUpdate);
    assert.deepEqual(later.slice(-3), ['agent_thought_chunk', 'agent_message_chunk', 'usage_update']);
    const text = c.updates.slice(atResponse).find((u) => u.update.sessionUpdate === 'agent_message_chunk' && u.sessionId === sessionId)?.update['content'] as { text: string };
    assert.match(text.text, new RegExp(SUBAGENT_REPORT.slice(0, 20)));
    c.dispose();
  });
});
