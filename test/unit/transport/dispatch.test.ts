/**
 * Hot notifications are handled as they are read (issue 14), not one per event-loop turn through
 * vscode-jsonrpc's queue: that must never change the order handlers see the messages in, nor let a
 * peer wedge the count of messages waiting for dispatch.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { CheckedMessage } from '../../../src/common/jsonrpc/rpc';
import { createAcpConnection, onAcpNotification } from '../../../src/node/transport/connection';
import { until } from '../../helpers/until.mjs';

const update = (i: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `u${i}` } } },
  });
const zUpdate = z.looseObject({ sessionId: z.string(), update: z.looseObject({ sessionUpdate: z.string(), content: z.looseObject({ text: z.string() }).optional() }) });

function setup() {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: string[] = [];
  output.on('data', (c: Buffer) => written.push(...c.toString().split('\n').filter(Boolean)));
  const logs: string[] = [];
  const taps: (CheckedMessage | undefined)[] = [];
  const acp = createAcpConnection({ input, output, log: (level, m) => logs.push(`${level}: ${m}`), tap: (dir, _m, _raw, checked) => dir === 'in' && taps.push(checked) });
  const order: string[] = [];
  onAcpNotification(
    acp,
    'session/update',
    zUpdate,
    (p) => order.push(p.update.content?.text ?? p.update.sessionUpdate),
    (level, m) => logs.push(`${level}: ${m}`),
  );
  return { input, acp, order, logs, taps, written };
}

describe('direct dispatch of hot notifications', () => {
  it('keeps wire order across updates, requests, responses and other notifications', async () => {
    const { input, acp, order, written } = setup();
    acp.connection.onRequest('x/ask', (p: { i: number }) => {
      order.push(`ask${p.i}`);
      return {};
    });
    acp.connection.onNotification('x/note', (p: { i: number }) => void order.push(`note${p.i}`));
    acp.connection.listen();
    const lines = [
      update(0),
      update(1),
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x/ask', params: { i: 1 } }),
      update(2),
      update(3),
      JSON.stringify({ jsonrpc: '2.0', method: 'x/note', params: { i: 2 } }),
      update(4),
      '{"jsonrpc":"2.0","method":"session/update","params":[{"sessionId":"s","update":{"sessionUpdate":"positional"}}]}',
      update(5),
    ];
    input.write(lines.join('\n') + '\n');
    await until(() => order.length === 9, 'nine messages handled');
    // Array params go through vscode-jsonrpc, which spreads them into arguments, as before.
    assert.deepEqual(order, ['u0', 'u1', 'ask1', 'u2', 'u3', 'note2', 'u4', 'positional', 'u5']);
    await until(() => written.length === 1, 'the answer to x/ask');
    assert.deepEqual(JSON.parse(written[0]!), { jsonrpc: '2.0', id: 1, result: {} });
    input.end();
    await acp.whenDrained();
    acp.connection.dispose();
  });

  it('never queues a stream of updates, and hands each one on with its one check', async () => {
    const { input, acp, order, taps } = setup();
    acp.connection.listen();
    input.end(Array.from({ length: 1000 }, (_, i) => update(i)).join('\n') + '\n');
    await new Promise<void>((resolve) => acp.connection.onClose(() => resolve()));
    await acp.whenDrained();
    assert.equal(order.length, 1000);
    assert.equal(acp.maxQueuedSeen, 0);
    assert.equal(taps.length, 1000);
    assert.ok(taps.every((c) => c?.chunk?.sessionId === 's' && c.rpc.type === 'notification'));
    acp.connection.dispose();
  });

  it('validates what the transport did not already check, logging and skipping bad params', async () => {
    const { input, acp, order, logs } = setup();
    acp.connection.listen();
    input.end(
      [
        JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 1, update: {} } }),
        JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } } }),
      ].join('\n') + '\n',
    );
    await until(() => order.length === 1, 'the plan update');
    assert.deepEqual(order, ['plan']);
    assert.ok(
      logs.some((l) => /ignored session\/update with invalid params/.test(l)),
      logs.join('\n'),
    );
    acp.connection.dispose();
  });

  it('a handler that throws is logged and costs neither later messages nor the order', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const logs: string[] = [];
    const acp = createAcpConnection({ input, output, log: (level, m) => logs.push(`${level}: ${m}`) });
    const seen: string[] = [];
    onAcpNotification(acp, 'session/update', zUpdate, (p) => {
      const text = p.update.content?.text ?? '';
      seen.push(text);
      if (text === 'u1') throw new Error('listener broke');
    });
    acp.connection.listen();
    input.end([update(0), update(1), update(2)].join('\n') + '\n');
    await until(() => seen.length === 3, 'three updates');
    assert.deepEqual(seen, ['u0', 'u1', 'u2']);
    assert.ok(
      logs.some((l) => l.startsWith('error: ') && l.includes('listener broke')),
      logs.join('\n'),
    );
    acp.connection.dispose();
  });

  it('handles nothing once the connection is disposed', async () => {
    const { input, acp, order } = setup();
    acp.connection.listen();
    input.write(update(0) + '\n');
    await until(() => order.length === 1, 'the first update');
    acp.connection.dispose();
    // Listeners run in order: once this one saw the bytes, the reader (if still listening) saw them too.
    const seen = new Promise((resolve) => input.once('data', resolve));
    input.write(update(1) + '\n');
    await seen;
    assert.deepEqual(order, ['u0']);
  });
});

describe("vscode-jsonrpc's own $/cancelRequest from a hostile peer", () => {
  it('one without params is skipped with a log, and the rest of the read still arrives', async () => {
    const { input, acp, order, logs } = setup();
    acp.connection.listen();
    input.write(`{"jsonrpc":"2.0","method":"$/cancelRequest"}\n${update(0)}\n`);
    await until(() => order.length === 1, 'the update after it');
    assert.ok(
      logs.some((l) => /could not handle a message from the peer/.test(l)),
      logs.join('\n'),
    );
    input.end();
    await acp.whenDrained();
    acp.connection.dispose();
  });

  it('one for a running request does not leave the dispatch count waiting forever', async () => {
    const { input, acp, order } = setup();
    let started = false;
    acp.connection.onRequest('x/slow', () => {
      started = true;
      return new Promise(() => undefined);
    });
    acp.connection.listen();
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'x/slow', params: {} }) + '\n');
    await until(() => started, 'x/slow running');
    // vscode-jsonrpc cancels the running request's token on the spot and never dispatches this one.
    input.write(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":5}}\n`);
    input.write(Array.from({ length: 10 }, (_, i) => update(i)).join('\n') + '\n');
    await until(() => order.length === 10, 'ten updates');
    assert.ok(acp.maxQueuedSeen <= 1, `saw ${acp.maxQueuedSeen} waiting`);
    input.end();
    await acp.whenDrained();
    acp.connection.dispose();
  });
});
