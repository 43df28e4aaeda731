/**
 * Every configured agent's own sessions (`session/list`), listed when the user asks for them (never at
 * window start): each agent not already running in a chat is started for the listing alone (initialize,
 * session/list for the workspace folder, then stopped), a few at a time and each within a time limit, so one
 * slow or broken agent neither holds up the others nor lingers. Each agent's state is reported as it
 * changes: listing, listed (its sessions), not supported (it did not advertise session/list), or failed
 * (with the reason). Nothing here decides which sessions are new to the client (agentSessions.ts does).
 */
import type { AgentConfig } from '../../common/config/settings';
import type { AgentListing } from '../../common/history/agentSessions';
import type { SessionInfo } from '../../common/protocol/requests';
import { errorText } from '../../common/util/errors';
import type { AgentLink, ConnectAgent } from '../acp/agentLink';
import { listAllSessions } from '../acp/sessions';

/** What one agent's listing answers with: its sessions, or that it has no session/list. */
export type ListResult = readonly SessionInfo[] | 'unsupported';

export interface ListerDeps {
  readonly connect: ConnectAgent;
  /** The folder whose sessions are asked for (the workspace folder chats work in). */
  readonly cwd: string;
  readonly protocolVersion: 1 | 2;
  readonly log: (message: string) => void;
  /** A running chat's own listing for this agent, when one is running (no second process for it). */
  readonly running?: (agent: AgentConfig) => (() => Promise<ListResult>) | undefined;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
}

const TIMEOUT_MS = 20_000;
const CONCURRENCY = 2;

/** Starts `agent` for a listing alone and stops it again, whatever happens (also after the time limit). */
export async function listWithOwnLink(agent: AgentConfig, d: ListerDeps, signal: AbortSignal): Promise<ListResult> {
  let link: AgentLink | undefined;
  const stop = () => link?.dispose();
  signal.addEventListener('abort', stop, { once: true });
  try {
    link = await d.connect({
      agent,
      cwd: d.cwd,
      protocolVersion: d.protocolVersion,
      // A listing runs no turn: anything the agent asks is refused.
      handlers: { requestPermission: () => Promise.resolve({ outcome: { outcome: 'cancelled' } }) },
      tap: () => undefined,
      log: (level, m) => (level === 'warn' || level === 'error' ? d.log(`${agent.id}: ${m}`) : undefined),
      onInvalidLine: () => undefined,
      onStderr: () => undefined,
    });
    if (signal.aborted) throw new Error('stopped');
    const client = link.client;
    await client.initialize();
    if (!client.agentCapabilities?.sessionCapabilities?.list) return 'unsupported';
    return await listAllSessions(client, d.cwd);
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
}

/** One agent's listing within the time limit, as a state. */
async function listOne(agent: AgentConfig, d: ListerDeps): Promise<AgentListing> {
  const ms = d.timeoutMs ?? TIMEOUT_MS;
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => (abort.abort(), reject(new Error(`no answer within ${Math.round(ms / 1000)} s`))), ms);
  });
  try {
    const own = d.running?.(agent);
    const result = await Promise.race([own ? own() : listWithOwnLink(agent, d, abort.signal), late]);
    return result === 'unsupported' ? { state: 'unsupported' } : { state: 'listed', sessions: result };
  } catch (e) {
    return { state: 'failed', reason: errorText(e) };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** Lists every agent, `concurrency` at a time; `onState` hears each agent's state as it changes. */
export async function listEachAgent(agents: readonly AgentConfig[], d: ListerDeps, onState: (agentId: string, state: AgentListing) => void): Promise<void> {
  for (const a of agents) onState(a.id, { state: 'listing' });
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let agent = agents[next++]; agent; agent = agents[next++]) onState(agent.id, await listOne(agent, d));
  };
  await Promise.all(Array.from({ length: Math.min(d.concurrency ?? CONCURRENCY, agents.length) }, worker));
}
