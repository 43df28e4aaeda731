/**
 * A scripted fake agent over in-memory stream pairs (no subprocess): the test reads what the client
 * sent with `next()` and writes raw lines/messages back with `send()` / `sendRaw()`.
 */
import { PassThrough } from 'node:stream';
import type { AcpClient } from '../../../src/node/acp/client';
import type { ClientHandlers } from '../../../src/node/acp/handlers';

export type Json = Record<string, unknown>;

export class FakeAgent {
  /** client -> agent (the agent's stdin). */
  readonly toAgent = new PassThrough();
  /** agent -> client (the agent's stdout). */
  readonly toClient = new PassThrough();
  private buf = '';
  private readonly queue: Json[] = [];
  private waiters: ((m: Json) => void)[] = [];

  constructor() {
    this.toAgent.setEncoding('utf8');
    this.toAgent.on('data', (chunk: string) => {
      this.buf += chunk;
      let i: number;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        const msg = JSON.parse(line) as Json;
        const w = this.waiters.shift();
        if (w) w(msg);
        else this.queue.push(msg);
      }
    });
  }

  /** The next message the client sent. */
  next(): Promise<Json> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Next client message, asserting its method (requests/notifications) and returning it. */
  async expect(method: string): Promise<Json> {
    const m = await this.next();
    if (m.method !== method) throw new Error(`expected ${method}, got ${JSON.stringify(m)}`);
    return m;
  }

  send(msg: Json): void {
    this.toClient.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
  }
  sendRaw(text: string): void {
    this.toClient.write(text);
  }
  reply(id: unknown, result: unknown): void {
    this.send({ id, result });
  }
  update(sessionId: string, update: Json): void {
    this.send({ method: 'session/update', params: { sessionId, update } });
  }
  /** Simulate the agent dying: its stdout ends. */
  crash(): void {
    this.toClient.end();
  }
}

export const INIT_RESULT = {
  protocolVersion: 1,
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: true, embeddedContext: true },
    sessionCapabilities: { list: {}, resume: {}, close: {} },
  },
  authMethods: [{ id: 'key', name: 'API key' }, { type: 'env_var', id: 'env', name: 'Env var' }, { bogus: true }],
  agentInfo: { name: 'fake', version: '1.0' },
};

/** Opens session `id` through the client (the agent answers session/new), so the agent's requests may name it. */
export async function openSession(agent: FakeAgent, client: AcpClient, id = 's'): Promise<void> {
  const opened = client.newSession({ cwd: '/', mcpServers: [] });
  agent.reply((await agent.expect('session/new')).id, { sessionId: id });
  await opened;
}

/** A terminal host that serves every call with a fixed answer (for boundary tests: which session may use it). */
export const stubTerminals: NonNullable<ClientHandlers['terminals']> = {
  create: async () => ({ terminalId: 't' }),
  output: async () => ({ output: '', truncated: false }),
  waitForExit: async () => ({ exitCode: 0 }),
  kill: async () => undefined,
  release: async () => undefined,
};
