/**
 * The door to a chat's agent, as Zed's `AgentConnection` is to its thread: what the chat and the rest of
 * the extension may ask of the agent, as narrow interfaces. ChatConnection is the only holder of the
 * AcpClient; it lends it to no one, and offers instead:
 * - `TurnAgent` (to the thread): prompt, steer and cancel on the agent of one link, with the link's `epoch`;
 * - `AgentDoor` (to the extension): what the agent said at initialize (`facts`), the session list, new and
 *   open session, and each optional session operation as a handle that is present only when the running
 *   agent advertised it (`operation('fork')`, like Zed's `truncate() -> Option<…>`).
 * The epoch counts links: a reply or a failure of an older epoch's agent must not end the next one's turn
 * (it replaces comparing clients by identity).
 */
import type { AgentCapabilities, AuthMethod, Implementation, PromptResult, SessionInfo } from '../../common/protocol/requests';
import type { ContentBlock } from '../../common/protocol/content';
import type { SteeringResult } from '../../common/protocol/steering';
import type { ForkSessionResult, SessionOperation, SetSessionTitleResult } from '../../common/protocol/sessionOps';
import type { AcpClient } from '../acp/client';
import { listAllSessions, type SessionParams } from '../acp/sessions';

/** What the running agent said at initialize, read-only. */
export interface AgentFacts {
  readonly protocolVersion: number | undefined;
  readonly agentInfo: Implementation | undefined;
  readonly capabilities: AgentCapabilities | undefined;
  readonly authMethods: readonly AuthMethod[];
  readonly canSteer: boolean;
  /** The link closed (its exit is on its way): nothing more can be sent on it. */
  readonly closed: boolean;
}

/** The agent of one link, for a turn: its requests go to that link only, never to a successor. */
export interface TurnAgent {
  /** The link's epoch: the connection's `epoch` moves on when this link goes. */
  readonly epoch: number;
  readonly capabilities: AgentCapabilities | undefined;
  readonly canSteer: boolean;
  prompt(sessionId: string, blocks: ContentBlock[]): Promise<PromptResult>;
  steer(sessionId: string, blocks: ContentBlock[]): Promise<SteeringResult>;
  cancel(sessionId: string): void;
}

/** The session operations beyond the stable set, one handle each (see `AgentDoor.operation`). */
export interface SessionOps {
  /** `session/fork` of `sessionId`; `meta`: extra params (a fork point). */
  fork(sessionId: string, meta?: Readonly<Record<string, string>>): Promise<ForkSessionResult>;
  title(sessionId: string, title: string): Promise<SetSessionTitleResult>;
  /** `session/archive`, or `session/unarchive` when `archived` is false. */
  archive(sessionId: string, archived?: boolean): Promise<object>;
  close(sessionId: string): Promise<object>;
  delete(sessionId: string): Promise<object>;
  /** Every page of `session/list` for the chat's folder (`archived`: sent only to agents that archive). */
  list(maxPages?: number, archived?: 'include' | 'only'): Promise<SessionInfo[]>;
  logout(): Promise<object>;
}

/** The door as the extension sees it (`ChatController.door`). */
export interface AgentDoor {
  /** Counts links made and dropped; see the header. */
  readonly epoch: number;
  /** There is a link and it is open. */
  readonly running: boolean;
  /** What the agent of the current link said (undefined: no link). */
  facts(): AgentFacts | undefined;
  /** The handle of an optional operation, present only when the current link's agent advertised it. */
  operation<K extends SessionOperation>(op: K): SessionOps[K] | undefined;
  /** The agent's saved sessions (session/list), in the agent's order; started first if need be. */
  listSessions(): Promise<readonly SessionInfo[]>;
  /** A fresh session on the same agent (the old one closed unless `closeOld` is false). */
  newSession(closeOld?: boolean): Promise<void>;
  /** Shows another session of this agent: resumed when the chat has its transcript, else loaded. */
  openSession(sessionId: string): Promise<void>;
}

/** The agent of one link: the client behind the two narrow views the connection lends. */
export class LinkAgent implements TurnAgent, AgentFacts {
  constructor(
    private readonly client: AcpClient,
    readonly epoch: number,
  ) {}
  get protocolVersion(): number | undefined {
    return this.client.protocolVersion;
  }
  get agentInfo(): Implementation | undefined {
    return this.client.agentInfo;
  }
  get capabilities(): AgentCapabilities | undefined {
    return this.client.agentCapabilities;
  }
  get authMethods(): readonly AuthMethod[] {
    return this.client.authMethods;
  }
  get canSteer(): boolean {
    return this.client.canSteer;
  }
  get closed(): boolean {
    return this.client.isClosed;
  }
  prompt(sessionId: string, blocks: ContentBlock[]): Promise<PromptResult> {
    return this.client.prompt(sessionId, blocks);
  }
  steer(sessionId: string, blocks: ContentBlock[]): Promise<SteeringResult> {
    return this.client.steer(sessionId, blocks);
  }
  cancel(sessionId: string): void {
    this.client.cancel(sessionId);
  }
}

/** Runs a call on the running agent (started first if need be, signing in when asked); the connection's. */
export type Operate = <T>(run: (client: AcpClient, params: SessionParams) => Promise<T>) => Promise<T>;

/**
 * The handles, as they were called before the door: fork, title, archive and logout through `operate`
 * (start, sign in, the session params); close, delete and list straight on the current link.
 */
export function sessionOps(operate: Operate, current: () => AcpClient | undefined, cwd: string): SessionOps {
  const now = (): AcpClient => {
    const client = current();
    if (!client) throw new Error('the agent is not running');
    return client;
  };
  return {
    fork: (sessionId, meta = {}) => operate((client, params) => client.forkSession({ sessionId, ...params, ...meta })),
    title: (sessionId, title) => operate((client) => client.setSessionTitle(sessionId, title)),
    archive: (sessionId, archived = true) => operate((client) => client.archiveSession(sessionId, archived)),
    logout: () => operate((client) => client.logout()),
    close: (sessionId) => now().closeSession(sessionId),
    delete: (sessionId) => now().deleteSession(sessionId),
    list: (maxPages, archived) => listAllSessions(now(), cwd, maxPages, archived),
  };
}
