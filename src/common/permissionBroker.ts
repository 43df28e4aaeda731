/**
 * Pending `session/request_permission` requests, oldest first. Every request stays visible (in
 * `pending()`) until it is answered by the user, answered by a rule, cancelled by the turn's cancel, or
 * withdrawn by the agent (`$/cancel_request`): a permission prompt can never hang silently.
 */
import type { PermissionView } from './webview/contract';
import { Emitter } from './util/lifecycle';
import { optionFor, type PermissionOptionLike } from './permissions';

export type PermissionOutcome = { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

export interface PermissionAsk {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolCallKey: string | null;
  readonly title: string;
  readonly options: readonly PermissionOptionLike[];
}

interface Pending {
  readonly view: PermissionView;
  readonly sessionId: string;
  readonly resolve: (o: PermissionOutcome) => void;
}

export class PermissionBroker {
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  /** Queues a request; resolves when it is answered. An aborted `signal` resolves it as cancelled. */
  ask(ask: PermissionAsk, signal?: AbortSignal): Promise<PermissionOutcome> {
    if (signal?.aborted) return Promise.resolve({ outcome: 'cancelled' });
    return new Promise((resolve) => {
      const requestId = `perm-${this.nextId++}`;
      const view: PermissionView = {
        requestId,
        toolCallKey: ask.toolCallKey,
        toolCallId: ask.toolCallId,
        title: ask.title,
        options: ask.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
      };
      this.queue.push({ view, sessionId: ask.sessionId, resolve });
      signal?.addEventListener('abort', () => this.settle(requestId, { outcome: 'cancelled' }), { once: true });
      this.changed.fire();
    });
  }

  pending(sessionId?: string): PermissionView[] {
    return this.queue.filter((p) => sessionId === undefined || p.sessionId === sessionId).map((p) => p.view);
  }

  /**
   * The user's answer. `optionId: null` means "reject" (Esc): the request's reject_once option, or a
   * cancellation when it offers no reject option. Returns false for an unknown or already settled request
   * or an option the request did not offer.
   */
  respond(requestId: string, optionId: string | null): boolean {
    const p = this.queue.find((x) => x.view.requestId === requestId);
    if (!p) return false;
    if (optionId === null) {
      const reject = optionFor('reject', p.view.options);
      return this.settle(requestId, reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' });
    }
    if (!p.view.options.some((o) => o.optionId === optionId)) return false;
    return this.settle(requestId, { outcome: 'selected', optionId });
  }

  /** Answers every pending request of a session with `cancelled` (ACP requires it after session/cancel). */
  cancelSession(sessionId: string): number {
    const ids = this.queue.filter((p) => p.sessionId === sessionId).map((p) => p.view.requestId);
    for (const id of ids) this.settle(id, { outcome: 'cancelled' });
    return ids.length;
  }

  cancelAll(): void {
    for (const p of this.queue.slice()) this.settle(p.view.requestId, { outcome: 'cancelled' });
  }

  dispose(): void {
    this.cancelAll();
    this.changed.dispose();
  }

  private settle(requestId: string, outcome: PermissionOutcome): boolean {
    const i = this.queue.findIndex((x) => x.view.requestId === requestId);
    if (i < 0) return false;
    const [p] = this.queue.splice(i, 1);
    p?.resolve(outcome);
    this.changed.fire();
    return true;
  }
}
