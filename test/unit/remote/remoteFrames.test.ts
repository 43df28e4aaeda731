// The WebSocket link reads the agent's text frames itself (remoteLink.ts, remoteStream.ts's `frames`): each
// frame is one message for ndjson.ts's reader, as a line of stdio is. A pretty-printed frame (line feeds
// as whitespace) is still one message, a frame that is not JSON is skipped and reported without costing
// the next, a binary frame is skipped, and the capture records each frame's own text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { AcpClient } from '../../../src/node/acp/client';
import { openRemote } from '../../../src/node/transport/remoteLink';
import type { InvalidLine } from '../../../src/node/transport/ndjson';
import { until } from '../../helpers/until.mjs';

type Msg = { id?: number; method?: string };

/** A `ws` server that answers initialize and session/new, then sends what `prompt` sends. */
async function frameServer(prompt: (ws: WebSocket, id: number) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as Msg;
      if (m.method === 'initialize') ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } }, null, 2));
      else if (m.method === 'session/new') ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { sessionId: 's' } }));
      else if (m.method === 'session/prompt' && m.id !== undefined) prompt(ws, m.id);
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/acp`,
    close: () => {
      for (const c of wss.clients) c.terminate();
      return new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

const update = (text: string) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
});

describe('WebSocket frames', () => {
  it('one frame is one message: pretty-printed, not JSON, binary, each handled as over stdio', async (t) => {
    const pretty = JSON.stringify(update('two\nlines'), null, 2);
    const server = await frameServer((ws, id) => {
      ws.send(pretty);
      ws.send('{"jsonrpc": "2.0",\n "method": not json}');
      ws.send(Buffer.from(JSON.stringify(update('binary'))), { binary: true });
      ws.send(JSON.stringify(update('after')));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } }));
    });
    t.after(() => server.close());
    const link = await openRemote(server.url, {}, () => undefined);
    const texts: string[] = [];
    const invalid: InvalidLine[] = [];
    const raws: string[] = [];
    const client = new AcpClient({
      input: link.input,
      output: link.output,
      clientInfo: { name: 'test', version: '0' },
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      onInvalidLine: (l) => invalid.push(l),
      tap: (dir, _msg, raw) => {
        if (dir === 'agent->client' && raw !== undefined) raws.push(raw);
      },
    });
    t.after(() => {
      client.dispose('done');
      link.close();
    });
    client.onSessionUpdate((n) => texts.push((n.update as { content?: { text?: string } }).content?.text ?? ''));
    await client.initialize(); // its answer came pretty-printed
    await client.newSession({ cwd: '/', mcpServers: [] });
    const done = await client.prompt('s', [{ type: 'text', text: 'go' }]);
    assert.equal(done.stopReason, 'end_turn');
    await until(() => texts.length === 2, 'both updates');
    assert.deepEqual(texts, ['two\nlines', 'after'], 'the pretty-printed update and the one after the bad frames; the binary frame skipped');
    assert.equal(invalid.length, 1, 'the frame that is not JSON is reported once');
    assert.match(invalid[0]?.text ?? '', /not json/);
    assert.ok(raws.includes(JSON.stringify(update('after'))), 'the capture gets the frame as it came');
  });
});
