/**
 * NDJSON framing for vscode-jsonrpc: ACP stdio carries one JSON message per line, with no
 * `Content-Length` headers, so vscode-jsonrpc's own stream reader/writer cannot be used (DIGEST §2).
 *
 * Reader: splits on LF (a trailing CR is dropped), skips blank lines, refuses lines longer than
 * `maxMessageBytes` (default 32 MiB), nesting deeper than `maxNesting`, JSON arrays (batches) and
 * anything that is not a JSON-RPC envelope. A refused line is reported to `onInvalid` (with what it was
 * meant to be, so the connection can answer it) and skipped: one bad line from an agent (some print a
 * URL on stdout) must never take the connection down. `pause()`/`resume()` give backpressure.
 * Writer: `JSON.stringify(msg) + "\n"`, strictly one message after another, honouring backpressure.
 * Both sides call `tap(msg)` for every message they deliver/send, in order (capture file, store).
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc/node';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';
import type { CheckedMessage } from '../../common/store/rpc';
import { checkEnvelope, withInternalId, withWireId } from './envelope';
import { nestsDeeperThan, peerOf, TopLevelScanner } from './peek';
import type { PeerInfo } from './peek';

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/**
 * Deeper nesting is refused: `JSON.parse` copes with any depth, but `JSON.stringify`, structured
 * clone (webview posts) and recursive code downstream overflow the stack somewhere past a few
 * thousand levels. Real ACP messages stay far below this.
 */
export const DEFAULT_MAX_NESTING = 256;
const LF = 0x0a;

export type InvalidKind = 'notJson' | 'batch' | 'notObject' | 'envelope' | 'oversized' | 'tooDeep';

export interface InvalidLine {
  /** The offending line (truncated to 1000 chars for oversized lines). */
  readonly text: string;
  readonly reason: string;
  readonly kind: InvalidKind;
  /** What the line was meant to be, when that can be told: lets the connection answer it. */
  readonly peer: PeerInfo;
  /** The line's size in bytes. */
  readonly bytes: number;
}

export interface NdjsonReaderOptions {
  maxMessageBytes?: number;
  maxNesting?: number;
  onInvalid?: (line: InvalidLine) => void;
  /**
   * Every delivered message with the exact line it was read from (so a capture need not re-serialise it)
   * and the result of its one envelope check (so the store need not check it again).
   */
  tap?: (msg: Message, raw: string, checked: CheckedMessage | undefined) => void;
  /**
   * After `tap`: handles the message on the spot and returns true, or returns false to hand it to
   * vscode-jsonrpc's queue (the connection dispatches hot notifications itself: `connection.ts`).
   */
  dispatch?: (msg: Message, checked: CheckedMessage | undefined) => boolean;
  /** Decides, before `tap`, whether a valid message is delivered now (false: the caller keeps or drops it). */
  accept?: (msg: Message, raw: string) => boolean;
  /** A `tap` threw: the message is still delivered. */
  onTapError?: (err: unknown, msg: Message) => void;
  /** Handing the message on threw: it is lost, the rest of the input is still read. */
  onDeliverError?: (err: unknown, msg: Message) => void;
}

export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly max: number;
  private readonly maxNesting: number;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while skipping the rest of an oversized line: reads its top-level id as the bytes go by. */
  private oversized: { scanner: TopLevelScanner; head: string } | undefined;
  private callback: DataCallback | undefined;
  private closed = false;
  /** Backpressure: while paused, unread input waits here (at most one chunk) and the stream is paused. */
  private paused = false;
  private stash: Buffer | undefined;
  private ended = false;
  private readonly detach: () => void;

  constructor(
    private readonly input: Readable,
    private readonly options: NdjsonReaderOptions = {},
  ) {
    super();
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxNesting = options.maxNesting ?? DEFAULT_MAX_NESTING;
    const onData = (data: Buffer | string) => this.push(typeof data === 'string' ? Buffer.from(data) : data);
    const onEnd = () => {
      this.ended = true;
      if (!this.paused) this.finish();
    };
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
    if (!this.paused) this.input.resume();
    return Disposable.create(() => {
      this.callback = undefined;
    });
  }

  /**
   * Stops delivering messages (and reading the stream) until `resume()`: the connection calls it while
   * its dispatch queue is long, so a flooding agent is slowed down by the pipe instead of growing memory.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.input.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const rest = this.stash;
    this.stash = undefined;
    if (rest) this.push(rest);
    if (this.paused) return; // paused again while delivering the stashed bytes
    if (this.ended) this.finish();
    else if (this.callback) this.input.resume();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  override dispose(): void {
    this.detach();
    super.dispose();
  }

  private push(data: Buffer): void {
    if (this.paused) {
      this.stash = this.stash ? Buffer.concat([this.stash, data]) : data;
      return;
    }
    let start = 0;
    for (;;) {
      const nl = data.indexOf(LF, start);
      const end = nl < 0 ? data.length : nl;
      if (this.oversized) this.oversized.scanner.push(data.subarray(start, end));
      else if (this.size + end - start > this.max) this.startOversized(data.subarray(start, end));
      else if (nl >= 0 && this.size === 0) {
        // The common case, a whole line inside this chunk: decoded in place, no copy or slice of the bytes.
        if (end > start) this.line(data.toString('utf8', start, end), end - start);
      } else if (end > start) {
        this.chunks.push(data.subarray(start, end));
        this.size += end - start;
      }
      if (nl < 0) return;
      if (this.oversized) this.endOversized();
      else if (this.size > 0) this.flushLine();
      start = nl + 1;
      if (this.paused && start < data.length) {
        this.stash = data.subarray(start);
        return;
      }
    }
  }

  private startOversized(piece: Buffer): void {
    const scanner = new TopLevelScanner();
    for (const c of this.chunks) scanner.push(c);
    scanner.push(piece);
    const head = Buffer.concat([...this.chunks, piece]).subarray(0, 1000).toString('utf8');
    this.chunks = [];
    this.size = 0;
    this.oversized = { scanner, head };
  }

  private endOversized(): void {
    const o = this.oversized;
    this.oversized = undefined;
    if (!o) return;
    this.report({ text: o.head, reason: `message of ${o.scanner.bytes} bytes exceeds the limit of ${this.max} bytes`, kind: 'oversized', peer: o.scanner.result(), bytes: o.scanner.bytes });
  }

  private flushLine(): void {
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    // Decoding whole lines keeps multi-byte characters intact across chunk boundaries.
    this.line(buf.toString('utf8'), buf.length);
  }

  /** One line (without its LF) of `bytes` bytes. */
  private line(text: string, bytes: number): void {
    const line = text.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.report({ text: line, reason: 'not JSON', kind: 'notJson', peer: { kind: 'unknown', id: null }, bytes });
      return;
    }
    // Each level of nesting takes two characters: a short line cannot nest too deep (nor cost a walk).
    if (line.length > 2 * this.maxNesting && nestsDeeperThan(value, this.maxNesting)) {
      this.report({ text: line.slice(0, 1000), reason: `nested deeper than ${this.maxNesting} levels`, kind: 'tooDeep', peer: peerOf(value), bytes });
      return;
    }
    const check = checkEnvelope(value);
    if (!check.ok) {
      const kind: InvalidKind = Array.isArray(value) ? 'batch' : typeof value === 'object' && value !== null ? 'envelope' : 'notObject';
      this.report({ text: line, reason: check.reason, kind, peer: peerOf(value), bytes });
      return;
    }
    if (this.options.accept && !this.options.accept(check.message, line)) return;
    this.deliver(check.message, line, check.checked);
  }

  /**
   * Taps and hands on one message (the connection also uses it for messages it held back or made up;
   * `checked` is then looked up again when not given).
   */
  deliver(msg: Message, raw: string, checked?: CheckedMessage): void {
    const c = checked ?? checkedOf(msg);
    // A hook that throws must not cost the message its delivery (nor the rest of this read).
    try {
      this.options.tap?.(msg, raw, c);
    } catch (err) {
      this.options.onTapError?.(err, msg);
    }
    if (this.options.dispatch?.(msg, c)) return;
    // vscode-jsonrpc's callback can throw on input it does not expect (a `$/cancelRequest` without
    // params): that costs this message, never the rest of the read.
    try {
      this.callback?.(withInternalId(msg));
    } catch (err) {
      this.options.onDeliverError?.(err, msg);
    }
  }

  private report(line: InvalidLine): void {
    this.options.onInvalid?.(line);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    // A last line without a trailing newline is still a message.
    if (this.oversized) this.endOversized();
    else if (this.size > 0) this.flushLine();
    this.fireClose();
  }
}

function checkedOf(msg: Message): CheckedMessage | undefined {
  const c = checkEnvelope(msg);
  return c.ok ? c.checked : undefined;
}

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
    const msg = withWireId(internal);
    this.options.onWrite?.(msg);
    // The stream itself is checked once per batch (a batch whose stream closed meanwhile fails as a whole).
    if (this.ended) return this.failed(new Error('cannot write: the output stream is closed'), msg);
    let raw: string;
    try {
      raw = JSON.stringify(msg);
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
