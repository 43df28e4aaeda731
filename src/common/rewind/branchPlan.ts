/**
 * How a branch at an earlier user message is made, decided from the agent's capabilities and the chat:
 * - `forkAtMessage`: the agent forks its session at that message (forkAtMessage.ts), keeping its own
 *   context of everything before it; the edited message is then the fork's first prompt.
 * - `newSession`: a new session of the same agent whose first prompt carries the transcript before the
 *   message (embedded as a Markdown resource, or linked when the agent takes no embedded context), then
 *   the edited message.
 * A plain `session/fork` is never the plan: it copies the whole session, the message and its answer
 * included, which is what a branch must leave behind.
 */
import type { ContentBlock } from '../protocol/content';
import type { AgentCapabilities } from '../protocol/requests';
import type { Entry } from '../store/model';
import { carriedTranscript, type CarriedTranscript } from './carriedTranscript';
import { supportsForkAtMessage } from './forkAtMessage';
import { isRecord } from '../util/guards';

export type BranchPlan =
  | { readonly kind: 'forkAtMessage'; readonly messageId: string }
  | {
      readonly kind: 'newSession';
      /** The earlier conversation, or null when the message was the first (nothing to carry). */
      readonly carried: CarriedTranscript | null;
      /** How the transcript goes: embedded (`promptCapabilities.embeddedContext`) or as a `resource_link`. */
      readonly carry: 'embedded' | 'link';
    };

export type BranchPoint =
  { readonly ok: true; readonly index: number; readonly message: Entry & { readonly kind: 'user_message' } } | { readonly ok: false; readonly reason: string };

/** The user message `key` in `entries`, or why a branch cannot start there. */
export function branchPoint(entries: readonly Entry[], key: string): BranchPoint {
  const index = entries.findIndex((e) => e.key === key);
  const message = entries[index];
  if (!message) return { ok: false, reason: 'The message is no longer in this chat.' };
  if (message.kind !== 'user_message') return { ok: false, reason: 'Only your own messages can be edited and run again.' };
  return { ok: true, index, message: message as Entry & { readonly kind: 'user_message' } };
}

export function planBranch(caps: AgentCapabilities | undefined, entries: readonly Entry[], index: number, agentName: string): BranchPlan {
  const message = entries[index];
  // Forking at the message needs the agent's id for it; a message the agent never named is carried instead.
  if (message?.kind === 'user_message' && message.messageId !== null && supportsForkAtMessage(caps)) return { kind: 'forkAtMessage', messageId: message.messageId };
  const before = entries.slice(0, Math.max(0, index));
  const carried = before.length ? carriedTranscript(before, agentName) : null;
  return { kind: 'newSession', carried, carry: caps?.promptCapabilities?.embeddedContext === true ? 'embedded' : 'link' };
}

/** `_meta` key marking the blocks a branch adds to its first prompt (the panel shows them collapsed; an edit leaves them out). */
export const CARRIED_META = 'acpChat/carried';

/** `_meta` key on the carried transcript's block: how many messages it holds (the panel's summary says so). */
export const CARRIED_MESSAGES_META = 'acpChat/carriedMessages';

/** The file name a carried transcript is offered under (the link's name, the resource's label). */
const CARRIED_NAME = 'earlier-conversation.md';

export function isCarriedBlock(b: ContentBlock): boolean {
  const meta: unknown = (b as { _meta?: unknown })._meta;
  return isRecord(meta) && meta[CARRIED_META] === true;
}

/**
 * The first prompt of a `newSession` branch: the edited message's own blocks, then a line saying what the
 * attachment is and the transcript (at `uri`: the host writes it there, so a link can be read and the
 * user can open it). The user's words come first: agents read them first and title the chat by them.
 * With nothing to carry it is the edited message alone.
 */
export function carriedPrompt(plan: Extract<BranchPlan, { kind: 'newSession' }>, uri: string, edited: readonly ContentBlock[]): ContentBlock[] {
  if (!plan.carried) return [...edited];
  const meta = { [CARRIED_META]: true };
  const lead: ContentBlock = {
    type: 'text',
    text: `This message continues an earlier conversation; its transcript before this message is attached as ${CARRIED_NAME}${plan.carried.omitted ? ' (its oldest part left out)' : ''}.`,
    _meta: meta,
  };
  const counted = { ...meta, [CARRIED_MESSAGES_META]: plan.carried.messages };
  const transcript: ContentBlock =
    plan.carry === 'embedded'
      ? { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: plan.carried.markdown }, _meta: counted }
      : { type: 'resource_link', uri, name: CARRIED_NAME, mimeType: 'text/markdown', size: utf8Length(plan.carried.markdown), _meta: counted };
  return [...edited, lead, transcript];
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}
