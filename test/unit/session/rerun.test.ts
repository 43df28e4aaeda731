// Retry and the edit's chips, against the demo agent in-process: a cancelled turn is marked so the panel
// offers Retry, and Retry sends the store's last user message again (text and context) in the same
// session; a failed prompt is marked too; an edit of an earlier message sets the user's chips aside and
// gives them back when it ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import { parseSettings } from '../../../src/common/config/settings';
import { inProcessDemoAgent, chatOptions } from './harness';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import { until } from '../../helpers/until.mjs';
import { rpcError } from '../../../src/node/transport/connection';

const settings = parseSettings(() => undefined).settings;

function makeSession(agent = inProcessDemoAgent()) {
  return new ChatController(
    chatOptions({
      connect: agent.connect,
      settings: () => settings,
      handlers: () => ({
        requestPermission: async (p, _signal, askUser) => ({
          outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: p.toolCall.title ?? '', options: p.options }),
        }),
      }),
    }),
  );
}

const userTexts = (s: ChatController) => s.entries().flatMap((e) => (e.kind === 'user_message' ? [e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('|')] : []));

test('a cancelled turn is marked for Retry; Retry sends the last user message again, context included, in the same session', async () => {
  const session = makeSession();
  await session.start();
  const sid = session.sessionId;
  session.addContext({ kind: 'selection', path: '/ws/a.ts', lines: [1, 2], text: 'const a = 1;', size: 12 });
  session.prompt('edit with permission');
  await until(() => session.broker.pending().length > 0, 'the permission request');
  assert.equal(session.panelState().lastTurnEnd, null, 'not while the turn runs');
  session.cancel();
  await session.whenIdle();
  assert.equal(session.panelState().lastTurnEnd, 'cancelled');
  session.retry();
  await until(() => session.broker.pending().length > 0, "the retried turn's permission request");
  assert.equal(session.panelState().lastTurnEnd, null, 'a new turn clears the mark');
  const users = session.entries().flatMap((e) => (e.kind === 'user_message' ? [e] : []));
  assert.equal(users.length, 2, 'the prompt was sent again');
  assert.equal(session.sessionId, sid, 'in the same session');
  assert.deepEqual(users[1]?.content, users[0]?.content, 'as it was first sent, with its context');
  assert.ok(
    users[1]?.content.some((b) => b.type === 'resource' || b.type === 'resource_link'),
    'the context went along',
  );
  session.cancel();
  await session.whenIdle();
  session.dispose();
});

test('a failed prompt is marked for Retry; a finished one is not; Retry with nothing sent does nothing', async () => {
  const agent = inProcessDemoAgent((acp) => {
    new DemoAgent(acp, { delayMs: 0 });
    // Replaces the demo's handler: every prompt fails.
    acp.connection.onRequest('session/prompt', () => {
      throw rpcError(-32603, 'Internal error', { details: 'the model is overloaded' });
    });
  });
  const session = makeSession(agent);
  await session.start();
  session.retry();
  await session.whenIdle();
  assert.deepEqual(userTexts(session), [], 'nothing to retry');
  session.prompt('hello');
  await until(() => session.panelState().lastTurnEnd === 'error', 'the failed turn');
  assert.equal(session.turnState, 'idle');
  session.retry();
  await until(() => userTexts(session).length === 2, 'the retried prompt');
  assert.deepEqual(userTexts(session), ['hello', 'hello']);
  session.dispose();

  const ok = makeSession();
  await ok.start();
  ok.prompt('hello');
  await ok.whenIdle();
  assert.equal(ok.panelState().lastTurnEnd, null, 'finished');
  ok.dispose();
});

test("an edit sets the user's chips aside and gives them back when it ends; a second edit keeps the first's", async () => {
  const session = makeSession();
  await session.start();
  const mine = { kind: 'file' as const, path: '/ws/mine.ts', lines: null, text: 'x', size: 1 };
  const edited = { kind: 'selection' as const, path: '/ws/edited.ts', lines: [3, 4] as const, text: 'y', size: 1 };
  session.addContext(mine);
  const labels = () => session.panelState().context.map((c) => c.label);
  session.beginEdit([edited]);
  assert.deepEqual(labels(), ['edited.ts:3-4'], "the edited message's chips");
  session.beginEdit([]);
  assert.deepEqual(labels(), []);
  session.endEdit();
  assert.deepEqual(labels(), ['mine.ts'], "the user's chips are back");
  session.endEdit();
  assert.deepEqual(labels(), ['mine.ts'], 'ending twice changes nothing');
  session.dispose();
});

test("a turn cut off by the agent's exit is marked interrupted, so Retry is offered once it is back (issue 38, item 8)", async () => {
  const agent = inProcessDemoAgent();
  const session = makeSession(agent);
  await session.start();
  session.prompt('edit with permission');
  await until(() => session.broker.pending().length > 0, 'the permission request');
  agent.crash();
  await until(() => session.panelState().lastTurnEnd === 'interrupted', 'the interrupted mark');
  session.dispose();
});
