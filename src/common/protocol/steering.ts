/**
 * Steering (an extension the Claude Code and Codex adapters share): while a turn runs, the client sends
 * `_session/steering` `{sessionId, prompt, _meta: {steering: {idleBehavior: "promptRequired"}}}` and the
 * agent injects the prompt into that turn. The answer's `outcome`:
 * - `injected`: the running turn took it;
 * - `startedNewTurn`: no turn was running and the agent started one with it (not with `promptRequired`);
 * - `promptRequired` (`reason: "noRunningTurn"`): no turn was running; send it as a `session/prompt`;
 * - `failed`: the turn could not take it.
 * Advertised by `InitializeResponse._meta.steering.supported: true`.
 */
import * as z from 'zod';
import type { ContentBlock } from './content';

/** `promptRequired`: the client sends a prompt that found no running turn itself, as a normal turn. */
export const steeringParams = (sessionId: string, prompt: readonly ContentBlock[]) => ({
  sessionId,
  prompt,
  _meta: { steering: { idleBehavior: 'promptRequired' } },
});

export const zSteeringResult = z.looseObject({ outcome: z.string(), reason: z.string().optional().catch(undefined) });
export type SteeringResult = z.infer<typeof zSteeringResult>;

/** The outcomes after which the prompt is in the conversation (the transcript shows it where it was sent). */
export function steered(r: SteeringResult): boolean {
  return r.outcome === 'injected' || r.outcome === 'startedNewTurn';
}

/** Whether an initialize result's `_meta` advertises steering. */
export function supportsSteering(initMeta: unknown): boolean {
  const s = isRec(initMeta) ? initMeta['steering'] : undefined;
  return isRec(s) && s['supported'] === true;
}

const isRec = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
