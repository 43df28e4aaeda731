/**
 * What a chat session needs from a running agent: a connected, initialized client, and a way to stop it.
 * The extension implements it by spawning the agent process (src/node); tests can pass an in-process agent.
 */
import { AcpClient, type Direction } from './client';
import type { Readable, Writable } from 'node:stream';
import { AgentProcess, type AgentExit } from '../agentProcess';
import type { ClientHandlers } from './handlers';
import type { SessionFeatures } from './clientOptions';
import type { AgentConfig } from '../../common/config/settings';
import type { CheckedMessage } from '../../common/jsonrpc/rpc';
import type { PermissionBroker } from '../../common/permissionBroker';

/**
 * How long an exited agent's connection may stay open (a grandchild holding its stdout) before the exit
 * is judged without the rest of its output.
 */
const EXIT_DRAIN_CAP_MS = 2_000;

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
  /** The chat's permission broker: the one place the agent's permission requests wait. */
  readonly permissions?: PermissionBroker;
  readonly protocolVersion: 1 | 2;
  /** The caller can run terminal sign-ins (advertised as `auth.terminal`). */
  readonly terminalAuth?: boolean;
  /** The caller shows subagents (advertised as `subagents`, see AcpClientOptions). */
  readonly subagents?: boolean;
  /** The session features the caller shows (advertised as `session`, see AcpClientOptions). */
  readonly session?: SessionFeatures;
  /**
   * Every message both ways; `raw` is its exact JSON line (recorded as is by the capture); `checked`, for
   * a message read, the transport's one check of it (for `MessageStore.ingestChecked`).
   */
  readonly tap: (dir: Direction, msg: unknown, raw?: string, checked?: CheckedMessage) => void;
  readonly log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
  /** Lines the agent printed to stdout that are not JSON-RPC (some agents print URLs). */
  /** `lost` is true when the line was a message that could not be used (too large, too deep, malformed, a duplicate). */
  readonly onInvalidLine: (text: string, reason: string, lost: boolean) => void;
  readonly onStderr: (text: string) => void;
}

export type ConnectAgent = (options: ConnectOptions) => Promise<AgentLink>;

/** The real thing: spawn the agent's command and speak ACP over its stdio. */
export const spawnAgent: ConnectAgent = async (o) => {
  const proc = new AgentProcess({
    command: o.agent.command,
    args: o.agent.args,
    env: o.agent.env,
    cwd: o.agent.cwd ?? o.cwd,
    onStderrLine: o.onStderr,
  });
  try {
    await proc.started;
  } catch (e) {
    proc.dispose();
    const why = e instanceof Error ? e.message : String(e);
    const fix =
      proc.exit?.errno === 'ENOENT' || proc.exit?.errno === 'EACCES'
        ? `check "command" of the agent "${o.agent.id}" in the acpChat.agents setting (a full path, or a program on the PATH VS Code sees)`
        : `check the agent "${o.agent.id}" in the acpChat.agents setting`;
    throw new Error(`${why}; ${fix}`);
  }
  return linkProcess(proc, o);
};

/** Every `session` feature: the chat panel shows compaction rows, notices (with severity, as text) and boolean toggles. */
export const ALL_SESSION_FEATURES: SessionFeatures = { compaction: true, notices: true, booleanConfigOptions: true };

/** What `linkProcess` needs of a started agent process (AgentProcess; a stand-in in tests). */
export interface LinkableProcess {
  readonly stdout: Readable;
  readonly stdin: Writable;
  readonly stderrTail: readonly string[];
  onExit(listener: (e: AgentExit) => void): unknown;
  describe(): string | undefined;
  dispose(): void;
}

/** Speaks ACP over a started agent process's stdio; the link's exit fires once its output is all in. */
export function linkProcess(proc: LinkableProcess, o: ConnectOptions, drainCapMs = EXIT_DRAIN_CAP_MS): AgentLink {
  const client = linkClient(o, proc.stdout, proc.stdin, () => proc.describe());
  const exitListeners: ((reason: string) => void)[] = [];
  let exitReason: string | undefined;
  const fireExit = (reason: string) => {
    if (exitReason !== undefined) return;
    exitReason = reason;
    for (const l of exitListeners.splice(0)) l(reason);
  };
  // The exit is often reported before stdout has been read and dispatched to its end, and the connection
  // may close before the exit is reported: the agent's last messages (a turn's end, a reply) must reach the
  // chat before the exit is judged, or a turn the agent finished reads as cut off. The exit fires once both
  // happened: the process exited and the client closed (its input ended, everything read was handled);
  // either one alone waits at most `drainCapMs` for the other (a grandchild holding stdout; an agent that
  // closed its stdout and lives on, which is stopped then).
  let exited: AgentExit | undefined;
  let cap: ReturnType<typeof setTimeout> | undefined;
  const judge = () => {
    clearTimeout(cap);
    if (exitReason !== undefined) return;
    const e = exited;
    const how = !e ? 'closed its connection' : e.error ? `could not be started (${e.error})` : e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`;
    client.dispose(`the agent ${how}`);
    if (!e) proc.dispose();
    fireExit(`the agent ${how}`);
  };
  const oneOfTwo = () => {
    if (exitReason !== undefined) return;
    if (exited && client.isClosed) judge();
    else cap ??= setTimeout(judge, drainCapMs);
  };
  proc.onExit((e) => {
    exited = e;
    oneOfTwo();
  });
  client.onDidClose(oneOfTwo);
  return {
    client,
    onExit(listener) {
      if (exitReason !== undefined) listener(exitReason);
      else exitListeners.push(listener);
    },
    stderrTail: () => proc.stderrTail.join('\n'),
    dispose() {
      exitListeners.length = 0;
      exitReason ??= 'the agent was stopped';
      clearTimeout(cap);
      client.dispose('the agent was stopped');
      proc.dispose();
    },
  };
}

const CLIENT_INFO = { name: 'acp-chat', title: 'ACP Chat', version: '0.1.0' } as const;

/** The client of a link, whatever carries it (a process's stdio, a remote agent's stream): one place maps the link's options. */
export function linkClient(o: ConnectOptions, input: Readable, output: Writable, describeClose: () => string | undefined): AcpClient {
  return new AcpClient({
    input,
    output,
    handlers: o.handlers,
    ...(o.permissions ? { permissions: o.permissions } : {}),
    clientInfo: CLIENT_INFO,
    protocolVersion: o.protocolVersion,
    terminalAuth: o.terminalAuth === true,
    subagents: o.subagents === true,
    ...(o.session ? { session: o.session } : {}),
    tap: o.tap,
    onInvalidLine: (line) => o.onInvalidLine(line.text, line.reason, line.kind !== 'notJson' && line.kind !== 'notObject'),
    log: o.log,
    describeClose,
  });
}
