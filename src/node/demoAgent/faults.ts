/**
 * Misbehaviours the demo agent can be told to show (ACP_DEMO_FAULT), so that recovery is tested against a
 * real agent process: each applies to every turn of the process.
 * - crash-on-prompt: exits as soon as a prompt arrives, before recording it (the prompt never landed).
 * - crash-mid-turn: exits after the turn's thought (the prompt landed; the turn is cut off).
 * - crash-mid-permission: asks for the edit permission, then exits before the answer.
 * - silent: says nothing after taking the prompt until cancelled.
 * - ignore-cancel: says nothing and ignores session/cancel: the turn never ends.
 */
export const DEMO_FAULTS = ['crash-on-prompt', 'crash-mid-turn', 'crash-mid-permission', 'silent', 'ignore-cancel'] as const;
export type DemoFault = (typeof DEMO_FAULTS)[number];

export function parseDemoFault(raw: string | undefined, warn: (message: string) => void): DemoFault | undefined {
  if (!raw) return undefined;
  const fault = DEMO_FAULTS.find((f) => f === raw);
  if (!fault) warn(`unknown ACP_DEMO_FAULT "${raw}" ignored (one of ${DEMO_FAULTS.join(', ')})`);
  return fault;
}

/** Waits until the turn is cancelled (`silent`), or forever (`ignore-cancel`: the signal is not heard). */
export function silence(fault: 'silent' | 'ignore-cancel', signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (fault === 'silent') signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
  });
}
