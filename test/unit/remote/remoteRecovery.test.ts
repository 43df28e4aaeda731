// The network fails; the chat does not. A chat with the demo agent behind the SDK's own server (WebSocket
// and Streamable HTTP): sockets cut mid-stream and mid-permission, the server stopped and started again, a
// prompt whose delivery is uncertain. The chat shows offline and when it reconnects (backoff on a manual
// clock), replays the session with session/load and keeps every message exactly once, marks a waiting
// permission expired, resends nothing, and never answers an old connection's request on the new one.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import { parseSettings, type AgentConfig } from '../../../src/common/config/settings';
import { connectAgent } from '../../../src/node/acp/connectAgent';
import { chatOptions } from '../session/harness';
import { startRemoteAgentServer, type RemoteAgentServer } from '../helpers/remoteAgentServer';
import { ManualClock } from '../helpers/manualClock';
import { until } from '../../helpers/until.mjs';

const remote = (url: string): AgentConfig => ({ id: 'far', name: 'Far agent', command: '', args: [], env: {}, url });

interface Wire {
  readonly dir: string;
  readonly msg: { id?: unknown; method?: unknown; result?: unknown; error?: unknown; params?: { update?: { messageId?: unknown; sessionUpdate?: unknown } } };
}

function chatWith(url: string, o: { answer?: boolean } = {}) {
  const clock = new ManualClock();
  const wire: Wire[][] = [];
  const settings = parseSettings(() => undefined).settings;
  const chat = new ChatController(
    chatOptions({
      agent: remote(url),
      connect: async (c) => {
        const seen: Wire[] = [];
        wire.push(seen);
        return connectAgent()({ ...c, tap: (dir, msg, raw, checked) => (seen.push({ dir, msg: msg as Wire['msg'] }), c.tap(dir, msg, raw, checked)) });
      },
      settings: () => settings,
      clock,
      handlers: () => ({
        requestPermission: async (p, _signal, askUser) =>
          o.answer === false
            ? { outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: p.toolCall.title ?? '', options: p.options }) }
            : { outcome: { outcome: 'selected', optionId: p.options[0]?.optionId ?? '' } },
      }),
    }),
  );
  return { chat, clock, wire };
}

const agentMessages = (chat: ChatController) => chat.entries().filter((e) => e.kind === 'agent_message');
const userTexts = (chat: ChatController) => chat.entries().flatMap((e) => (e.kind === 'user_message' ? [e.content.map((b) => ('text' in b ? b.text : '')).join('')] : []));

/** Nothing shown twice: one entry per key and per (kind, messageId), and no message's text repeated inside it. */
function assertExactlyOnce(chat: ChatController): void {
  const entries = chat.entries();
  assert.equal(new Set(entries.map((e) => e.key)).size, entries.length, 'unique keys');
  const ids = entries.flatMap((e) => ('messageId' in e && typeof e.messageId === 'string' ? [`${e.kind}:${e.messageId}`] : []));
  assert.equal(new Set(ids).size, ids.length, `one entry per message id: ${ids.join(' ')}`);
  for (const m of agentMessages(chat)) {
    if (m.kind !== 'agent_message') continue;
    const t = m.content.map((b) => ('text' in b ? b.text : '')).join('');
    const half = t.slice(0, Math.floor(t.length / 2));
    assert.ok(half.length < 20 || !t.slice(half.length).includes(half), `text not doubled: ${t.slice(0, 80)}`);
  }
}

for (const kind of ['WebSocket', 'Streamable HTTP'] as const) {
  describe(`reconnecting over ${kind}`, async () => {
    const server: RemoteAgentServer = await startRemoteAgentServer({ demo: { delayMs: 15 } });
    after(() => server.stop());
    const url = () => (kind === 'WebSocket' ? server.wsUrl() : server.httpUrl());

    it('a socket cut mid-stream: offline, reconnected at once, the session replayed, every message once', async () => {
      const { chat, clock } = chatWith(url());
      await chat.start();
      const sid = chat.sessionId;
      chat.prompt('tell me a long story');
      await until(() => agentMessages(chat).length > 0, 'the answer streaming');
      server.dropAll();
      await until(() => chat.turnState === 'exited', 'offline');
      assert.match(chat.panelState().message ?? '', /Far agent \((ws|http):\/\/127\.0\.0\.1:\d+\) is offline: .*Reconnecting now, attempt 1 of 8/);
      clock.advance(0);
      await until(() => chat.turnState === 'idle', 'reconnected', 20_000);
      assert.equal(chat.sessionId, sid, 'the same session');
      assert.deepEqual(userTexts(chat), ['tell me a long story'], 'nothing resent');
      assertExactlyOnce(chat);
      chat.prompt('and another');
      await until(() => chat.turnState === 'idle' && userTexts(chat).length === 2 && agentMessages(chat).length > 1, 'a turn after the reconnect');
      await chat.whenIdle();
      assertExactlyOnce(chat);
      chat.dispose();
    });

    it('a socket cut mid-permission: the card expires, and no request of the old connection is answered on the new one', async () => {
      const { chat, clock, wire } = chatWith(url(), { answer: false });
      await chat.start();
      chat.prompt('please edit the file');
      await until(() => chat.panelState().permissions.length === 1, 'the permission card');
      server.dropAll();
      await until(() => chat.turnState === 'exited', 'offline');
      assert.deepEqual(chat.panelState().permissions, [], 'nothing left to click');
      clock.advance(0);
      await until(() => chat.turnState === 'idle', 'reconnected', 20_000);
      assert.equal(chat.panelState().notices.filter((n) => /^Permission request expired/.test(n.title)).length, 1, 'marked expired');
      const now = wire.at(-1) ?? [];
      const asked = new Set(now.filter((w) => w.dir === 'in' && w.msg.method !== undefined && w.msg.id !== undefined).map((w) => JSON.stringify(w.msg.id)));
      const answered = now.filter((w) => w.dir === 'out' && w.msg.method === undefined && w.msg.id !== undefined);
      for (const a of answered) assert.ok(asked.has(JSON.stringify(a.msg.id)), `answer ${JSON.stringify(a.msg)} names a request of this connection`);
      assertExactlyOnce(chat);
      chat.dispose();
    });

    it("the server restarts: offline with the next attempt's time, refused attempts back off, then back on the same session", async () => {
      const { chat, clock } = chatWith(url());
      await chat.start();
      const sid = chat.sessionId;
      chat.prompt('hello');
      await until(() => chat.turnState === 'idle' && agentMessages(chat).length > 0, 'the first turn');
      await server.stop();
      await until(() => chat.turnState === 'exited', 'offline');
      clock.advance(0); // attempt 1: refused
      await until(() => /attempt 2 of 8/.test(chat.panelState().message ?? ''), 'the second attempt announced');
      assert.match(chat.panelState().message ?? '', /Reconnecting in 1 s \(at \d\d:\d\d:\d\d\)/);
      await server.start();
      clock.advance(1_000);
      await until(() => chat.turnState === 'idle', 'back', 20_000);
      assert.equal(chat.sessionId, sid);
      assertExactlyOnce(chat);
      chat.dispose();
    });
  });
}

describe('a prompt in flight when the link drops', async () => {
  const server = await startRemoteAgentServer({ demo: { fault: 'silent' } });
  after(() => server.stop());

  it('is never resent: the replay decides it reached the agent, and the chat says so', async () => {
    const { chat, clock } = chatWith(server.wsUrl());
    await chat.start();
    chat.prompt('did this arrive?');
    await until(() => chat.turnState === 'busy', 'sent');
    // The silent agent took it and says nothing: no traffic proves it arrived before the cut.
    await new Promise((r) => setImmediate(r));
    server.dropAll();
    await until(() => chat.turnState === 'exited', 'offline');
    clock.advance(0);
    const verdict = await until(() => chat.panelState().notices.find((n) => n.key === 'recovery' && /reached the agent/.test(n.title)), "the replay's verdict", 20_000);
    assert.match(verdict.title, /Your last message reached the agent before it stopped/);
    assert.equal(
      chat.panelState().notices.some((n) => n.key === 'undelivered'),
      false,
      'not offered for resending: it landed',
    );
    assert.deepEqual(userTexts(chat), ['did this arrive?'], 'shown once, not resent');
    chat.dispose();
  });
});
