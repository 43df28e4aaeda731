/**
 * The writing half of the NDJSON framing (the reading half is ndjson.ts): `JSON.stringify(msg) + "\n"`
 * per message, strictly one message after another, honouring backpressure; `tap(msg, raw)` for every
 * message it accepts, in order.
 */
import type { Writable } from 'node:stream';
import { AbstractMessageWriter } from 'vscode-jsonrpc/node';
import type { Message, MessageWriter } from 'vscode-jsonrpc/node';
import { wireText, withWireId } from './envelope';

const LF = 0x0a;

export interface NdjsonWriterOptions {
  /** Every message as it is written, with its serialised line (without the newline). */
  tap?: (msg: Message, raw: string) => void;
  onTapError?: (err: unknown, msg: Message) => void;
  /** Called synchronously when a message is handed to `write()`, before it is queued. */
  onWrite?: (msg: Message) => void;
  /** End the output stream when the connection ends (default true: closing stdin tells the agent to stop). */
  endStream?: boolean;
}

/**
 * Batches are encoded into a shared slab (as Node's own Buffer pool does): each batch takes the bytes
 * after the previous one and hands its own slice to the stream, never written again; a new slab is
 * taken when one is full. A line longer than LONG_LINE_BYTES goes to the stream as its own string.
 */
const SLAB_BYTES = 1 << 18;
const LONG_LINE_BYTES = 1 << 16;

/** Lines handed to the stream in one `write` call, and who waits for them. */
interface Batch {
  /** The slab holding the lines, from `start` to `end` (no string joining, no copy when handed over). */
  readonly slab: Buffer;
  readonly start: number;
  end: number;
  /** A long line, sent as its own string. */
  big: string | undefined;
  readonly msgs: Message[];
  readonly done: Promise<void>;
  settle: (err: Error | null | undefined) => void;
}

/**
 * Writes each message as one line. Messages written in the same tick are encoded into one buffer as
 * they come and go to the stream as one chunk (one `write` call, so one syscall on a pipe) at the end
 * of the tick: a promise per message, a stream write per message, waiting for each one's callback, or
 * joining strings and encoding them again, cost 2-8x the `JSON.stringify` itself.
 * - Order: lines reach the stream in `write()` order (one batch after another, each in call order).
 * - Backpressure: when the stream asks to wait (`write` returns false), later batches wait for `drain`.
 * - Errors: every message of a batch whose write fails gets that error (its promise rejects and
 *   `onError` fires for it); a message that cannot be serialised, or is written after `end()`, fails
 *   alone and at once, and is never tapped.
 * `tap` sees each message as it is accepted, in the order the lines reach the stream.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  /** The batch being collected in this tick. */
  private batch: Batch | undefined;
  private slab: Buffer = EMPTY;
  /** Bytes of `slab` already handed to batches. */
  private slabUsed = 0;
  /** Batches collected while the stream asked to wait, in order. */
  private readonly waiting: Batch[] = [];
  private blocked = false;
  private errorCount = 0;
  private ended = false;

  constructor(
    private readonly output: Writable,
    private readonly options: NdjsonWriterOptions = {},
  ) {
    super();
    output.on('error', (err) => this.fireError(err));
    output.on('close', () => {
      // No 'drain' comes any more: what waited for it fails instead of waiting forever.
      for (const b of this.waiting.splice(0)) this.settle(b, new Error('cannot write: the output stream is closed'));
      this.fireClose();
    });
  }

  write(internal: Message): Promise<void> {
    // Requests and notifications (most messages) carry no private id: only a response's id may need turning back.
    const msg = 'method' in internal ? internal : withWireId(internal);
    this.options.onWrite?.(msg);
    // The stream itself is checked once per batch (a batch whose stream closed meanwhile fails as a whole).
    if (this.ended) return this.failed(new Error('cannot write: the output stream is closed'), msg);
    let raw: string;
    try {
      raw = msg === internal ? JSON.stringify(msg) : wireText(internal, msg);
    } catch (err) {
      return this.failed(new Error(`cannot send a message that cannot be serialised: ${err instanceof Error ? err.message : String(err)}`), msg);
    }
    try {
      this.options.tap?.(msg, raw);
    } catch (err) {
      this.options.onTapError?.(err, msg);
    }
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: whether the line fits is known without encoding it.
    const most = raw.length * 3 + 1;
    if (most > LONG_LINE_BYTES) {
      // A long line goes to the stream as its own string, after what was collected before it.
      this.flush();
      const b = newBatch(EMPTY, 0);
      b.big = raw + '\n';
      b.msgs.push(msg);
      this.batch = b;
      this.flush();
      return b.done;
    }
    let b = this.batch;
    if (b && b.end + most > b.slab.length) {
      this.flush();
      b = undefined;
    }
    if (!b) {
      if (this.output.destroyed || this.output.writableEnded) return this.failed(new Error('cannot write: the output stream is closed'), msg);
      if (this.slabUsed + most > this.slab.length) {
        this.slab = Buffer.allocUnsafe(SLAB_BYTES);
        this.slabUsed = 0;
      }
      b = this.batch = newBatch(this.slab, this.slabUsed);
      process.nextTick(() => this.flush());
    }
    b.end += b.slab.write(raw, b.end, 'utf8');
    b.slab[b.end++] = LF;
    b.msgs.push(msg);
    return b.done;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.flush();
    if (this.options.endStream !== false && !this.blocked) this.output.end();
  }

  /** Hands the collected batch to the stream, or queues it while the stream asks to wait. */
  private flush(): void {
    const b = this.batch;
    if (!b) return;
    this.batch = undefined;
    if (b.slab === this.slab) this.slabUsed = b.end;
    if (this.blocked) this.waiting.push(b);
    else this.send(b);
  }

  private send(b: Batch): void {
    if (this.output.destroyed || this.output.writableEnded) {
      this.settle(b, new Error('cannot write: the output stream is closed'));
      return;
    }
    const cb = (err: Error | null | undefined) => this.settle(b, err);
    // The bytes handed over are never written to again: later batches take the bytes after them.
    const more = b.big !== undefined ? this.output.write(b.big, 'utf8', cb) : this.output.write(b.slab.subarray(b.start, b.end), cb);
    if (more) return;
    this.blocked = true;
    this.output.once('drain', () => {
      this.blocked = false;
      while (!this.blocked) {
        const next = this.waiting.shift();
        if (!next) break;
        this.send(next);
      }
      if (this.ended && !this.blocked && this.options.endStream !== false) this.output.end();
    });
  }

  private settle(b: Batch, err: Error | null | undefined): void {
    if (err) for (const m of b.msgs) this.fireError(err, m, ++this.errorCount);
    b.settle(err);
  }

  private failed(err: Error, msg: Message): Promise<void> {
    this.fireError(err, msg, ++this.errorCount);
    return Promise.reject(err);
  }
}

const EMPTY = Buffer.alloc(0);

function newBatch(slab: Buffer, start: number): Batch {
  let settle: (err: Error | null | undefined) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = (err) => (err ? reject(err) : resolve());
  });
  // Nobody may be waiting on a batch (notifications are often fire-and-forget): its failure is already
  // reported through onError, so it must not also surface as an unhandled rejection.
  done.catch(() => undefined);
  return { slab, start, end: start, big: undefined, msgs: [], done, settle };
}
