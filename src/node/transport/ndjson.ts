/**
 * NDJSON framing for vscode-jsonrpc: ACP stdio carries one JSON message per line, with no
 * `Content-Length` headers, so vscode-jsonrpc's own stream reader/writer cannot be used (DIGEST §2).
 *
 * Reader: splits on LF (a trailing CR is dropped), skips blank lines, refuses lines longer than
 * `maxMessageBytes` (default 32 MiB), JSON arrays (batches) and anything that is not a JSON-RPC
 * envelope. A refused line is reported to `onInvalid` and skipped: one bad line from an agent (some
 * print a URL on stdout) must never take the connection down.
 * Writer: `JSON.stringify(msg) + "\n"`, strictly one message after another, honouring backpressure.
 * Both sides call `tap(msg)` for every message they deliver/send, in order (capture file, store).
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc/node';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';
import { checkEnvelope, withInternalId, withWireId } from './envelope';

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
const LF = 0x0a;

export interface InvalidLine {
  /** The offending line (truncated to 1000 chars for oversized lines). */
  readonly text: string;
  readonly reason: string;
}

export interface NdjsonReaderOptions {
  maxMessageBytes?: number;
  onInvalid?: (line: InvalidLine) => void;
  tap?: (msg: Message) => void;
}

export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly max: number;
  private chunks: Buffer[] = [];
  private size = 0;
  /** True while skipping the rest of an oversized line. */
  private discarding = false;
  private callback: DataCallback | undefined;
  private closed = false;
  private readonly detach: () => void;

  constructor(
    private readonly input: Readable,
    private readonly options: NdjsonReaderOptions = {},
  ) {
    super();
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const onData = (data: Buffer | string) => this.push(typeof data === 'string' ? Buffer.from(data) : data);
    const onEnd = () => this.finish();
    const onError = (err: Error) => this.fireError(err);
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    input.on('error', onError);
    // Data is only consumed once someone listens; until then the stream stays paused.
    input.pause();
    this.detach = () => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('close', onEnd);
      input.off('error', onError);
    };
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    this.input.resume();
    return Disposable.create(() => {
      this.callback = undefined;
    });
  }

  override dispose(): void {
    this.detach();
    super.dispose();
  }

  private push(data: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = data.indexOf(LF, start);
      const end = nl < 0 ? data.length : nl;
      if (!this.discarding) {
        const piece = data.subarray(start, end);
        if (this.size + piece.length > this.max) {
          const head = Buffer.concat([...this.chunks, piece]).subarray(0, 1000).toString('utf8');
          this.report(head, `message exceeds ${this.max} bytes`);
          this.chunks = [];
          this.size = 0;
          this.discarding = true;
        } else if (piece.length > 0) {
          this.chunks.push(piece);
          this.size += piece.length;
        }
      }
      if (nl < 0) return;
      if (this.discarding) this.discarding = false;
      else this.flushLine();
      start = nl + 1;
    }
  }

  private flushLine(): void {
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    // Decoding whole lines keeps multi-byte characters intact across chunk boundaries.
    const line = buf.toString('utf8').trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.report(line, 'not JSON');
      return;
    }
    const check = checkEnvelope(value);
    if (!check.ok) {
      this.report(line, check.reason);
      return;
    }
    this.options.tap?.(check.message);
    this.callback?.(withInternalId(check.message));
  }

  private report(text: string, reason: string): void {
    this.options.onInvalid?.({ text, reason });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    // A last line without a trailing newline is still a message.
    if (!this.discarding && this.size > 0) this.flushLine();
    this.fireClose();
  }
}

export interface NdjsonWriterOptions {
  tap?: (msg: Message) => void;
  /** End the output stream when the connection ends (default true: closing stdin tells the agent to stop). */
  endStream?: boolean;
}

export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  /** Serialises writes: each message is fully handed to the stream before the next starts. */
  private queue: Promise<void> = Promise.resolve();
  private errorCount = 0;
  private ended = false;

  constructor(
    private readonly output: Writable,
    private readonly options: NdjsonWriterOptions = {},
  ) {
    super();
    output.on('error', (err) => this.fireError(err));
    output.on('close', () => this.fireClose());
  }

  write(internal: Message): Promise<void> {
    const msg = withWireId(internal);
    const run = async () => {
      if (this.ended || this.output.destroyed || this.output.writableEnded) {
        throw new Error('cannot write: the output stream is closed');
      }
      const text = JSON.stringify(msg) + '\n';
      this.options.tap?.(msg);
      await new Promise<void>((resolve, reject) => {
        this.output.write(text, 'utf8', (err) => (err ? reject(err) : resolve()));
      });
    };
    const p = this.queue.then(run);
    // A failed write must not poison the queue for later messages.
    this.queue = p.catch(() => undefined);
    return p.catch((err: unknown) => {
      this.errorCount++;
      this.fireError(err, msg, this.errorCount);
      throw err;
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.options.endStream !== false) void this.queue.then(() => this.output.end());
  }
}
