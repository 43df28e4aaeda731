/**
 * The demo agent and our AcpClient in one process, over two stream pairs: the unit tests' stand-in for an
 * agent subprocess. Each call is a fresh agent "process" (no memory of earlier ones).
 */
import { PassThrough } from 'node:stream';
import { AcpClient, type AcpClientOptions } from '../../../src/node/acp/client';
import { policyPermission } from '../../../src/node/acp/nodeHandlers';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import type { DemoAgentOptions } from '../../../src/node/demoAgent/options';
import { createAcpConnection } from '../../../src/node/transport/connection';

export interface DemoPairOptions {
  /** The demo agent's options beside `delayMs: 0`. */
  readonly agent?: Partial<DemoAgentOptions>;
  /** The client's options beside the streams and client info (default: allow every permission). */
  readonly client?: Partial<Omit<AcpClientOptions, 'input' | 'output' | 'clientInfo'>>;
}

export function demoPair(o: DemoPairOptions = {}): { client: AcpClient; dispose: () => void } {
  const toAgent = new PassThrough();
  const toClient = new PassThrough();
  const agentSide = createAcpConnection({ input: toAgent, output: toClient });
  new DemoAgent(agentSide, { delayMs: 0, ...o.agent });
  agentSide.connection.listen();
  const client = new AcpClient({
    handlers: { requestPermission: policyPermission('all') },
    ...o.client,
    input: toClient,
    output: toAgent,
    clientInfo: { name: 'test', version: '0' },
  });
  return { client, dispose: () => (client.dispose(), agentSide.connection.dispose()) };
}
