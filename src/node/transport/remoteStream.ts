/**
 * An SDK message stream (`@agentclientprotocol/sdk`'s WebSocket or Streamable HTTP client: a
 * `ReadableStream` of parsed messages and a `WritableStream` taking them) seen as the byte streams the
 * stdio transport reads and writes, so one AcpClient, with every defence of ndjson.ts and connection.ts
 * (size and depth limits, envelope checks, duplicate ids, backpressure), serves local and remote agents alike.
 * Over WebSocket the messages come as the text frames themselves (`frames`: no parse here, one in the reader).
 *
 * Reading is eager: the SDK's clients fail their readable with `controller.error()` when the connection
 * drops, and a `ReadableStream` discards what it still queued then (the Streamable HTTP client loses session
 * messages it had received that way). So every message is taken off the SDK's queue as soon as it arrives
 * and waits here instead; memory stays bounded by `flow` (the WebSocket is paused, so TCP holds the agent
 * back) or, where nothing can be paused (the HTTP client reads its event streams regardless), by
 * `maxBufferedBytes`, past which the connection is closed as a flooding agent's would be.
 */
import { Readable, Writable } from 'node:stream';
import { errorText } from '../../common/util/errors';

/** The SDK's `Stream` shape (core/stream.d.ts), structurally: no SDK type leaks past this file. */
export interface MessageStream {
  readonly readable: ReadableStream<unknown>;
  readonly writable: WritableStream<unknown>;
}

/** Holds the sender back (the WebSocket's pause/resume) while our side is behind. */
interface Flow {
  pause(): void;
  resume(): void;
}

export interface BridgeOptions {
  readonly flow?: Flow;
  /** Unread input kept before `flow` pauses (default 1 MiB). */
  readonly highWaterBytes?: number;
  /** Without `flow`: unread input past this closes the connection (default 64 MiB). */
  readonly maxBufferedBytes?: number;
  /**
   * The agent's messages as the text frames they came in (remoteLink.ts, WebSocket): called once with the
   * bridge's taker; the SDK's readable then carries no messages and is read only for its end.
   */
  readonly frames?: (take: (frame: Buffer) => void) => void;
}

export interface Bridged {
  /** The agent's messages, one JSON line each (what ndjson.ts reads). */
  readonly input: Readable;
  /** Our NDJSON lines, each handed to the SDK as one message. */
  readonly output: Writable;
  /** Why the input ended, once it did with an error (undefined: a clean close, or not yet). */
  failure(): string | undefined;
  /** Closes both directions (the SDK closes its socket or deletes its HTTP connection). */
  close(): void;
}

const LF = 0x0a;

export function bridgeStream(stream: MessageStream, o: BridgeOptions = {}): Bridged {
  const high = o.highWaterBytes ?? 1 << 20;
  const cap = o.maxBufferedBytes ?? 64 * 1024 * 1024;
  const reader = stream.readable.getReader();
  const writer = stream.writable.getWriter();
  let failed: string | undefined;
  let paused = false;
  let closed = false;
  const input = new Readable({
    highWaterMark: high,
    read() {
      if (paused) {
        paused = false;
        o.flow?.resume();
      }
    },
  });
  /** Frames taken since the last push: one push per batch (what ws emits for one read of the socket). */
  let batch: Buffer[] = [];
  const flush = () => {
    if (batch.length === 0 || input.readableEnded) return;
    const chunk = batch.length === 1 ? batch[0]! : Buffer.concat(batch);
    batch = [];
    take(chunk);
  };
  const end = (why?: string) => {
    if (why !== undefined && failed === undefined) failed = why;
    flush();
    if (!input.readableEnded) input.push(null);
  };
  /** Hands input on; false once the connection was closed for holding too much. */
  const take = (chunk: string | Buffer): boolean => {
    if (input.push(chunk)) return true;
    if (o.flow) {
      paused = true;
      o.flow.pause();
    } else if (input.readableLength > cap) {
      end(`the agent sent more than ${Math.round(cap / 1048576)} MiB that could not be read yet; the connection was closed`);
      close();
      return false;
    }
    return true;
  };
  o.frames?.((frame) => {
    if (closed || input.readableEnded) return;
    if (batch.length === 0) queueMicrotask(flush);
    batch.push(frameText(frame), NEWLINE);
  });
  void (async () => {
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) return end();
        if (!take(`${JSON.stringify(r.value)}\n`)) return;
      }
    } catch (e) {
      end(errorText(e));
    }
  })();
  let partial = '';
  const output = new Writable({
    // One message after another, as the SDK sends them; a refused write fails the NDJSON writer's.
    write(chunk: Buffer | string, _enc, cb) {
      const text = partial + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      const last = text.lastIndexOf(String.fromCharCode(LF));
      partial = text.slice(last + 1);
      const lines =
        last < 0
          ? []
          : text
              .slice(0, last)
              .split('\n')
              .filter((l) => l.trim() !== '');
      Promise.all(lines.map((l) => writer.write(JSON.parse(l) as unknown))).then(
        () => cb(),
        (e: unknown) => cb(e instanceof Error ? e : new Error(errorText(e))),
      );
    },
    final(cb) {
      close();
      cb();
    },
  });
  output.on('error', () => undefined); // reported through the NDJSON writer's own write callbacks
  function close(): void {
    if (closed) return;
    closed = true;
    // A paused socket would not read the server's close frame: the close would wait for ws's 30 s timeout.
    if (paused) {
      paused = false;
      o.flow?.resume();
    }
    void writer.close().catch(() => undefined);
    void reader.cancel().catch(() => undefined);
    end();
  }
  return { input, output, failure: () => failed, close };
}

const NEWLINE = Buffer.from('\n');
const SPACE = 0x20;

/**
 * A text frame's bytes as one NDJSON line (without its line feed). A frame holds one JSON message and may
 * be pretty-printed: a line feed in valid JSON is only whitespace (one inside a string must be escaped), so
 * it becomes a space. A frame that is not valid JSON stays refused: it goes on as its text in one JSON
 * string, which the reader skips (not an object) and logs.
 */
function frameText(frame: Buffer): Buffer {
  if (frame.indexOf(LF) < 0) return frame;
  const text = frame.toString('utf8');
  try {
    JSON.parse(text);
  } catch {
    return Buffer.from(JSON.stringify(text));
  }
  const line = Buffer.from(text);
  for (let i = line.indexOf(LF); i >= 0; i = line.indexOf(LF, i + 1)) line[i] = SPACE;
  return line;
}
