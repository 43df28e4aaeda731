/**
 * The demo agent's steering (the `_session/steering` extension of the Claude Code and Codex adapters; see
 * common/protocol/steering), offered with `steering: true` (ACP_DEMO_STEERING=on). A steered prompt joins
 * the running turn: the agent answers `injected` and acknowledges it in a message of its own at once. A
 * prompt that contains "cannot steer" is answered `failed`, and with no turn running the answer is
 * `promptRequired` (the client opted in) or the prompt starts a turn of its own (`startedNewTurn`).
 */
import * as z from 'zod';
import { AgentMethods } from '../../common/protocol/methods';
import { zContentBlock, zMeta } from '../../common/protocol/content';
import { onAcpRequest } from '../transport/connection';
import type { AcpConnection } from '../transport/connection';

/** What the initialize result's top-level `_meta` says when steering is on. */
export const STEERING_META = { steering: { supported: true } } as const;

const zSteeringParams = z.looseObject({ sessionId: z.string(), prompt: z.array(zContentBlock).min(1), _meta: zMeta.nullish() });

export interface SteerableSessions {
  /** Whether the session has a turn running; throws for an unknown session. */
  running(sessionId: string): boolean;
  /** Shows the agent taking the steered text into its running turn. */
  acknowledge(sessionId: string, text: string): void;
  /** Starts a turn with the prompt, not waiting for it to end. */
  startTurn(sessionId: string, prompt: z.infer<typeof zContentBlock>[]): void;
}

export function registerSteering(acp: AcpConnection, sessions: SteerableSessions): void {
  onAcpRequest(acp, AgentMethods.sessionSteering, zSteeringParams, (p) => {
    const text = p.prompt
      .map((b) => (b.type === 'text' ? b.text : `[${b.type}]`))
      .join(' ')
      .trim();
    if (!sessions.running(p.sessionId)) {
      const steering = p._meta?.['steering'];
      const idle = typeof steering === 'object' && steering !== null ? (steering as Record<string, unknown>)['idleBehavior'] : undefined;
      if (idle === 'promptRequired') return { outcome: 'promptRequired', reason: 'noRunningTurn' };
      sessions.startTurn(p.sessionId, p.prompt);
      return { outcome: 'startedNewTurn' };
    }
    if (/cannot steer/i.test(text)) return { outcome: 'failed' };
    // After the response, as a real agent's next chunk would come.
    setTimeout(() => sessions.acknowledge(p.sessionId, text), 0);
    return { outcome: 'injected' };
  });
}
