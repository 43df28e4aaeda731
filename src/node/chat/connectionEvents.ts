/**
 * The chat connection's ports (chatConnection.ts): what it is built with, and what it tells its thread
 * (chatThread.ts): the turn and the panel are the thread's.
 */
import type { PanelState, TurnState } from '../../common/webview/contract';
import type { SessionNotification } from '../../common/protocol/requests';
import type { ElicitationBroker } from '../../common/elicitationBroker';
import type { PermissionBroker } from '../../common/permissionBroker';
import type { ClientHandlers } from '../acp/handlers';
import type { ChatOptions } from './chatPorts';
import type { ChatTraffic } from './chatTraffic';

/** What the connection tells the thread (the turn and the panel are the thread's). */
export interface ConnectionEvents {
  /** The turn state: a start is a no-op while connected (unless the last one failed); no new session while a turn runs. */
  readonly turnState: TurnState;
  setTurn(turn: TurnState, message: string | null): void;
  /** The connection failed or the agent exited (`turn`): the turn shows why, and waiters are released. */
  failed(message: string, turn: TurnState): void;
  /** A session is attached: the panel starts over and queued prompts go. */
  ready(): void;
  /** The chat shows another session now: the panel and the tree start over. */
  switched(): void;
  panel(fields: Partial<PanelState>): void;
  /** The supervisor gave up on the running turn (its cancel went unanswered). */
  abandonTurn(): void;
  /** The key of the last prompt this client sent, for the supervisor's notices. */
  promptEntry(): string | undefined;
  /** A `session/update` of the link (the store has it already): its root's or a subagent's work may be background work. */
  sessionUpdate(n: SessionNotification): void;
}

export interface ConnectionDeps {
  readonly options: ChatOptions;
  readonly traffic: ChatTraffic;
  readonly broker: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  /** The client handlers of a new connection (they answer the agent's requests for this chat). */
  readonly handlers: () => ClientHandlers;
  /** The thread, reached late: it is built after the connection. */
  readonly events: () => ConnectionEvents;
}
