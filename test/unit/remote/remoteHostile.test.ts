// A hostile server is handled like a hostile local agent (issue 44 "Limits as for a local agent"): a
// plain `ws` server scripted to send endless data, to never answer, or to send another session's traffic,
// against the real remote link (the SDK's WebSocket client, remoteStream.ts's bridge) and the same client
// and chat a stdio agent gets. The local counterparts: test/unit/transport/hostile.test.ts (a flood from a
// real pipe), test/unit/session/startupTimeout.test.ts, test/unit/hostile/sessionScope.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { AcpClient } from '../../../src/node/acp/client';
import { ChatController } from '../../../src/node/chat/chatController';
import { connectAgent } from '../../../src/node/acp/connectAgent';
import { parseSettings, type AgentConfig } from '../../../src/common/config/settings';
import { openRemote } from '../../../src/node/transport/remoteLink';
import { chatOptions } from '../session/harness';
import { until } from '../../helpers/until.mjs';

type Msg = { id?: number | string; method?: string; params?: { sessionId?: string }; error?: { message?: string } };

/** A raw WebSocket server that answers as `on` says; every message the client sent is kept. */
async function hostileServer(on: (ws: WebSocket, m: Msg, send: (x: object) => void) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const received: Msg[] = [];
  wss.on('connection', (ws) => {
    const send = (x: object) => ws.send(JSON.stringify({ jsonrpc: '2.0', ...x }));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as Msg;
      received.push(m);
      on(ws, m, send);
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/acp`,
    received,
    sockets: () => [...wss.clients],
    close: () => {
      for (const c of wss.clients) c.terminate();
      return new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

const INIT = { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
const update = (sessionId: string, text: string) => ({
  method: 'session/update',
  params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
});
const remote = (url: string): AgentConfig => ({ id: 'far', name: 'Hostile', command: '', args: [], env: {}, url });

describe('hostile servers over WebSocket', () => {
  it('endless data: the socket is paused while the client is behind, so the server must wait, and what waits here stays bounded', async (t) => {
    let waited = 0;
    let stopped = false;
    const pad = 'x'.repeat(2000);
    const server = await hostileServer((ws, m, send) => {
      if (m.method === 'initialize') return send({ id: m.id, result: INIT });
      if (m.method !== 'session/new') return;
      send({ id: m.id, result: { sessionId: 's' } });
      // Never stops: sends while the socket takes it, and waits only when its own buffer is full.
      void (async () => {
        for (let i = 0; !stopped && ws.readyState === ws.OPEN; i++) {
          send(update('s', `${i} ${pad}`));
          if (ws.bufferedAmount > 1 << 20) {
            waited++;
            while (ws.bufferedAmount > 256 << 10 && !stopped && ws.readyState === ws.OPEN) await new Promise((r) => setTimeout(r, 5));
          }
          if (i % 500 === 0) await new Promise((r) => setImmediate(r));
        }
      })();
    });
    t.after(() => server.close());
    const link = await openRemote(server.url, {}, () => undefined);
    let seen = 0;
    let inOrder = true;
    let maxHeld = 0;
    const client = new AcpClient({
      input: link.input,
      output: link.output,
      clientInfo: { name: 'test', version: '0' },
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      // A slow chat: every message costs time, so the client falls behind the server.
      tap: (dir) => {
        if (dir !== 'agent->client') return;
        maxHeld = Math.max(maxHeld, link.input.readableLength);
        const end = performance.now() + 0.02;
        while (performance.now() < end);
      },
    });
    client.onSessionUpdate((n) => {
      const c = (n.update as { content?: { text?: string } }).content;
      if (Number.parseInt(c?.text ?? '', 10) !== seen) inOrder = false;
      seen++;
    });
    await client.initialize();
    await client.newSession({ cwd: '/', mcpServers: [] });
    await until(() => seen >= 3000 && waited > 0, 'the server to have waited for a paused client', 120_000);
    assert.ok(inOrder, 'every message once, in order');
    assert.ok(maxHeld <= 2 << 20, `at most about the 1 MiB high-water mark waited in the bridge, saw ${maxHeld} bytes`);
    stopped = true;
    client.dispose('done');
    link.close();
    await until(() => server.sockets().length === 0, 'the socket closed');
  });

  it('never answering: the start times out with what to check, as for a local agent, and the socket is closed', async (t) => {
    const server = await hostileServer(() => undefined);
    t.after(() => server.close());
    const settings = parseSettings((k) => (k === 'startupTimeoutSeconds' ? 0.2 : undefined)).settings;
    const chat = new ChatController(chatOptions({ agent: remote(server.url), connect: connectAgent(async () => ({})), settings: () => settings }));
    await chat.start();
    assert.equal(chat.turnState, 'error');
    assert.match(chat.panelState().message ?? '', /Hostile did not answer initialize within 0\.2 s/);
    assert.equal(server.received[0]?.method, 'initialize');
    await until(() => server.sockets().length === 0, 'the link closed');
    chat.dispose();
  });

  it("another session's traffic: its updates are not shown and its requests are refused; ours go on", async (t) => {
    const server = await hostileServer((_ws, m, send) => {
      if (m.method === 'initialize') send({ id: m.id, result: INIT });
      else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'mine' } });
      else if (m.method === 'session/prompt') {
        send(update('theirs', 'FOREIGN TEXT'));
        send({
          id: 900,
          method: 'session/request_permission',
          params: { sessionId: 'theirs', toolCall: { toolCallId: 't1' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
        });
        send({ id: 901, method: 'fs/read_text_file', params: { sessionId: 'theirs', path: '/etc/passwd' } });
        send(update('mine', 'our answer'));
        send({ id: m.id, result: { stopReason: 'end_turn' } });
      }
    });
    t.after(() => server.close());
    const asked: string[] = [];
    const chat = new ChatController(
      chatOptions({
        agent: remote(server.url),
        connect: connectAgent(async () => ({})),
        handlers: () => ({
          requestPermission: async (p) => {
            asked.push(p.sessionId);
            return { outcome: { outcome: 'selected', optionId: 'ok' } };
          },
          readTextFile: async (p) => {
            asked.push(p.path);
            return { content: 'secret' };
          },
        }),
      }),
    );
    t.after(() => chat.dispose());
    await chat.start();
    chat.prompt('hello');
    await until(() => server.received.filter((m) => m.id === 900 || m.id === 901).length === 2, 'both foreign requests answered');
    await until(() => chat.turnState === 'idle' && JSON.stringify(chat.entries()).includes('our answer'), 'our answer');
    for (const id of [900, 901]) assert.match(server.received.find((m) => m.id === id)?.error?.message ?? '', /unknown session/i, `request ${id} refused`);
    assert.equal(JSON.stringify(chat.entries()).includes('FOREIGN'), false, 'the foreign update is not in the chat');
    assert.deepEqual(asked, [], 'no permission card and no file read for another session');
  });
});
