/**
 * Issue 11, "Done when": random byte streams (split anywhere, with garbage lines, invalid UTF-8, deep
 * nesting, huge lines and batches between the real messages) go through the transport, the capture
 * writer and the message store. Nothing throws, and every well-formed message in the stream is
 * delivered exactly once, in order: to the handler, to the tap, to the capture file and to the store.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MessageStore } from '../../../src/common/store';
import { CaptureFile } from '../../../src/node/capture/captureFile';
import { createAcpConnection } from '../../../src/node/transport/connection';

const MAX_BYTES = 4096;
const MAX_NESTING = 64;

type Item =
  | { kind: 'chunk'; text: string }
  | { kind: 'request'; text: string }
  | { kind: 'garbage'; bytes: Uint8Array }
  | { kind: 'deep'; depth: number; asRequest: boolean }
  | { kind: 'huge'; size: number; asRequest: boolean }
  | { kind: 'batch' };

const noNewline = (b: Uint8Array) => Uint8Array.from(b).map((x) => (x === 0x0a ? 0x20 : x));
/** Random text, but never "<m" so the markers stay unique. */
const text = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/<m/g, '<_'));

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('chunk' as const), text }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('request' as const), text }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('garbage' as const), bytes: fc.uint8Array({ maxLength: 60 }).map(noNewline) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: MAX_NESTING + 1, max: 6000 }), asRequest: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge' as const), size: fc.integer({ min: MAX_BYTES, max: 3 * MAX_BYTES }), asRequest: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'batch' as const }) },
);

function lineOf(it: Item, n: number): string {
  const marker = `<m${n}>`;
  switch (it.kind) {
    case 'chunk':
      return JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: marker + it.text } } },
      });
    case 'request':
      return JSON.stringify({ jsonrpc: '2.0', id: `r${n}`, method: 'test/echo', params: { marker, text: it.text } });
    case 'garbage':
      return ''; // written as raw bytes
    case 'deep': {
      const nest = '['.repeat(it.depth) + ']'.repeat(it.depth);
      return it.asRequest
        ? `{"jsonrpc":"2.0","id":"d${n}","method":"test/echo","params":{"x":${nest}}}`
        : `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","x":${nest}}}`;
    }
    case 'huge':
      return it.asRequest
        ? JSON.stringify({ jsonrpc: '2.0', method: 'test/echo', params: { pad: 'x'.repeat(it.size) }, id: `h${n}` })
        : JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', pad: 'y'.repeat(it.size) } });
    case 'batch':
      return JSON.stringify([{ jsonrpc: '2.0', method: 'test/echo', id: `b${n}`, params: {} }]);
  }
}

describe('hostile byte streams (property)', () => {
  it('nothing throws and every well-formed message is delivered exactly once, in order', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'acp-prop-'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ item, crlf: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 12 }),
        async (items, cuts) => {
          const input = new PassThrough();
          const output = new PassThrough();
          let written = '';
          output.on('data', (c: Buffer) => (written += c.toString('utf8')));
          const capture = CaptureFile.at(path.join(dir, `run-${run++}.jsonl`), (m) => assert.fail(m));
          const store = new MessageStore();
          const tapped: string[] = [];
          const acp = createAcpConnection({
            input,
            output,
            maxMessageBytes: MAX_BYTES,
            maxNesting: MAX_NESTING,
            maxQueued: 8,
            tap: (direction, msg, raw) => {
              const d = direction === 'in' ? 'agent->client' : 'client->agent';
              if (direction === 'in') tapped.push(raw);
              capture.write(d, msg, undefined, raw);
              store.ingest(d, msg);
            },
          });
          const chunks: string[] = [];
          const requests: string[] = [];
          acp.connection.onNotification('session/update', (p: { update?: { content?: { text?: string } } }) => void chunks.push(p.update?.content?.text ?? '(other)'));
          acp.connection.onRequest('test/echo', (p: { marker: string }) => {
            requests.push(p.marker);
            return { echoed: p.marker };
          });
          acp.connection.listen();

          const parts: Buffer[] = [];
          const expectChunks: string[] = [];
          const expectRequests: string[] = [];
          items.forEach(({ item: it, crlf }, n) => {
            parts.push(it.kind === 'garbage' ? Buffer.from(it.bytes) : Buffer.from(lineOf(it, n)));
            parts.push(Buffer.from(crlf ? '\r\n' : '\n'));
            if (it.kind === 'chunk') expectChunks.push(`<m${n}>${it.text}`);
            if (it.kind === 'request') expectRequests.push(`<m${n}>`);
          });
          const bytes = Buffer.concat(parts);
          for (let pos = 0, k = 0; pos < bytes.length; k++) {
            const size = cuts[k % cuts.length]!;
            input.write(bytes.subarray(pos, pos + size));
            pos += size;
          }
          input.end();
          await new Promise<void>((resolve) => acp.connection.onClose(() => resolve()));
          await acp.whenDrained();
          // Answers are written asynchronously: wait until every expected reply is out.
          const expectedReplies =
            expectRequests.length +
            items.filter(({ item: it }) => it.kind === 'batch' || (it.kind !== 'chunk' && it.kind !== 'request' && it.kind !== 'garbage' && it.asRequest)).length;
          await new Promise<void>((resolve) => {
            const check = () => (written.split('\n').length - 1 >= expectedReplies ? resolve() : setImmediate(check));
            check();
          });

          // Handlers: each well-formed message exactly once, in order.
          assert.deepEqual(chunks, expectChunks);
          assert.deepEqual(requests, expectRequests);
          // Tap: exactly the well-formed messages.
          assert.equal(tapped.length, expectChunks.length + expectRequests.length);
          // Replies: every request answered once; refused requests and batches get -32600.
          const replies = written
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { id: unknown; result?: { echoed: string }; error?: { code: number } });
          assert.equal(replies.length, expectedReplies);
          assert.deepEqual(
            replies.filter((r) => r.result).map((r) => r.result!.echoed),
            expectRequests,
          );
          assert.ok(replies.filter((r) => r.error).every((r) => r.error!.code === -32600));
          // Capture: every record is one JSON line; each marker is recorded exactly once per direction.
          const records = (existsSync(capture.path) ? readFileSync(capture.path, 'utf8') : '')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { dir: string; msg: unknown });
          for (const m of [...expectChunks.map((c) => /^<m\d+>/.exec(c)![0]), ...expectRequests]) {
            assert.equal(records.filter((r) => r.dir === 'agent->client' && JSON.stringify(r.msg).includes(JSON.stringify(m).slice(1, -1))).length, 1, `${m} recorded once`);
          }
          // Store: the streamed text, each chunk exactly once, in order.
          const textInStore = store
            .sessions()
            .flatMap((s) => s.entries.flatMap((e) => ('content' in e ? (e.content as unknown as { text?: string }[]).map((b) => b.text ?? '') : [])))
            .join('');
          assert.equal(textInStore, expectChunks.join(''));
          acp.connection.dispose();
        },
      ),
      { numRuns: 60 },
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
