/**
 * The one way a chat, the CLI and Check Agent reach an agent: a `url` is connected over the network
 * (transport/remoteLink.ts), anything else is spawned on stdio (agentLink.ts). Both give the same AgentLink.
 */
import type { AgentConfig } from '../../common/config/settings';
import { spawnAgent, type ConnectAgent } from './agentLink';
import { connectRemote, type RemoteOptions } from '../transport/remoteLink';

/** The headers of a remote agent (its tokens): asked of SecretStorage in VS Code, of the environment in the CLI. */
export type AgentHeaders = (agent: AgentConfig) => Promise<Readonly<Record<string, string>>>;

export function connectAgent(headers?: AgentHeaders, remote: Omit<RemoteOptions, 'headers'> = {}): ConnectAgent {
  return async (o) => (o.agent.url !== undefined ? connectRemote(o, { ...remote, headers: headers ? await headers(o.agent) : {} }) : spawnAgent(o));
}
