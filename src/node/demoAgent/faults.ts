/**
 * Misbehaviours the demo agent can be told to show (ACP_DEMO_FAULT), so that recovery is tested against a
 * real agent process: each applies to every turn of the process.
 * - crash-on-prompt: exits as soon as a prompt arrives, before recording it (the prompt never landed).
 * - crash-mid-turn: exits after the turn's thought (the prompt landed; the turn is cut off).
 * - crash-mid-permission: asks for the edit permission, then exits before the answer.
 * - silent: says nothing after taking the prompt until cancelled.
 * - ignore-cancel: says nothing and ignores session/cancel: the turn never ends (with ACP_DEMO_LATE_MS, it
 *   goes on that long after the cancel, as if not cancelled, and ends the turn normally).
 */
const DEMO_FAULTS = ['crash-on-prompt', 'crash-mid-turn', 'crash-mid-permission', 'silent', 'ignore-cancel'] as const;
export type DemoFault = (typeof DEMO_FAULTS)[number];

export function parseDemoFault(raw: string | undefined, warn: (message: string) => void): DemoFault | undefined {
  if (!raw) return undefined;
  const fault = DEMO_FAULTS.find((f) => f === raw);
  if (!fault) warn(`unknown ACP_DEMO_FAULT "${raw}" ignored (one of ${DEMO_FAULTS.join(', ')})`);
  return fault;
}

/**
 * Waits until the turn is cancelled (`silent`: then it rejects), or forever (`ignore-cancel`: the signal is
 * not heard), or, for `ignore-cancel` with `lateMs`, until `lateMs` after the cancel: the agent then goes on
 * with the turn as if nothing was asked (its updates arrive after the client gave the turn up).
 */
export function silence(fault: 'silent' | 'ignore-cancel', signal: AbortSignal, lateMs?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (fault === 'silent') signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    else if (lateMs !== undefined) signal.addEventListener('abort', () => setTimeout(resolve, lateMs), { once: true });
  });
}
