// Issue 11, item 9: an agent that never answers initialize or session/new does not leave the panel
// "starting" forever: the start fails with what to check, the agent is stopped, Restart is offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import type { PanelDelta } from '../../../src/common/webview/panelDeltas';
import { parseSettings } from '../../../src/common/config/settings';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import type { AcpConnection } from '../../../src/node/transport/connection';
import { inProcessDemoAgent, chatOptions } from './harness';

function makeSession(make: (acp: AcpConnection) => void, startupTimeoutSeconds: number) {
  const settings = parseSettings((k) => (k === 'startupTimeoutSeconds' ? startupTimeoutSeconds : undefined)).settings;
  const agent = inProcessDemoAgent(make);
  const changes: PanelDelta[] = [];
  let disposed = 0;
  const session = new ChatController(
    chatOptions({
      agent: { id: 'silent', name: 'Silent', command: 'silent-agent', args: ['--acp'], env: {} },
      connect: async (o) => {
        const link = await agent.connect(o);
        return {
          ...link,
          dispose: () => {
            disposed++;
            link.dispose();
          },
        };
      },
      settings: () => settings,
    }),
  );
  session.onDidChange((c) => changes.push(...c));
  return { session, changes, disposed: () => disposed };
}

test('an agent that never answers initialize: the start times out with what to check, and the agent is stopped', async () => {
  const { session, disposed } = makeSession((acp) => acp.connection.onRequest('initialize', () => new Promise(() => undefined)), 0.05);
  await session.start();
  assert.equal(session.turnState, 'error');
  const message = session.panelState().message ?? '';
  assert.match(message, /Silent did not answer initialize within 0\.05 s/);
  assert.match(message, /silent-agent --acp/);
  assert.match(message, /signed in/);
  assert.match(message, /network/);
  assert.match(message, /Restart/);
  assert.equal(disposed(), 1);
  session.dispose();
});

test('an agent that never answers session/new: the start times out too', async () => {
  const { session } = makeSession((acp) => {
    acp.connection.onRequest('initialize', () => ({ protocolVersion: 1, agentCapabilities: {} }));
    acp.connection.onRequest('session/new', () => new Promise(() => undefined));
  }, 1);
  await session.start();
  assert.equal(session.turnState, 'error');
  assert.match(session.panelState().message ?? '', /did not answer the session request within 1 s/);
  session.dispose();
});

test('the default limit is 60 s, and 0 means no limit', async () => {
  assert.equal(parseSettings(() => undefined).settings.startupTimeoutSeconds, 60);
  const { session } = makeSession((acp) => new DemoAgent(acp, { delayMs: 0 }), 0);
  await session.start();
  assert.equal(session.turnState, 'idle');
  session.dispose();
});
