/**
 * Agents' questions (`elicitation/create`) waiting for the user, oldest first, as the panel shows them.
 * Like permission requests, each stays visible until the user answers, or the client settles it (the
 * turn was cancelled, the agent withdrew it, the connection ended: the `signal` aborts). The answer
 * recorded in the transcript is the store's (it reads the response off the wire); this holds only
 * what is still open.
 */
import type { CreateElicitationResult } from './protocol/elicitation';
import type { ElicitationPrompt } from './webview/contract';
import { Emitter } from './util/lifecycle';

interface Pending {
  readonly view: ElicitationPrompt;
  readonly sessionId: string | null;
  readonly resolve: (r: CreateElicitationResult) => void;
}

export type ElicitationAskView = Omit<ElicitationPrompt, 'requestId'>;

export class ElicitationBroker {
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  /** Queues a question; resolves with the user's answer, or `cancel` when `signal` aborts. */
  ask(sessionId: string | null, ask: ElicitationAskView, signal?: AbortSignal): Promise<CreateElicitationResult> {
    if (signal?.aborted) return Promise.resolve({ action: 'cancel' });
    return new Promise((resolve) => {
      const requestId = `eli-${this.nextId++}`;
      this.queue.push({ view: { requestId, ...ask }, sessionId, resolve });
      signal?.addEventListener('abort', () => this.settle(requestId, { action: 'cancel' }), { once: true });
      this.changed.fire();
    });
  }

  /** Pending questions of a session, plus those not tied to any session (asked before one existed). */
  pending(sessionId: string | null): ElicitationPrompt[] {
    return this.queue.filter((p) => p.sessionId === null || p.sessionId === sessionId).map((p) => p.view);
  }

  /** Pending questions of any of `sessions` (a root and its subagents), plus those of no session, with their session. */
  pendingIn(sessions: ReadonlySet<string>): { readonly sessionId: string | null; readonly view: ElicitationPrompt }[] {
    return this.queue.flatMap((p) => (p.sessionId === null || sessions.has(p.sessionId) ? [{ sessionId: p.sessionId, view: p.view }] : []));
  }

  /** The user's answer; false for an unknown or already settled question. */
  respond(requestId: string, answer: CreateElicitationResult): boolean {
    return this.settle(requestId, answer);
  }

  cancelAll(): void {
    for (const p of this.queue.slice()) this.settle(p.view.requestId, { action: 'cancel' });
  }

  dispose(): void {
    this.cancelAll();
    this.changed.dispose();
  }

  private settle(requestId: string, answer: CreateElicitationResult): boolean {
    const i = this.queue.findIndex((x) => x.view.requestId === requestId);
    if (i < 0) return false;
    const [p] = this.queue.splice(i, 1);
    p?.resolve(answer);
    this.changed.fire();
    return true;
  }
}
