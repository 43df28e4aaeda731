import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import { createAcpConnection, onAcpRequest } from '../../../src/node/transport/connection';
import { until } from '../../helpers/until.mjs';

function pair() {
  const ab = new PassThrough();
  const ba = new PassThrough();
  const seenByB: unknown[] = [];
  const a = createAcpConnection({ input: ba, output: ab });
  const b = createAcpConnection({ input: ab, output: ba, tap: (dir, m) => dir === 'in' && seenByB.push(m) });
  return { a, b, seenByB };
}

describe('ACP cancellation strategy', () => {
  it('sends $/cancel_request {requestId} and the receiving handler answers -32800', async () => {
    const { a, b, seenByB } = pair();
    let aborted = false;
    let started = false;
    onAcpRequest(
      b,
      '_test/slow',
      z.object({}),
      (_p, ctx) =>
        new Promise((_resolve, reject) => {
          started = true;
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('stopped'));
          });
        }),
    );
    a.connection.listen();
    b.connection.listen();
    const source = new CancellationTokenSource();
    const p = a.connection.sendRequest('_test/slow', {}, source.token);
    await until(() => started, 'the request to reach its handler');
    source.cancel();
    await assert.rejects(p, (e: unknown) => (e as { code?: number }).code === -32800);
    assert.equal(aborted, true);
    const cancel = seenByB.find((m) => (m as { method?: string }).method === '$/cancel_request') as { params: unknown } | undefined;
    assert.deepEqual(cancel?.params, { requestId: 0 });
    assert.ok(!seenByB.some((m) => (m as { method?: string }).method === '$/cancelRequest'));
    a.connection.dispose();
    b.connection.dispose();
  });

  it('answers an empty result as {} (not null) and invalid params as -32602', async () => {
    const { a, b } = pair();
    onAcpRequest(b, '_test/empty', z.object({ n: z.number() }), () => undefined);
    a.connection.listen();
    b.connection.listen();
    assert.deepEqual(await a.connection.sendRequest('_test/empty', { n: 1 }), {});
    await assert.rejects(a.connection.sendRequest('_test/empty', { n: 'x' }), (e: unknown) => (e as { code?: number }).code === -32602);
    a.connection.dispose();
    b.connection.dispose();
  });
});
