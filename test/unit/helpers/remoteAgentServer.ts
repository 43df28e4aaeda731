// A loopback ACP server built on the SDK's own server side (`experimental/server` + `experimental/node`,
// with `ws` for upgrades) hosting the real demo agent (v1, and v2 when asked; or, when given, another agent
// such as a recorded real agent's replay, replayAgent.ts), one DemoAgent per accepted
// connection, all sharing one session map, as a server whose agent outlives a connection would: a client
// that reconnects can resume or load its session. Tests drop its sockets, restart it on the same port,
// require a token, and put a proxy (latency, split frames) in front of it.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { createAcpConnection } from '../../../src/node/transport/connection';
import { bridgeStream, type MessageStream } from '../../../src/node/transport/remoteStream';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import type { DemoAgentOptions } from '../../../src/node/demoAgent/options';

export interface RemoteAgentServer {
  readonly port: number;
  wsUrl(path?: string): string;
  httpUrl(path?: string): string;
  /** Connections the SDK accepted so far. */
  readonly accepted: number;
  /** Every Authorization header seen (a test checks the token arrived, and where else it went). */
  readonly authSeen: readonly string[];
  /** Cuts every open connection at the TCP level (no close frame): what a network drop looks like. */
  dropAll(): void;
  /** Stops listening and closes everything; `start()` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface ServerOptions {
  readonly demo?: Omit<DemoAgentOptions, 'sessions'>;
  /** Refuse connections without `Authorization: Bearer <token>`. */
  readonly token?: string;
  readonly port?: number;
  /** Hosts this instead of the demo agent (replayAgent.ts: a recorded real agent), one call per connection. */
  readonly agent?: (stream: MessageStream) => Promise<void>;
}

export async function startRemoteAgentServer(o: ServerOptions = {}): Promise<RemoteAgentServer> {
  const sessions: NonNullable<DemoAgentOptions['sessions']> = new Map();
  const sockets = new Set<net.Socket>();
  const authSeen: string[] = [];
  let accepted = 0;
  let server: http.Server | undefined;
  let acp: AcpServer | undefined;
  let wss: WebSocketServer | undefined;
  let port = o.port ?? 0;
  const authorized = (req: http.IncomingMessage) => {
    const auth = req.headers.authorization;
    if (auth !== undefined) authSeen.push(auth);
    return o.token === undefined || auth === `Bearer ${o.token}`;
  };
  const start = async () => {
    const a = new AcpServer({
      createAgent: () => ({
        connect(stream: MessageStream) {
          accepted++;
          if (o.agent) return { closed: o.agent(stream).catch(() => undefined) };
          const b = bridgeStream(stream);
          const conn = createAcpConnection({ input: b.input, output: b.output });
          new DemoAgent(conn, { delayMs: 0, ...o.demo, sessions });
          // A client that vanished cancels what it was running, as session/cancel would (this server hosts
          // one chat at a time); the session itself stays for the client to resume or load.
          const closed = new Promise<void>((resolve) =>
            conn.connection.onClose(() => {
              for (const s of sessions.values()) s.turn?.abort();
              resolve();
            }),
          );
          conn.connection.listen();
          return { closed };
        },
      }),
    });
    const w = new WebSocketServer({ noServer: true });
    const handle = createNodeHttpHandler(a);
    const upgrade = createNodeWebSocketUpgradeHandler(a, w as unknown as Parameters<typeof createNodeWebSocketUpgradeHandler>[1]);
    const s = http.createServer((req, res) => {
      if (!authorized(req)) return void res.writeHead(401).end('token required');
      handle(req, res);
    });
    s.on('upgrade', (req, socket, head) => {
      if (!authorized(req)) return void socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      upgrade(req, socket, head);
    });
    s.on('connection', (c) => {
      sockets.add(c);
      c.on('close', () => sockets.delete(c));
    });
    await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
    port = (s.address() as AddressInfo).port;
    server = s;
    acp = a;
    wss = w;
  };
  await start();
  const self: RemoteAgentServer = {
    get port() {
      return port;
    },
    wsUrl: (p = '/acp') => `ws://127.0.0.1:${port}${p}`,
    httpUrl: (p = '/acp') => `http://127.0.0.1:${port}${p}`,
    get accepted() {
      return accepted;
    },
    authSeen,
    dropAll() {
      for (const c of sockets) c.destroy();
    },
    async stop() {
      self.dropAll();
      for (const c of wss?.clients ?? new Set<WebSocket>()) c.terminate();
      await acp?.close().catch(() => undefined);
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
    start,
  };
  return self;
}

/**
 * A TCP proxy in front of `port`: every chunk is cut into `pieceBytes` pieces (so WebSocket frames and
 * HTTP chunks arrive split), each direction delayed by `latencyMs`, order kept.
 */
export async function startProxy(port: number, o: { latencyMs?: number; pieceBytes?: number } = {}): Promise<{ port: number; close(): Promise<void> }> {
  const piece = o.pieceBytes ?? 7;
  const latency = o.latencyMs ?? 0;
  const open = new Set<net.Socket>();
  const relay = (from: net.Socket, to: net.Socket) => {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const due = Date.now() + latency; // each chunk is late by `latency`, not by the sum of those before it
      chain = chain.then(async () => {
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        for (let i = 0; i < chunk.length; i += piece) if (!to.destroyed) to.write(chunk.subarray(i, i + piece));
      });
    });
    from.on('close', () => void chain.then(() => to.destroy()));
    from.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    open.add(client).add(upstream);
    client.on('close', () => open.delete(client));
    upstream.on('close', () => open.delete(upstream));
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of open) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
