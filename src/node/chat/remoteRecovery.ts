/**
 * What differs for an agent reached by URL when its link fails (the rest of recovery is the crash path
 * of chatConnection.ts and common/recovery): a link that drops is the network, not a crash loop, so it is
 * retried longer with backoff, and a failed connect is one more failure to retry, not a setting to fix; the
 * reattach replays the session (session/load where offered) because what the agent sent while the link was
 * down never arrived; and the banners name the origin and when the next attempt is.
 */
import type { AgentConfig } from '../../common/config/settings';
import { agentOrigin } from '../../common/config/agentUrl';
import { DEFAULT_RESTART_LIMITS, type RestartLimits } from '../../common/recovery/restartPolicy';
import type { ExitDecision } from '../../common/recovery/supervisor';
import { RemoteConfigError } from '../transport/remoteLink';

/** Immediate, then 1, 2, 4, 8, 16, 30, 30 s; a link down for 8 attempts within 10 minutes waits for Reconnect. */
const NETWORK_RETRY_LIMITS: RestartLimits = { maxFailures: 8, windowMs: 600_000, baseDelayMs: 1_000, maxDelayMs: 30_000 };

export function retryLimits(agent: AgentConfig): RestartLimits {
  return agent.url !== undefined ? NETWORK_RETRY_LIMITS : DEFAULT_RESTART_LIMITS;
}

/** The turn message while the link is being made: connecting names where to. */
export function startingText(agent: AgentConfig): string {
  const origin = agentOrigin(agent);
  return origin === null ? `Starting ${agent.name}…` : `Connecting to ${agent.name} at ${origin}…`;
}

/** A connect that failed and is retried like a dropped link (the network), rather than shown as a bad setting. */
export function retriesConnect(agent: AgentConfig, e: unknown): boolean {
  return agent.url !== undefined && !(e instanceof RemoteConfigError);
}

/** After a drop the agent may have sent what never arrived: replay the session rather than resume it. */
export function replaysAfterDrop(agent: AgentConfig): boolean {
  return agent.url !== undefined;
}

/** The offline banner of a remote agent: the origin, why, and when the next attempt is (its clock time too). */
export function offlineMessage(agent: AgentConfig, reason: string, decision: ExitDecision, now: number): string {
  const origin = agentOrigin(agent) ?? '';
  const head = `${agent.name} (${origin}) is offline: ${reason}.`;
  switch (decision.kind) {
    case 'restart': {
      const at = new Date(now + decision.delayMs).toTimeString().slice(0, 8);
      const when = decision.delayMs === 0 ? 'now' : `in ${Math.round(decision.delayMs / 1000)} s (at ${at})`;
      return `${head} Reconnecting ${when}, attempt ${decision.attempt} of ${decision.maxAttempts}; the transcript is kept.`;
    }
    case 'giveUp':
      return `${head} ${decision.failures} attempts within ${Math.round(decision.windowMs / 60_000)} minutes failed; Restart the agent to reconnect.`;
    case 'off':
      return `${head} Restart the agent to reconnect; the transcript is kept.`;
  }
}
