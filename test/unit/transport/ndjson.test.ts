import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import { NdjsonMessageReader } from '../../../src/node/transport/ndjson';
import { NdjsonMessageWriter } from '../../../src/node/transport/ndjsonWriter';
import type { InvalidLine } from '../../../src/node/transport/ndjson';

function setup(maxMessageBytes?: number) {
  const input = new PassThrough();
  const got: Message[] = [];
  const invalid: InvalidLine[] = [];
  const tapped: Message[] = [];
  const reader = new NdjsonMessageReader(input, {
    onInvalid: (l) => invalid.push(l),
    tap: (m) => tapped.push(m),
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
  });
  reader.listen((m) => got.push(m));
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  return { input, got, invalid, tapped, closed };
}

/** A message literal (vscode-jsonrpc's `Message` type names only `jsonrpc`). */
const m = (x: { jsonrpc: string; method?: string; params?: unknown }): Message => x;
const note = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { n } });

describe('NdjsonMessageReader', () => {
  it('reads one message per line, tolerating CRLF, blank lines and split chunks', async () => {
    const { input, got, tapped, closed } = setup();
    const text = `${note(1)}\r\n\n  \n${note(2)}\n`;
    // Feed byte by byte to exercise every split point.
    for (const b of Buffer.from(text)) input.write(Buffer.from([b]));
    input.end(note(3)); // no trailing newline: still a message
    await closed;
    assert.deepEqual(
      got.map((m) => (m as unknown as { params: { n: number } }).params.n),
      [1, 2, 3],
    );
    assert.equal(tapped.length, 3);
  });

  it('keeps multi-byte UTF-8 characters intact across chunk boundaries', async () => {
    const { input, got, closed } = setup();
    const line = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'héllo 🎉 日本' } }) + '\n');
    const cut = line.indexOf(Buffer.from('🎉')) + 2;
    input.write(line.subarray(0, cut));
    input.end(line.subarray(cut));
    await closed;
    assert.equal((got[0] as unknown as { params: { t: string } }).params.t, 'héllo 🎉 日本');
  });

  it('reports and skips non-JSON lines, batches, non-objects and invalid envelopes', async () => {
    const { input, got, invalid, closed } = setup();
    input.write('Listening on http://127.0.0.1:1234\n');
    input.write(`[${note(9)}]\n`);
    input.write('42\n');
    input.write('{"jsonrpc":"1.0","method":"x"}\n');
    input.write('{"jsonrpc":"2.0","id":1}\n');
    input.end(`${note(1)}\n`);
    await closed;
    assert.equal(got.length, 1);
    assert.deepEqual(
      invalid.map((i) => i.reason.split(':')[0]),
      ['not JSON', 'JSON-RPC batches are not supported', 'not a JSON-RPC message', 'malformed JSON-RPC notification', 'malformed JSON-RPC message'],
    );
    assert.equal(invalid[0]!.text, 'Listening on http://127.0.0.1:1234');
  });

  it('skips an oversized message and resumes at the next line', async () => {
    const { input, got, invalid, closed } = setup(100);
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'big', params: { s: 'x'.repeat(500) } });
    input.write(big.slice(0, 60));
    input.write(big.slice(60) + '\n' + note(7) + '\n');
    input.end();
    await closed;
    assert.equal(got.length, 1);
    assert.equal((got[0] as unknown as { method: string }).method, 'n');
    assert.equal(invalid.length, 1);
    assert.match(invalid[0]!.reason, /exceeds the limit of 100 bytes/);
  });
});

describe('NdjsonMessageWriter', () => {
  it('writes one JSON per line, in order, and taps each message', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const tapped: Message[] = [];
    const writer = new NdjsonMessageWriter(out, { tap: (m) => tapped.push(m) });
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const msgs = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', method: 'm', params: { i, s: 'line\nbreak' } }));
    await Promise.all(msgs.map((m) => writer.write(m)));
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 20);
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { params: { i: number } }).params.i),
      msgs.map((_, i) => i),
    );
    assert.equal(tapped.length, 20);
  });

  it('honours backpressure: while the stream asks to wait, later messages wait for drain, in order', async () => {
    const chunks: string[] = [];
    const callbacks: (() => void)[] = [];
    const out = new Writable({
      highWaterMark: 64,
      decodeStrings: false,
      write: (c: string, _e, cb) => {
        chunks.push(c);
        callbacks.push(() => cb());
      },
    });
    const writer = new NdjsonMessageWriter(out);
    const msg = (i: number) => ({ jsonrpc: '2.0', method: 'm', params: { i } });
    const sent: Promise<void>[] = [];
    for (let tick = 0; tick < 3; tick++) {
      for (let i = 0; i < 5; i++) sent.push(writer.write(msg(tick * 5 + i)));
      await new Promise<void>((r) => process.nextTick(r));
    }
    // The first tick's lines were one write, past the high-water mark: the next two ticks wait.
    assert.equal(chunks.length, 1);
    let settled = 0;
    for (const p of sent) void p.then(() => settled++);
    while (callbacks.length) {
      callbacks.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(sent);
    assert.equal(settled, 15);
    const lines = chunks.join('').trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { params: { i: number } }).params.i),
      Array.from({ length: 15 }, (_, i) => i),
    );
  });

  it('a failed write fails every message it carried, each reported once; later writes fail at once', async () => {
    const out = new Writable({ write: (_c, _e, cb) => cb(new Error('disk full')) });
    out.on('error', () => undefined);
    const writer = new NdjsonMessageWriter(out);
    const reported: unknown[] = [];
    writer.onError(([e, m]) => reported.push([e.message, (m as { params?: { i?: number } } | undefined)?.params?.i]));
    const a = writer.write({ jsonrpc: '2.0', method: 'm', params: { i: 1 } } as never);
    const b = writer.write({ jsonrpc: '2.0', method: 'm', params: { i: 2 } } as never);
    await assert.rejects(a, /disk full/);
    await assert.rejects(b, /disk full/);
    await assert.rejects(writer.write({ jsonrpc: '2.0', method: 'm', params: { i: 3 } } as never), /closed/);
    assert.deepEqual(
      reported.filter((r) => Array.isArray(r) && r[1] !== undefined),
      [
        ['disk full', 1],
        ['disk full', 2],
        ['cannot write: the output stream is closed', 3],
      ],
    );
  });

  it('a message that cannot be serialised fails alone and is not tapped; its neighbours go out', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const tapped: unknown[] = [];
    const writer = new NdjsonMessageWriter(out, { tap: (m) => tapped.push(m) });
    const ok1 = writer.write(m({ jsonrpc: '2.0', method: 'a' }));
    const bad = writer.write({ jsonrpc: '2.0', method: 'b', params: { n: 1n } } as never);
    const ok2 = writer.write(m({ jsonrpc: '2.0', method: 'c' }));
    await assert.rejects(bad, /cannot be serialised/);
    await Promise.all([ok1, ok2]);
    assert.deepEqual(
      text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { method: string }).method),
      ['a', 'c'],
    );
    assert.equal(tapped.length, 2);
  });

  it('end() sends what was written before it, then ends the stream', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const ended = new Promise((r) => out.on('end', r));
    const writer = new NdjsonMessageWriter(out);
    const p = writer.write(m({ jsonrpc: '2.0', method: 'last' }));
    writer.end();
    await p;
    await ended;
    assert.equal(text, '{"jsonrpc":"2.0","method":"last"}\n');
  });

  it('messages waiting for drain fail when the stream closes instead', async () => {
    const out = new Writable({ highWaterMark: 8, write: () => undefined });
    out.on('error', () => undefined);
    const writer = new NdjsonMessageWriter(out);
    // The first line never completes (this sink never calls back): the next one waits for drain.
    void writer.write(m({ jsonrpc: '2.0', method: 'first' }));
    await new Promise<void>((r) => process.nextTick(r));
    const waiting = writer.write(m({ jsonrpc: '2.0', method: 'waiting' }));
    await new Promise<void>((r) => process.nextTick(r));
    out.destroy();
    await assert.rejects(waiting, /closed/);
  });

  it('rejects writes after the stream ended, without breaking', async () => {
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    const errors: Error[] = [];
    writer.onError(([e]) => errors.push(e));
    writer.end();
    await new Promise((r) => setImmediate(r));
    await assert.rejects(writer.write({ jsonrpc: '2.0' }), /closed/);
    assert.equal(errors.length, 1);
  });
});

describe('NdjsonMessageWriter (property)', () => {
  it('writes every message as one line, in order, whatever their sizes, characters and ticks', async () => {
    const fc = await import('fast-check');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ text: fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme', minLength: 20_000, maxLength: 40_000 })), tick: fc.boolean() }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (items) => {
          const out = new PassThrough();
          const got: Buffer[] = [];
          out.on('data', (c: Buffer) => got.push(c));
          const writer = new NdjsonMessageWriter(out);
          const sent: Promise<void>[] = [];
          for (const [i, it] of items.entries()) {
            sent.push(writer.write(m({ jsonrpc: '2.0', method: 'm', params: { i, t: it.text } })));
            if (it.tick) await new Promise<void>((r) => process.nextTick(r));
          }
          await Promise.all(sent);
          const lines = Buffer.concat(got).toString('utf8').split('\n');
          assert.equal(lines.pop(), '');
          assert.deepEqual(
            lines.map((l) => JSON.parse(l) as unknown),
            items.map((it, i) => ({ jsonrpc: '2.0', method: 'm', params: { i, t: it.text } })),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('NdjsonMessageReader (decoding)', () => {
  it('reads the same texts from a read of whole lines as byte by byte, invalid UTF-8 and cut characters included', async () => {
    // Lines are decoded one read at a time, not one line at a time: the replacement characters of invalid
    // sequences (a cut three-byte character, a lone 0xff, a lead byte right before the LF) must not move.
    const line = (t: Buffer) => Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"m","params":{"t":"'), t, Buffer.from('"}}\n')]);
    const bytes = Buffer.concat([
      line(Buffer.from('naïve 🙂 ok')),
      line(Buffer.from([0xe2, 0x82])),
      line(Buffer.from([0x61, 0xff, 0x62])),
      Buffer.from([0x6e, 0x6f, 0xc3, 0x0a]),
      line(Buffer.from('€')),
    ]);
    const read = async (cuts: Buffer[]) => {
      const { input, got, invalid, closed } = setup();
      for (const c of cuts) input.write(c);
      input.end();
      await closed;
      return { texts: got.map((x) => (x as unknown as { params: { t: string } }).params.t), invalid: invalid.map((l) => [l.text, l.bytes]) };
    };
    const whole = await read([bytes]);
    assert.deepEqual(whole, await read([...bytes].map((b) => Buffer.from([b]))));
    assert.deepEqual(whole.texts, ['naïve 🙂 ok', '\ufffd', 'a\ufffdb', '€']);
    assert.deepEqual(whole.invalid, [['no\ufffd', 3]]);
  });
});

describe('NdjsonMessageReader (pausing)', () => {
  it('paused by a line in the middle of a read, hands on the rest of that read, in order, once resumed', async () => {
    const input = new PassThrough();
    const got: string[] = [];
    const reader: NdjsonMessageReader = new NdjsonMessageReader(input, {
      tap: (x) => {
        const t = (x as unknown as { params: { t: string } }).params.t;
        got.push(t);
        if (t === 'b') reader.pause();
      },
    });
    reader.listen(() => undefined);
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    const line = (t: string) => JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { t } }) + '\n';
    // One read of whole lines and the start of the next one, with multi-byte characters after the pause.
    const bytes = Buffer.from(line('a') + line('b') + line('日本') + line('🙂') + line('c'));
    input.write(bytes.subarray(0, bytes.length - 5));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, ['a', 'b']);
    assert.ok(reader.isPaused);
    reader.resume();
    assert.deepEqual(got, ['a', 'b', '日本', '🙂']);
    input.end(bytes.subarray(bytes.length - 5));
    await closed;
    assert.deepEqual(got, ['a', 'b', '日本', '🙂', 'c']);
  });
});

describe('NdjsonMessageReader (property)', () => {
  it('delivers the same messages however the bytes are chunked, with junk lines in between', async () => {
    const fc = await import('fast-check');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ text: fc.string({ unit: 'grapheme' }), junk: fc.boolean(), crlf: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 10 }),
        async (items, cuts) => {
          const { input, got, invalid, closed } = setup();
          const text = items
            .map((it, i) => (it.junk ? 'not json here\n' : '') + JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { i, t: it.text } }) + (it.crlf ? '\r\n' : '\n'))
            .join('');
          const bytes = Buffer.from(text);
          let pos = 0;
          for (let k = 0; pos < bytes.length; k++) {
            const n = cuts[k % cuts.length]!;
            input.write(bytes.subarray(pos, pos + n));
            pos += n;
          }
          input.end();
          await closed;
          assert.deepEqual(
            got.map((m) => (m as unknown as { params: { t: string } }).params.t),
            items.map((it) => it.text),
          );
          assert.equal(invalid.length, items.filter((it) => it.junk).length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
