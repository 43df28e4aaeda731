/** What a demo agent is made with (agent.ts); each option says its default. */
import type { DemoFault } from './faults';
import type { ReplayShape } from './replay';
import type { Session } from './tools';

export interface DemoAgentOptions {
  /** Pause between streamed chunks (ms). */
  delayMs?: number;
  /** How `session/load` reshapes the history it replays (default: verbatim). */
  replay?: readonly ReplayShape[];
  /** Offer fork, set_title, archive/unarchive, delete and logout (default true; false: an agent that lacks them). */
  sessionOps?: boolean;
  /** Require signing in, remembered in this file (see auth.ts); default: no sign-in. */
  authFile?: string;
  /** Offer `_session/steering` into a running turn (see steering.ts); default false. */
  steering?: boolean;
  /** A misbehaviour to show on every turn (see faults.ts); `crash` is how this agent dies (main: exit the process). */
  fault?: DemoFault;
  /** With `ignore-cancel`: go on with the turn this long after a cancel (default: never). */
  lateAfterCancelMs?: number;
  crash?: () => void;
  /** With session ops: `session/fork` also forks at a message (the draft's `fork.atMessageId`); default false. */
  forkAtMessage?: boolean;
  /** Sessions kept across connections (a server hosting the agent for many, test/helpers/remoteAgentServer.ts); default: its own. */
  sessions?: Map<string, Session>;
  /** Offer `session/list` (default true; false: an agent that cannot list its sessions). */
  listSessions?: boolean;
}
