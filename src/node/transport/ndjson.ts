/**
 * NDJSON framing for vscode-jsonrpc: ACP stdio carries one JSON message per line, with no
 * `Content-Length` headers, so vscode-jsonrpc's own stream reader/writer cannot be used (DIGEST §2).
 *
 * Reader: splits on LF (a trailing CR is dropped), skips blank lines, refuses lines longer than
 * `maxMessageBytes` (default 32 MiB), nesting deeper than `maxNesting`, JSON arrays (batches) and
 * anything that is not a JSON-RPC envelope. A refused line is reported to `onInvalid` (with what it was
 * meant to be, so the connection can answer it) and skipped: one bad line from an agent (some print a
 * URL on stdout) must never take the connection down. `pause()`/`resume()` give backpressure.
 * The writer is ndjsonWriter.ts. Both sides call `tap(msg)` for every message they deliver/send, in
 * order (capture file, store).
 */
import type { Readable } from 'node:stream';
import { AbstractMessageReader, Disposable } from 'vscode-jsonrpc/node';
import type { DataCallback, Message, MessageReader } from 'vscode-jsonrpc/node';
import type { CheckedMessage } from '../../common/jsonrpc/rpc';
import { checkEnvelope, unsafeIdText, withInternalId } from './envelope';
import { MAX_NESTING } from '../../common/util/depth';
import { nestsDeeperThan, peerOf, TopLevelScanner } from './peek';
import type { PeerInfo } from './peek';

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** Deeper nesting is refused (see common/util/depth.ts). */
const DEFAULT_MAX_NESTING = MAX_NESTING;
const LF = 0x0a;

type InvalidKind = 'notJson' | 'batch' | 'notObject' | 'envelope' | 'oversized' | 'tooDeep';

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
        // The common case, whole lines inside this chunk: decoded together (one decoding per read, not per
        // line), unless some bytes were not UTF-8 (a skipped line's report then counts its own bytes).
        const last = data.lastIndexOf(LF);
        const text = last > nl && last - start <= this.max ? data.toString('utf8', start, last) : undefined;
        if (text !== undefined && !text.includes('\uFFFD')) {
          const rest = this.lines(text);
          if (rest !== undefined) {
            this.stash = Buffer.concat([Buffer.from(rest), data.subarray(last)]);
            return;
          }
          start = last + 1;
          continue;
        }
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

  /**
   * Each line of `text` (whole lines, each within the size limit). When a line paused the reader, returns
   * the text after it (re-read on resume). A LF byte is never part of a multi-byte character, so decoding
   * valid UTF-8 lines together gives each line exactly as decoding it alone would, and its bytes back.
   */
  private lines(text: string): string | undefined {
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      const line = nl < 0 ? text.slice(from) : text.slice(from, nl);
      if (line !== '') this.line(line);
      if (nl < 0) return undefined;
      from = nl + 1;
      if (this.paused) return text.slice(from);
    }
  }

  private startOversized(piece: Buffer): void {
    const scanner = new TopLevelScanner();
    for (const c of this.chunks) scanner.push(c);
    scanner.push(piece);
    const head = Buffer.concat([...this.chunks, piece])
      .subarray(0, 1000)
      .toString('utf8');
    this.chunks = [];
    this.size = 0;
    this.oversized = { scanner, head };
  }

  private endOversized(): void {
    const o = this.oversized;
    this.oversized = undefined;
    if (!o) return;
    this.report({
      text: o.head,
      reason: `message of ${o.scanner.bytes} bytes exceeds the limit of ${this.max} bytes`,
      kind: 'oversized',
      peer: o.scanner.result(),
      bytes: o.scanner.bytes,
    });
  }

  private flushLine(): void {
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    // Decoding whole lines keeps multi-byte characters intact across chunk boundaries.
    this.line(buf.toString('utf8'), buf.length);
  }

  /** One line (without its LF) of `bytes` bytes (counted when it is reported). */
  private line(text: string, size?: number): void {
    const line = text.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.report({ text: line, reason: 'not JSON', kind: 'notJson', peer: { kind: 'unknown', id: null }, bytes: size ?? Buffer.byteLength(text) });
      return;
    }
    // Each level of nesting takes two characters: a short line cannot nest too deep (nor cost a walk).
    if (line.length > 2 * this.maxNesting && nestsDeeperThan(value, this.maxNesting)) {
      this.report({
        text: line.slice(0, 1000),
        reason: `nested deeper than ${this.maxNesting} levels`,
        kind: 'tooDeep',
        peer: peerOf(value),
        bytes: size ?? Buffer.byteLength(text),
      });
      return;
    }
    const check = checkEnvelope(value);
    if (!check.ok) {
      const kind: InvalidKind = Array.isArray(value) ? 'batch' : typeof value === 'object' && value !== null ? 'envelope' : 'notObject';
      this.report({ text: line, reason: check.reason, kind, peer: peerOf(value), bytes: size ?? Buffer.byteLength(text) });
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
      this.callback?.(withInternalId(msg, unsafeIdText(msg, raw)));
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
