/**
 * `run --url` and `check --url`: an agent reached by URL, standing where the CLI's agent process stands
 * (its stdout and stdin, start, exit, description), over the same transport as the extension's
 * (transport/remoteLink.ts). A token is read from the ACP_CHAT_TOKEN environment variable, never from a
 * flag (flags land in shell history and process lists), and sent as `Authorization: Bearer`.
 */
import { PassThrough } from 'node:stream';
import type { AgentExit } from '../agentProcess';
import { openRemote, type RemoteTransport } from '../transport/remoteLink';
import { errorText } from '../../common/util/errors';

export const TOKEN_ENV = 'ACP_CHAT_TOKEN';

/** The headers of a CLI connection: the token of ACP_CHAT_TOKEN, if set. */
export function cliHeaders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const token = env[TOKEN_ENV];
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export class RemoteEndpoint {
  readonly stdout = new PassThrough();
  readonly stdin = new PassThrough();
  readonly started: Promise<void>;
  readonly exited: Promise<AgentExit>;
  private transport: RemoteTransport | undefined;

  constructor(url: string, note: (line: string) => void, headers = cliHeaders()) {
    let finish: (e: AgentExit) => void = () => undefined;
    this.exited = new Promise((resolve) => (finish = resolve));
    this.started = openRemote(url, { headers }, note).then((t) => {
      this.transport = t;
      t.input.on('end', () => finish({ code: null, signal: null, ...(t.why() ? { error: t.why() } : {}) }));
      t.input.pipe(this.stdout);
      this.stdin.pipe(t.output);
    });
    this.started.catch((e: unknown) => finish({ code: null, signal: null, error: errorText(e) }));
  }

  onExit(listener: (e: AgentExit) => void): void {
    void this.exited.then(listener);
  }

  describe(): string | undefined {
    const t = this.transport;
    return t ? `the connection to ${t.url.origin} ended${t.why() ? `: ${t.why()}` : ''}` : undefined;
  }

  dispose(): void {
    this.transport?.close();
    this.stdout.end();
  }
}
