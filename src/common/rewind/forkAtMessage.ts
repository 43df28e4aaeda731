/**
 * Forking a session at a message: the draft extension of `session/fork` that names the message the fork
 * branches at. The published unstable schemas (v1 and v2) have `session/fork` and its `fork` capability
 * marker but not yet the message: the names below follow the draft (`messageId` in the request, an
 * `atMessageId` marker inside the `fork` capability) and are written only here, so a schema change is
 * one edit. The fork holds the history before that message; the message itself and all after it stay
 * behind (the branch sends its own version of it).
 */
import type { AgentCapabilities } from '../protocol/requests';
import type { Entry } from '../store/model';

export const FORK_AT_MESSAGE = {
  /** The request field naming the message to branch at (an agent-assigned message id). */
  param: 'messageId',
  /** The marker inside the agent's `fork` session capability. */
  capability: 'atMessageId',
} as const;

/**
 * Whether the agent can fork at a message: `fork` advertised and, inside it, the `atMessageId` marker
 * (`{}` by the object-marker convention; `true` is taken too, as older capabilities are booleans).
 */
export function supportsForkAtMessage(caps: AgentCapabilities | undefined): boolean {
  const fork: unknown = caps?.sessionCapabilities?.fork;
  if (typeof fork !== 'object' || fork === null) return false;
  const marker = (fork as Record<string, unknown>)[FORK_AT_MESSAGE.capability];
  return marker === true || (typeof marker === 'object' && marker !== null);
}

/** The message a `session/fork` request branches at, when it names one. */
export function forkAtMessageOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const id = (params as Record<string, unknown>)[FORK_AT_MESSAGE.param];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The extra request fields that make a `session/fork` branch at `messageId`. */
export function forkAtMessageParams(messageId: string): Record<string, string> {
  return { [FORK_AT_MESSAGE.param]: messageId };
}

/**
 * What a fork at `messageId` holds of the source's entries: those before the message (all of them for a
 * whole-session fork, or when the message is not among them: the agent took the fork, so it is shown).
 */
export function entriesBefore(entries: readonly Entry[], messageId: string | undefined): readonly Entry[] {
  if (messageId === undefined) return entries;
  const at = entries.findIndex((e) => e.kind !== 'tool_call' && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'compaction' && e.messageId === messageId);
  return at < 0 ? entries : entries.slice(0, at);
}
