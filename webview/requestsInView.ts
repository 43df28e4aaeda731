/**
 * A permission request or a question that arrives while the user reads further up is brought into view:
 * the header says "Waiting for you", so what it waits for must be on screen, not behind "Jump to latest".
 * Only a request new in this change moves the view (an old one the user scrolled away from stays put).
 * Also where the keyboard goes after an answer.
 */
import type { PanelState } from '../src/common/webview/contract';

type Requests = Pick<PanelState, 'permissions' | 'elicitations'>;

export function bringNewRequestsIntoView(root: HTMLElement, before: Requests, after: Requests): void {
  const known = new Set([...before.permissions, ...(before.elicitations ?? [])].map((r) => r.requestId));
  const fresh = [...after.permissions, ...(after.elicitations ?? [])].find((r) => !known.has(r.requestId));
  if (!fresh) return;
  const el = root.querySelector<HTMLElement>(`.permission[data-request-id="${CSS.escape(fresh.requestId)}"], .eli-form[data-request-id="${CSS.escape(fresh.requestId)}"]`);
  el?.scrollIntoView({ block: 'nearest' });
}

/**
 * After an answer the keyboard user goes on to the next request (`next`); with none left, to the prompt box
 * when the answered card took the focus with it (focus on the transcript itself stays there).
 */
export function focusAfterAnswer(root: HTMLElement, next: string | undefined, before: Element, focusPrompt: () => void): void {
  const card = next !== undefined ? root.querySelector<HTMLElement>(`.permission[data-request-id="${CSS.escape(next)}"]`) : null;
  if (card) {
    card.querySelector<HTMLElement>('button')?.focus();
    card.scrollIntoView({ block: 'nearest' });
  } else if (!before.isConnected || document.activeElement === document.body || before.closest('[hidden]')) focusPrompt();
}
