/**
 * Issue 11, items 7, 8, 10, 11 and 13 (batch): a scripted hostile agent (FakeAgent, in-memory pipes)
 * against the real AcpClient and transport. Each test asserts the outcome the user sees: the request
 * answered or failed at once, the text kept, the refused line reported.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import type { RequestPermissionResult } from '../../../src/common/protocol/requests';
import { AcpClient } from '../../../src/node/acp/client';
import type { AcpClientOptions } from '../../../src/node/acp/client';
import { AcpRequestError } from '../../../src/node/acp/errors';
import { CaptureFile } from '../../../src/node/capture/captureFile';
import { createAcpConnection } from '../../../src/node/transport/connection';
import type { InvalidLine } from '../../../src/node/transport/ndjson';
import { FakeAgent, INIT_RESULT, openSession } from '../acp/fakeAgent';
import type { Json } from '../acp/fakeAgent';

const never = () => new Promise<RequestPermissionResult>(() => undefined);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

async function connected(extra: Partial<AcpClientOptions> = {}) {
  const agent = new FakeAgent();
  const invalid: InvalidLine[] = [];
  const logs: string[] = [];
  const texts: string[] = [];
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 'test', version: '0' },
    handlers: { requestPermission: never, readTextFile: async (p) => ({ content: `read ${p.path}` }) },
    onInvalidLine: (l) => invalid.push(l),
    log: (level, m) => logs.push(`${level}: ${m}`),
    ...extra,
  });
  client.onSessionUpdate((n) => {
    const u = n.update as { sessionUpdate: string; content?: { text?: string } };
    if (u.sessionUpdate === 'agent_message_chunk' && u.content?.text) texts.push(u.content.text);
  });
  const init = client.initialize();
  agent.reply((await agent.expect('initialize')).id, INIT_RESULT);
  await init;
  return { agent, client, invalid, logs, texts };
}

const chunk = (text: string) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });

describe('hostile agents: the transport', () => {
  it('refuses a 5,000-deep tool call with a diagnostic; the chunk and the prompt answer in the same read go through, and the capture keeps them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'acp-deep-'));
    const capture = CaptureFile.at(path.join(dir, 'c.jsonl'), (m) => assert.fail(m));
    let journalFailures = 0;
    const s = await connected({
      tap: (dir, msg, raw) => {
        capture.write(dir, msg, undefined, raw);
        // What the journal does: serialise the message again.
        try {
          JSON.stringify({ seq: 1, dir, msg });
        } catch {
          journalFailures++;
        }
      },
    });
    const turn = s.client.prompt('s', [{ type: 'text', text: 'go' }]);
    const req = await s.agent.expect('session/prompt');
    const deep = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"deep","rawInput":${deepArray(5000)}}}}`;
    s.agent.sendRaw(`${deep}\n${chunk('kept')}\n${JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } })}\n`);
    assert.deepEqual(await turn, { stopReason: 'end_turn' });
    assert.deepEqual(s.texts, ['kept']);
    assert.equal(s.invalid.length, 1);
    assert.match(s.invalid[0]!.reason, /nested deeper than 256 levels/);
    assert.equal(journalFailures, 0);
    const records = readFileSync(capture.path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: Json });
    assert.ok(records.some((r) => JSON.stringify(r.msg).includes('"kept"')));
    s.client.dispose();
  });

  it('a tap that throws on every message costs nothing: it is logged and the turn completes', async () => {
    const s = await connected({
      tap: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    const turn = s.client.prompt('s', [{ type: 'text', text: 'go' }]);
    const req = await s.agent.expect('session/prompt');
    s.agent.sendRaw(`${chunk('a')}\n${chunk('b')}\n${JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } })}\n`);
    assert.deepEqual(await turn, { stopReason: 'end_turn' });
    assert.deepEqual(s.texts, ['a', 'b']);
    assert.ok(s.logs.some((l) => /^error: recording a message \(in\) failed.*Maximum call stack/.test(l)));
    s.client.dispose();
  });

  it('answers a too-deep request from the agent with Invalid Request instead of leaving it waiting', async () => {
    const s = await connected();
    s.agent.sendRaw(`{"jsonrpc":"2.0","id":41,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/x","junk":${deepArray(400)}}}\n`);
    const answer = await s.agent.next();
    assert.equal(answer.id, 41);
    assert.equal((answer.error as Json).code, -32600);
    assert.match((answer.error as Json).message as string, /nested deeper/);
    s.client.dispose();
  });

  it('fails a request at once when its response is over the size limit (32 MiB)', async () => {
    const s = await connected();
    const turn = s.client.prompt('s', [{ type: 'text', text: 'go' }]);
    const req = await s.agent.expect('session/prompt');
    // The id comes after the huge result: the reader finds it while skipping the line.
    const huge = `{"jsonrpc":"2.0","result":{"stopReason":"end_turn","_meta":{"pad":"${'x'.repeat(32 * 1024 * 1024)}"}},"id":${String(req.id)}}\n`;
    s.agent.sendRaw(huge);
    await assert.rejects(turn, (e: unknown) => e instanceof AcpRequestError && /session\/prompt failed/.test(e.message) && /exceeds the limit of 33554432 bytes/.test(e.message));
    assert.equal(s.invalid[0]?.kind, 'oversized');
    // The connection is still usable afterwards.
    const again = s.client.newSession({ cwd: '/', mcpServers: [] });
    s.agent.reply((await s.agent.expect('session/new')).id, { sessionId: 's2' });
    assert.equal((await again).sessionId, 's2');
    s.client.dispose();
  });

  it('answers an oversized request from the agent with Invalid Request', async () => {
    const s = await connected({ limits: { maxMessageBytes: 1000 } });
    s.agent.sendRaw(`{"jsonrpc":"2.0","id":"big-1","method":"fs/read_text_file","params":{"sessionId":"s","path":"${'p'.repeat(2000)}"}}\n`);
    const answer = await s.agent.next();
    assert.equal(answer.id, 'big-1');
    assert.equal((answer.error as Json).code, -32600);
    s.client.dispose();
  });

  it('keeps the first of two responses with the same id and reports the second', async () => {
    const s = await connected();
    const p = s.client.newSession({ cwd: '/', mcpServers: [] });
    const req = await s.agent.expect('session/new');
    const r = (sessionId: string) => JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { sessionId } });
    s.agent.sendRaw(`${r('first')}\n${r('second')}\n`);
    assert.equal((await p).sessionId, 'first');
    // A round trip: once the agent has this answer, the line after the second response has been read.
    s.agent.send({ id: 'probe', method: 'fs/read_text_file', params: { sessionId: 's', path: '/p' } });
    assert.equal((await s.agent.next()).id, 'probe');
    assert.ok(s.invalid.some((l) => /not waiting for one/.test(l.reason)));
    s.client.dispose();
  });

  it('answers the first of two agent requests that share an id, and refuses the second at once (issue 39: nothing is held)', async () => {
    const s = await connected();
    await openSession(s.agent, s.client);
    const req = (p: string) => JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'fs/read_text_file', params: { sessionId: 's', path: p } });
    s.agent.sendRaw(`${req('/a')}\n${req('/b')}\n`);
    const answers = [await s.agent.next(), await s.agent.next()];
    assert.deepEqual(
      answers.map((a) => a.id),
      [7, 7],
    );
    assert.deepEqual(answers.map((a) => (a.result as Json | undefined)?.content ?? (a.error as Json).code).sort(), [-32600, 'read /a']);
    s.client.dispose();
  });

  it('answers a JSON-RPC batch with Invalid Request (id null)', async () => {
    const s = await connected();
    s.agent.sendRaw(`[${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } })}]\n`);
    const answer = await s.agent.next();
    assert.equal(answer.id, null);
    assert.equal((answer.error as Json).code, -32600);
    assert.match((answer.error as Json).message as string, /batches are not supported/);
    s.client.dispose();
  });

  it('fails a request whose response is not a valid response (no result, no error)', async () => {
    const s = await connected();
    const p = s.client.newSession({ cwd: '/', mcpServers: [] });
    const req = await s.agent.expect('session/new');
    s.agent.sendRaw(`{"jsonrpc":"2.0","id":${String(req.id)}}\n`);
    await assert.rejects(p, /session\/new failed \(-32603\): the agent's response was refused by acp-chat: malformed JSON-RPC message: result/);
    s.client.dispose();
  });
});

describe('hostile agents: backpressure', () => {
  it('stops reading while the dispatch queue is full, and still delivers every message once, in order', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const acp = createAcpConnection({ input, output, maxQueued: 64 });
    const seen: number[] = [];
    acp.connection.onNotification('n', (p: { i: number }) => void seen.push(p.i));
    acp.connection.listen();
    const total = 20_000;
    // One huge write: everything is in memory at once, as with an agent that floods its stdout.
    input.end(Array.from({ length: total }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { i } })).join('\n') + '\n');
    await new Promise<void>((resolve) => acp.connection.onClose(() => resolve()));
    await acp.whenDrained();
    assert.equal(seen.length, total);
    assert.ok(seen.every((v, i) => v === i));
    assert.ok(acp.maxQueuedSeen <= 64, `at most 64 messages waited for dispatch, saw ${acp.maxQueuedSeen}`);
    acp.connection.dispose();
  });

  it('pauses the agent stdout under a flood from a real pipe, so the agent waits on it', async () => {
    const input = new PassThrough({ highWaterMark: 1024 });
    const output = new PassThrough();
    output.resume();
    const acp = createAcpConnection({ input, output, maxQueued: 16 });
    let count = 0;
    acp.connection.onNotification('n', () => void count++);
    acp.connection.listen();
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { s: 'x'.repeat(100) } }) + '\n';
    let blocked = 0;
    for (let i = 0; i < 5000; i++) {
      if (!input.write(line)) {
        blocked++;
        await new Promise<void>((resolve) => input.once('drain', () => resolve()));
      }
    }
    input.end();
    await new Promise<void>((resolve) => acp.connection.onClose(() => resolve()));
    await acp.whenDrained();
    assert.equal(count, 5000);
    assert.ok(blocked > 0, 'the writer had to wait for the reader');
    assert.ok(acp.maxQueuedSeen <= 16);
    acp.connection.dispose();
  });
});

// Keeps the Message type import honest (used by the tap signature in AcpClientOptions).
export type { Message };
