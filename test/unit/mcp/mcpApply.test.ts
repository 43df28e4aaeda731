// How a chat's new MCP choice takes effect: a running session that can be resumed or loaded is reopened
// (restart) and the chat says so; otherwise (no session yet, an agent that can neither, a turn running)
// nothing is restarted and the chat says when the choice applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMcpChoice, type McpChat } from '../../../src/node/chat/mcpApply';
import type { Notice } from '../../../src/common/notices';
import type { AgentCapabilities } from '../../../src/common/protocol/requests';

function fakeChat(o: { caps?: AgentCapabilities; sessionId?: string | null; turn?: McpChat['turnState']; running?: boolean }) {
  const notices: Notice[] = [];
  let restarts = 0;
  const running = o.running !== false;
  const chat = {
    door: { running, facts: () => (running ? { capabilities: o.caps } : undefined) },
    sessionId: o.sessionId === undefined ? 'sess-1' : o.sessionId,
    turnState: o.turn ?? 'idle',
    agent: { id: 'x', name: 'Agent X', command: 'x', args: [], env: {} },
    notice: (n: Notice) => void notices.push(n),
    restart: async () => void restarts++,
  } as unknown as McpChat;
  return { chat, notices, restarts: () => restarts };
}

test('a running session the agent can resume is reopened with the choice, said in the chat', async () => {
  const f = fakeChat({ caps: { sessionCapabilities: { resume: {} } } });
  await applyMcpChoice(f.chat, ['web', '__proto__']);
  assert.equal(f.restarts(), 1);
  assert.equal(f.notices.length, 1);
  assert.match(f.notices[0]?.title ?? '', /off: “web”, “__proto__”\): the session was reopened/);
  assert.match(f.notices[0]?.description ?? '', /conversation resumed/);
  const g = fakeChat({ caps: { loadSession: true } });
  await applyMcpChoice(g.chat, []);
  assert.equal(g.restarts(), 1);
  assert.match(g.notices[0]?.title ?? '', /all on/);
  assert.match(g.notices[0]?.description ?? '', /loaded/);
});

test('no restart when the agent can neither resume nor load, when no session runs yet, or while a turn runs', async () => {
  const neither = fakeChat({ caps: {} });
  await applyMcpChoice(neither.chat, ['a']);
  assert.equal(neither.restarts(), 0);
  assert.match(neither.notices[0]?.description ?? '', /applies to the next new chat session/);
  const before = fakeChat({ running: false, sessionId: null });
  await applyMcpChoice(before.chat, ['a']);
  assert.equal(before.restarts(), 0);
  assert.match(before.notices[0]?.description ?? '', /next session is opened with this choice/);
  const busy = fakeChat({ caps: { sessionCapabilities: { resume: {} } }, turn: 'busy' });
  await applyMcpChoice(busy.chat, ['a']);
  assert.equal(busy.restarts(), 0);
  assert.match(busy.notices[0]?.description ?? '', /Restart Agent/);
});
