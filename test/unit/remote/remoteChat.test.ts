// A chat with an agent reached by URL: the SDK's WebSocket and Streamable HTTP clients (v1 and the v2
// draft) against the SDK's own server hosting the demo agent, through the same ChatController, store and
// panel state a stdio agent gets; the URL rule, the size limit, a token that goes nowhere but the header.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { ChatController } from '../../../src/node/chat/chatController';
import { parseSettings, type AgentConfig } from '../../../src/common/config/settings';
import { connectAgent } from '../../../src/node/acp/connectAgent';
import { connectRemote, RemoteConfigError } from '../../../src/node/transport/remoteLink';
import { checkAgentUrl } from '../../../src/common/config/agentUrl';
import { chatOptions } from '../session/harness';
import { startRemoteAgentServer, startProxy } from '../helpers/remoteAgentServer';
import { until } from '../../helpers/until.mjs';
import type { ConnectOptions } from '../../../src/node/acp/agentLink';

const remote = (url: string, extra: Partial<AgentConfig> = {}): AgentConfig => ({ id: 'far', name: 'Far agent', command: '', args: [], env: {}, url, ...extra });

function remoteChat(agent: AgentConfig, o: { protocolVersion?: 1 | 2; token?: string } = {}) {
  const settings = parseSettings((k) => (k === 'protocolVersion' ? o.protocolVersion : undefined)).settings;
  const captured: string[] = [];
  const logged: string[] = [];
  const chat = new ChatController(
    chatOptions({
      agent,
      connect: connectAgent(async (): Promise<Record<string, string>> => (o.token ? { Authorization: `Bearer ${o.token}` } : {})),
      settings: () => settings,
      log: (_l, m) => logged.push(m),
      sinks: { capture: (_dir, msg, _seq, raw) => captured.push(raw ?? JSON.stringify(msg)), persist: () => undefined },
      handlers: () => ({ requestPermission: async (p) => ({ outcome: { outcome: 'selected', optionId: p.options[0]?.optionId ?? '' } }) }),
    }),
  );
  return { chat, captured, logged };
}

const agentText = (chat: ChatController) =>
  chat
    .entries()
    .flatMap((e) => (e.kind === 'agent_message' ? e.content.map((b) => ('text' in b ? b.text : '')) : []))
    .join('');

describe('remote agents', async () => {
  const server = await startRemoteAgentServer();
  after(() => server.stop());

  for (const [kind, url] of [
    ['WebSocket', () => server.wsUrl()],
    ['Streamable HTTP', () => server.httpUrl()],
  ] as const) {
    for (const v of [1, 2] as const) {
      it(`${kind}, protocol ${v}: a full turn reaches the store and the panel as over stdio`, async () => {
        const { chat, captured } = remoteChat(remote(url()), { protocolVersion: v });
        await chat.start();
        assert.equal(chat.turnState, 'idle', chat.panelState().message ?? '');
        chat.prompt('hello over the network');
        await until(() => chat.turnState === 'idle' && agentText(chat).length > 0, 'the answer');
        await chat.whenIdle();
        const kinds = chat.entries().map((e) => e.kind);
        assert.equal(kinds[0], 'user_message');
        assert.ok(kinds.includes('agent_message') && kinds.includes('tool_call'), kinds.join());
        assert.ok(
          captured.some((l) => l.includes('"session/prompt"')),
          'the capture has the wire',
        );
        chat.dispose();
      });
    }
  }

  it('a proxy that splits every frame into 7-byte pieces and adds 500 ms each way changes nothing', async () => {
    const proxy = await startProxy(server.port, { latencyMs: 500, pieceBytes: 7 });
    try {
      const { chat } = remoteChat(remote(`ws://127.0.0.1:${proxy.port}/acp`));
      await chat.start();
      chat.prompt('slow and split');
      await until(() => chat.turnState === 'idle' && agentText(chat).length > 0, 'the answer through the proxy', 60_000);
      const ids = chat.entries().map((e) => e.key);
      assert.equal(new Set(ids).size, ids.length);
      chat.dispose();
    } finally {
      await proxy.close();
    }
  });

  it('refuses plain ws:// and http:// to another host before connecting, and credentials in the URL', async () => {
    for (const u of ['ws://example.com/acp', 'http://10.0.0.2:8080/acp', 'ws://user:secret@127.0.0.1/acp']) {
      const c = checkAgentUrl(u);
      assert.equal(c.ok, false, u);
    }
    assert.match((checkAgentUrl('ws://example.com/acp') as { reason: string }).reason, /unencrypted.*use wss:\/\/example\.com/);
    for (const u of ['wss://example.com/acp', 'https://agents.example.com', 'ws://localhost:9/acp', 'http://[::1]:9/', 'ws://127.0.0.2/'])
      assert.equal(checkAgentUrl(u).ok, true, u);
    await assert.rejects(
      connectRemote({ agent: remote('ws://example.com/acp') } as ConnectOptions),
      (e: unknown) => e instanceof RemoteConfigError && /refused ws:\/\/example\.com/.test(e.message),
    );
    const { chat } = remoteChat(remote('ws://example.com/acp'));
    await chat.start();
    assert.equal(chat.turnState, 'error');
    assert.match(chat.panelState().message ?? '', /unencrypted connection is only allowed to this machine/);
    chat.dispose();
  });

  it('a message over the size limit closes the WebSocket (it is never held whole)', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (s) => s.on('message', () => s.send(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { pad: 'x'.repeat(5000) } }))));
    const port = (wss.address() as AddressInfo).port;
    const logged: string[] = [];
    const o = {
      agent: remote(`ws://127.0.0.1:${port}`),
      cwd: '/tmp',
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      protocolVersion: 1,
      tap: () => undefined,
      log: (_l: string, m: string) => logged.push(m),
      onInvalidLine: () => undefined,
      onStderr: () => undefined,
    } as unknown as ConnectOptions;
    const link = await connectRemote(o, { maxMessageBytes: 1000 });
    const exit = new Promise<string>((resolve) => link.onExit(resolve));
    await assert.rejects(link.client.initialize(), /over the 1000 bytes limit/);
    assert.match(await exit, /limit/);
    link.dispose();
    wss.close();
  });
});

describe('tokens', async () => {
  const token = 'tok-4f1d9e7c-never-written-anywhere';
  const server = await startRemoteAgentServer({ token });
  after(() => server.stop());

  it('a token goes in the header only: never in the capture, the log, the settings or the panel', async () => {
    for (const url of [server.wsUrl(), server.httpUrl()]) {
      const agent = remote(url, { secretHeaders: ['Authorization'] });
      const { chat, captured, logged } = remoteChat(agent, { token });
      await chat.start();
      chat.prompt('hello');
      await until(() => chat.turnState === 'idle' && agentText(chat).length > 0, 'the answer');
      const seen = [...captured, ...logged, JSON.stringify(agent), JSON.stringify(chat.panelState()), JSON.stringify(chat.entries())].join('\n');
      assert.equal(seen.includes(token), false);
      chat.dispose();
    }
    assert.ok(server.authSeen.includes(`Bearer ${token}`), 'the server got it');
  });

  it('a wrong token is refused with the HTTP status, and the chat says so', async () => {
    const { chat } = remoteChat(remote(server.wsUrl()), { token: 'wrong' });
    await chat.start();
    await until(() => chat.turnState !== 'starting', 'the refusal');
    assert.match(chat.panelState().message ?? '', /HTTP 401/);
    assert.equal((chat.panelState().message ?? '').includes('wrong'), false);
    chat.dispose();
  });
});
