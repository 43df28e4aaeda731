// The Streamable HTTP client's drop (issue 44): when its event streams end, `@agentclientprotocol/sdk`
// 2.4.0's http-stream.js fails its readable with `controller.error()`, and a ReadableStream discards what
// it still queued then: session messages the client had received but its reader had not taken yet are
// lost. First test: confirms it on the SDK alone (a reader that is a little behind loses messages that
// provably arrived). Second: our bridge (remoteStream.ts) reads eagerly, so every message that arrived
// reaches the chat's reader even when that reader is paused.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { startRemoteAgentServer } from '../helpers/remoteAgentServer';
import { bridgeStream } from '../../../src/node/transport/remoteStream';
import { until } from '../../helpers/until.mjs';

/** A fetch that counts the messages (SSE `data:` lines) its event-stream bodies carried, and sees them fail. */
function countingFetch() {
  const seen = { messages: 0, failed: false };
  const f: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) return res;
    const [forSdk, forCount] = res.body.tee();
    void (async () => {
      const r = forCount.getReader();
      const dec = new TextDecoder();
      let text = '';
      try {
        for (;;) {
          const x = await r.read();
          if (x.done) return;
          text += dec.decode(x.value, { stream: true });
          const lines = text.split('\n');
          text = lines.pop() ?? '';
          seen.messages += lines.filter((l) => l.startsWith('data:')).length;
        }
      } catch {
        seen.failed = true;
      }
    })();
    return new Response(forSdk, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: f, seen };
}

/** A few turns of the event loop: the SDK's own handling of the failed body (its promise chains) runs. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

const init = { jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } };
const newSession = { jsonrpc: '2.0' as const, id: 2, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } };
const prompt = (sessionId: string) => ({
  jsonrpc: '2.0' as const,
  id: 3,
  method: 'session/prompt',
  params: { sessionId, prompt: [{ type: 'text', text: 'a long answer please' }] },
});

describe('Streamable HTTP: a drop while messages wait to be read', async () => {
  const server = await startRemoteAgentServer({ demo: { delayMs: 5 } });
  after(() => server.stop());

  async function started(f: typeof fetch) {
    const stream = createHttpStream(server.httpUrl(), { fetch: f, cookies: 'omit' });
    const w = stream.writable.getWriter();
    return { stream, w };
  }

  it('the SDK alone: messages that arrived are discarded when the stream fails (the bug, confirmed)', async () => {
    const { fetch: f, seen } = countingFetch();
    const { stream, w } = await started(f);
    const r = stream.readable.getReader();
    await w.write(init);
    await r.read();
    await w.write(newSession);
    let sid = '';
    for (;;) {
      const m = (await r.read()).value as { id?: number; result?: { sessionId?: string } };
      if (m.id === 2) {
        sid = m.result?.sessionId ?? '';
        break;
      }
    }
    const before = seen.messages;
    void w.write(prompt(sid)).catch(() => undefined);
    // The reader is behind: it takes nothing while the agent streams.
    await until(() => seen.messages - before >= 20, 'updates that arrived');
    const arrived = seen.messages - before;
    server.dropAll();
    await until(() => seen.failed, 'the event stream failing under the SDK');
    await turns(5);
    let read = 0;
    let failed: unknown;
    try {
      for (;;) {
        const x = await r.read();
        if (x.done) break;
        read++;
      }
    } catch (e) {
      failed = e;
    }
    assert.ok(failed, 'the readable failed');
    assert.ok(read < arrived, `only ${read} of the ${arrived} messages that arrived could be read`);
  });

  it('our bridge: every message that arrived reaches the reader, even one that was paused', async () => {
    const { fetch: f, seen } = countingFetch();
    const b = bridgeStream(createHttpStream(server.httpUrl(), { fetch: f, cookies: 'omit' }));
    const lines: string[] = [];
    let text = '';
    b.input.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      const parts = text.split('\n');
      text = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l !== ''));
    });
    const ended = new Promise<void>((resolve) => b.input.on('end', () => resolve()));
    b.output.write(`${JSON.stringify(init)}\n`);
    await until(() => lines.some((l) => l.includes('"id":1')), 'initialize');
    b.output.write(`${JSON.stringify(newSession)}\n`);
    const created = await until(() => lines.find((l) => l.includes('"id":2')), 'the session');
    const sid = (JSON.parse(created) as { result: { sessionId: string } }).result.sessionId;
    b.output.write(`${JSON.stringify(prompt(sid))}\n`);
    await until(() => lines.length > 5, 'streaming');
    b.input.pause(); // the chat's reader is behind
    await until(() => seen.messages - lines.length >= 20, 'updates waiting');
    server.dropAll();
    await until(() => seen.failed, 'the event stream failing under the SDK');
    await turns(5);
    b.input.resume();
    await ended;
    const arrived = seen.messages;
    // Every message that came over the wire was read: the SDK's queue never held them when it failed.
    const delivered = lines.filter((l) => !/"code":-32603/.test(l)).length;
    assert.ok(delivered >= arrived, `${delivered} of the ${arrived} messages that arrived were read`);
    assert.ok(b.failure(), 'the drop is reported');
  });
});
