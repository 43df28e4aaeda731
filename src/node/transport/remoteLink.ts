/**
 * An agent reached by URL: the SDK's own client transport (`@agentclientprotocol/sdk` 2.4.0
 * `experimental/ws-client`, `experimental/http-client`) under the same AcpClient a stdio agent gets
 * (remoteStream.ts turns the SDK's message stream into the byte streams the client reads), so the chat,
 * the store and the panel cannot tell the two apart. What the SDK does not do is ours:
 * - the URL rule (common/config/agentUrl.ts: no plain ws:// or http:// off this machine, no credentials in it);
 * - a size limit on WebSocket messages (ws's `maxPayload`: a larger frame closes the socket before it is held
 *   in memory; the HTTP client takes `maxMessageBytes` itself);
 * - backpressure (the socket is paused while the chat is behind);
 * - the link's end: the chat hears it as an agent's exit, and its recovery reconnects (chatConnection.ts).
 * Headers (tokens) are passed in by the caller (SecretStorage in VS Code); they are never logged.
 */
import { WebSocket, type ClientOptions } from 'ws';
import type { ClientRequestArgs } from 'node:http';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { linkClient, type AgentLink, type ConnectOptions } from '../acp/agentLink';
import { checkAgentUrl, type AgentUrl } from '../../common/config/agentUrl';
import { DEFAULT_MAX_MESSAGE_BYTES } from './ndjson';
import { bridgeStream, type Bridged, type MessageStream } from './remoteStream';

/** A setting or argument that cannot work as given: the chat says so and does not retry. */
export class RemoteConfigError extends Error {}

export interface RemoteOptions {
  /** Sent on the upgrade request (WebSocket) or every request (HTTP): tokens, from SecretStorage. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The largest message taken from the agent (default: the stdio limit, 32 MiB). */
  readonly maxMessageBytes?: number;
  /** How long the WebSocket handshake may take (default 30 s). */
  readonly handshakeTimeoutMs?: number;
}

/** Connects to `o.agent.url` and speaks ACP over it; rejects when the URL is refused or the socket cannot open. */
export async function connectRemote(o: ConnectOptions, r: RemoteOptions = {}): Promise<AgentLink> {
  const raw = o.agent.url;
  if (raw === undefined) throw new RemoteConfigError(`agent "${o.agent.id}" has no url`);
  const events: string[] = [];
  const t = await openRemote(
    raw,
    r,
    (line) => {
      events.push(line);
      if (events.length > 20) events.shift();
      o.log('info', `${o.agent.name}: ${line}`);
    },
    ` (agent "${o.agent.id}")`,
  );
  return linkRemote(t, o, events);
}

/** The byte streams of a remote agent (what an AcpClient reads and writes), and why they ended. */
export interface RemoteTransport extends Bridged {
  readonly url: AgentUrl;
  /** Why the link ended, when known (a close code, an error, the size limit). */
  why(): string | undefined;
}

/** Judges the URL, opens the SDK's transport and bridges it; `note` hears connects and disconnects (never headers). */
export async function openRemote(raw: string, r: RemoteOptions, note: (line: string) => void, whose = ''): Promise<RemoteTransport> {
  const check = checkAgentUrl(raw);
  if (!check.ok) throw new RemoteConfigError(`${check.reason}${whose}`);
  const url = check.url;
  const max = r.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  note(`connecting to ${url.origin} (${url.kind === 'websocket' ? 'WebSocket' : 'Streamable HTTP'})`);
  const remote = url.kind === 'websocket' ? await openWebSocket(url, r, max, note) : openHttp(url, r, max);
  const bridged = bridgeStream(remote.stream, { ...(remote.flow ? { flow: remote.flow } : {}), ...(remote.frames ? { frames: remote.frames } : {}) });
  return { ...bridged, url, why: () => remote.closeReason() ?? bridged.failure() };
}

interface Opened {
  readonly stream: MessageStream;
  readonly flow?: { pause(): void; resume(): void };
  /** The agent's messages as raw text frames (see openWebSocket), instead of the SDK's readable. */
  readonly frames?: (take: (frame: Buffer) => void) => void;
  closeReason(): string | undefined;
}

async function openWebSocket(url: AgentUrl, r: RemoteOptions, maxPayload: number, note: (l: string) => void): Promise<Opened> {
  let socket: WebSocket | undefined;
  let closeReason: string | undefined;
  const timeout = r.handshakeTimeoutMs ?? 30_000;
  // The SDK builds the socket; this constructor adds what the SDK has no option for (size limit, handshake
  // timeout) and keeps the socket for pause/resume and the close code.
  class BoundedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[], options?: ClientOptions | ClientRequestArgs) {
      super(address, protocols, { ...options, maxPayload, handshakeTimeout: timeout, followRedirects: false });
      // The SDK constructs the socket itself: the constructor is the only place that sees it.
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      socket = this;
      this.on('close', (code, reason) => {
        const why =
          code === 1009
            ? `the agent sent a message over the ${sizeText(maxPayload)} limit`
            : reason.length > 0
              ? reason.toString('utf8').slice(0, 200)
              : code === 1006
                ? 'the connection was lost'
                : `closed by the agent`;
        closeReason ??= `${why} (WebSocket close ${code})`;
        note(`disconnected from ${url.origin}: ${closeReason}`);
      });
      this.on('error', (e) => {
        closeReason ??= /max payload/i.test(e.message) ? `the agent sent a message over the ${sizeText(maxPayload)} limit` : e.message;
      });
    }
  }
  const stream = createWebSocketStream(url.href, { WebSocket: BoundedWebSocket, ...(r.headers ? { headers: { ...r.headers } } : {}), cookies: 'omit' });
  const s = socket as WebSocket | undefined;
  if (!s) throw new Error('the WebSocket was not created');
  // Receiving is ours, the one step away from the SDK's client: its listener decodes each frame (a new
  // TextDecoder each), parses it and queues the object on a web stream (a promise per message), and our
  // reader needs the text (ndjson.ts: one parse with its size, depth and envelope checks, the exact line for
  // the capture). Serialising the SDK's objects back to lines made the 300k-chunk flood ~0.3-0.55x as fast
  // as over stdio (bench/remote.bench.ts; goal 0.7), and the SDK's receive alone costs ~1.6x the CPU of
  // stdio's whole read-and-parse (raw frames parsed once: ~1.25x), so handing its objects on would have kept
  // most of the gap. So its listener is removed before the socket opens and each text frame goes to the
  // bridge as it came (one line; binary frames are skipped, as the SDK skips them). The SDK still builds the
  // socket (headers, cookies), sends, closes, and reports the close through its readable.
  s.removeAllListeners('message');
  const early: Buffer[] = [];
  let take: ((frame: Buffer) => void) | undefined;
  s.on('message', (data, isBinary) => {
    if (isBinary) return;
    const frame = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (take) take(frame);
    else early.push(frame);
  });
  const frames = (t: (frame: Buffer) => void) => {
    take = t;
    for (const f of early.splice(0)) t(f);
  };
  await new Promise<void>((resolve, reject) => {
    if (s.readyState === WebSocket.OPEN) return resolve();
    const fail = (why: string, refused = false) => {
      void stream.writable.abort().catch(() => undefined);
      reject(refused ? new RemoteConfigError(why) : new Error(`could not connect to ${url.origin}: ${why}`));
    };
    s.once('open', () => resolve());
    s.once('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      const denied = status === 401 || status === 403;
      // A refused token is not the network: retrying would only be refused again.
      fail(
        denied ? `${url.origin} refused the connection (HTTP ${status}): check the agent's token (ACP: Forget Agent Tokens, then reconnect)` : `the server answered HTTP ${status}`,
        denied,
      );
      res.resume();
      s.terminate();
    });
    s.once('error', (e) => fail(e.message));
    s.once('close', () => fail(closeReason ?? 'closed during the handshake'));
  });
  note(`connected to ${url.origin}`);
  return { stream, frames, flow: { pause: () => s.pause(), resume: () => s.resume() }, closeReason: () => closeReason };
}

function openHttp(url: AgentUrl, r: RemoteOptions, maxMessageBytes: number): Opened {
  // The connection is made by the first message (initialize); a failure there ends the link like a drop.
  const stream = createHttpStream(url.href, { ...(r.headers ? { headers: { ...r.headers } } : {}), cookies: 'omit', maxMessageBytes });
  return { stream, closeReason: () => undefined };
}

function linkRemote(t: RemoteTransport, o: ConnectOptions, events: readonly string[]): AgentLink {
  const { url, why } = t;
  const client = linkClient(o, t.input, t.output, () => `the connection to ${url.origin} ended${why() ? `: ${why()}` : ''}`);
  const listeners: ((reason: string) => void)[] = [];
  let ended: string | undefined;
  const fire = (reason: string) => {
    if (ended !== undefined) return;
    ended = reason;
    for (const l of listeners.splice(0)) l(reason);
  };
  client.onDidClose(() => {
    const reason = `the connection to ${url.origin} ended${why() ? ` (${why()})` : ''}`;
    client.dispose(reason);
    t.close();
    fire(reason);
  });
  return {
    client,
    onExit(listener) {
      if (ended !== undefined) listener(ended);
      else listeners.push(listener);
    },
    stderrTail: () => events.join('\n'),
    dispose() {
      listeners.length = 0;
      ended ??= 'the agent was stopped';
      client.dispose('the agent was stopped');
      t.close();
    },
  };
}

function sizeText(bytes: number): string {
  return bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MiB` : `${bytes} bytes`;
}
