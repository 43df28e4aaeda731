/**
 * The prompt behind a user message, to send it again: Retry (the same session) and Regenerate (a branch
 * at it). The store's user message is the one record of what was sent, so Retry needs no copy of its
 * own. Its own text, images and context come back as the edit draft does; a branch's carried transcript
 * goes along unchanged (as the prompt's prefix), so retrying a branch's first turn still carries it.
 */
import type { ContentBlock } from '../protocol/content';
import type { QueuedPrompt } from '../promptQueue';
import type { Entry } from '../store/model';
import { isCarriedBlock } from './branchPlan';
import { editDraft } from './editDraft';

export type UserMessage = Entry & { readonly kind: 'user_message' };

/** The newest user message of `entries`, if any. */
export function lastUserMessage(entries: readonly Entry[]): UserMessage | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.kind === 'user_message') return e as UserMessage;
  }
  return undefined;
}

export function promptOfMessage(content: readonly ContentBlock[]): QueuedPrompt {
  const draft = editDraft(content);
  const carried = content.filter(isCarriedBlock);
  return {
    text: draft.text,
    images: draft.images,
    // Ids are the prompt's own: these items never become chips.
    ...(draft.context.length ? { context: draft.context.map((c, i) => ({ ...c, id: `rerun-${i}` })) } : {}),
    ...(carried.length ? { carried } : {}),
  };
}
