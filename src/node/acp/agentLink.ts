/**
 * What a chat session needs from a running agent: a connected, initialized client, and a way to stop it.
 * The extension implements it by spawning the agent process (src/node); tests can pass an in-process agent.
 */
import type { AcpClient, Direction } from '../node/acp/client';
import type { ClientHandlers } from '../node/acp/handlers';
import type { AgentConfig } from '../common/config/settings';

export interface AgentLink {
  readonly client: AcpClient;
  /** Fires once when the agent process (or stream) ends, with a human-readable reason. */
  onExit(listener: (reason: string) => void): void;
  /** The agent's recent stderr, for error messages and the debug bundle. */
  stderrTail(): string;
  /** Stops the agent (idempotent). */
  dispose(): void;
}

export interface ConnectOptions {
  readonly agent: AgentConfig;
  readonly cwd: string;
  readonly handlers: ClientHandlers;
  readonly protocolVersion: 1 | 2;
  readonly tap: (dir: Direction, msg: unknown) => void;
  readonly log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
  /** Lines the agent printed to stdout that are not JSON-RPC (some agents print URLs). */
  readonly onInvalidLine: (text: string) => void;
  readonly onStderr: (text: string) => void;
}

export type ConnectAgent = (options: ConnectOptions) => Promise<AgentLink>;
