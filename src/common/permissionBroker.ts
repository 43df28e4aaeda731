/**
 * The one owner of every `session/request_permission` request the agent is still waiting on, oldest first.
 *
 * The ACP client registers each request here (`request`) and awaits it; a rule, a policy or the user (through
 * `askUser`, the panel's card) decides it. Whatever happens first settles it, exactly once: the decision, the
 * user's answer, the turn's cancel (`cancelSession`), the agent's `$/cancel_request` (the request's signal),
 * the session closing or the connection ending (`cancelOwner`). Nothing else holds a pending request, so
 * nothing else can answer one a second time or forget one; answered requests are the store's entries.
 */
import type { PermissionView } from './webview/contract';
import { Emitter } from './util/lifecycle';
import { optionFor, type PermissionOptionLike } from './permissions';

type PermissionOutcome = { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

/** The answer the agent gets: an outcome, plus whatever else a decider put in the result (`_meta`). */
export interface PermissionAnswer {
  readonly outcome: PermissionOutcome;
}

/** What the user is shown for one request (the panel's card). */
interface PermissionCard {
  readonly toolCallId: string;
  readonly toolCallKey: string | null;
  readonly title: string;
  readonly options: readonly PermissionOptionLike[];
}

/** Shows the pending request to the user; resolves with however the request was settled. */
export type AskUser = (card: PermissionCard) => Promise<PermissionOutcome>;

/** Decides one request: `signal` aborts as soon as the request is settled by anything else. */
export type PermissionDecider<A extends PermissionAnswer> = (signal: AbortSignal, askUser: AskUser) => Promise<A>;

export interface PermissionRequestOptions {
  /** The agent withdrew the request (`$/cancel_request`): it is answered `cancelled`. */
  readonly signal?: AbortSignal;
  /** Who registered it (a connection), so `cancelOwner` ends only that one's requests. */
  readonly owner?: object;
}

export const CANCELLED: PermissionAnswer = { outcome: { outcome: 'cancelled' } };

interface Pending {
  readonly sessionId: string;
  readonly owner: object | undefined;
  /** Set once the request waits on the user: only these are `pending()` (the panel's cards). */
  view: PermissionView | null;
  readonly settle: (answer: PermissionAnswer | { readonly error: Error }) => void;
}

export class PermissionBroker {
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  /** Fires when the requests shown to the user change. */
  readonly onDidChange = this.changed.event;

  /**
   * Registers a request and lets `decide` answer it. Settles exactly once, with the first of: `decide`'s
   * answer (or its error), the user's answer, a cancellation. `decide` is told (its signal) when it lost.
   */
  request<A extends PermissionAnswer>(sessionId: string, decide: PermissionDecider<A>, o: PermissionRequestOptions = {}): Promise<A | PermissionAnswer> {
    if (o.signal?.aborted) return Promise.resolve(CANCELLED);
    const done = new AbortController();
    let userAnswer: (outcome: PermissionOutcome) => void = () => undefined;
    const answered = new Promise<PermissionOutcome>((resolve) => (userAnswer = resolve));
    const result = new Promise<A | PermissionAnswer>((resolve, reject) => {
      const entry: Pending = {
        sessionId,
        owner: o.owner,
        view: null,
        settle: (answer) => {
          const i = this.queue.indexOf(entry);
          if (i < 0) return;
          this.queue.splice(i, 1);
          done.abort();
          if ('error' in answer) {
            userAnswer(CANCELLED.outcome);
            reject(answer.error);
          } else {
            userAnswer(answer.outcome);
            resolve(answer);
          }
          if (entry.view) this.changed.fire();
        },
      };
      this.queue.push(entry);
      o.signal?.addEventListener('abort', () => entry.settle(CANCELLED), { once: true });
      const askUser: AskUser = (card) => {
        if (this.queue.includes(entry) && !entry.view) {
          entry.view = {
            requestId: `perm-${this.nextId++}`,
            toolCallKey: card.toolCallKey,
            toolCallId: card.toolCallId,
            title: card.title,
            options: card.options.map((x) => ({ optionId: x.optionId, name: x.name, kind: x.kind })),
          };
          this.changed.fire();
        }
        return answered;
      };
      decide(done.signal, askUser).then(
        (answer) => entry.settle(answer),
        (err: unknown) => entry.settle({ error: err instanceof Error ? err : new Error(String(err)) }),
      );
    });
    return result;
  }

  /** The requests waiting on the user, oldest first (of one session, or all). */
  pending(sessionId?: string): PermissionView[] {
    return this.queue.flatMap((p) => (p.view && (sessionId === undefined || p.sessionId === sessionId) ? [p.view] : []));
  }

  /** The requests waiting on the user from any of `sessions` (a root and its subagents), oldest first, with their session. */
  pendingIn(sessions: ReadonlySet<string>): { readonly sessionId: string; readonly view: PermissionView }[] {
    return this.queue.flatMap((p) => (p.view && sessions.has(p.sessionId) ? [{ sessionId: p.sessionId, view: p.view }] : []));
  }

  /** Every request still unanswered, whoever decides it (of one session, or all). */
  count(sessionId?: string): number {
    return this.queue.filter((p) => sessionId === undefined || p.sessionId === sessionId).length;
  }

  /**
   * The user's answer. `optionId: null` means "reject" (Esc): the request's reject_once option, or a
   * cancellation when it offers no reject option. Returns false for an unknown or already settled request
   * or an option the request did not offer.
   */
  respond(requestId: string, optionId: string | null): boolean {
    const p = this.queue.find((x) => x.view?.requestId === requestId);
    const view = p?.view;
    if (!p || !view) return false;
    if (optionId === null) {
      const reject = optionFor('reject', view.options);
      p.settle(reject ? { outcome: { outcome: 'selected', optionId: reject.optionId } } : CANCELLED);
      return true;
    }
    if (!view.options.some((o) => o.optionId === optionId)) return false;
    p.settle({ outcome: { outcome: 'selected', optionId } });
    return true;
  }

  /** Answers every pending request of a session with `cancelled` (ACP requires it after session/cancel). */
  cancelSession(sessionId: string): number {
    return this.cancelWhere((p) => p.sessionId === sessionId);
  }

  /** Answers every pending request `owner` registered with `cancelled` (its connection ended). */
  cancelOwner(owner: object): number {
    return this.cancelWhere((p) => p.owner === owner);
  }

  cancelAll(): void {
    this.cancelWhere(() => true);
  }

  dispose(): void {
    this.cancelAll();
    this.changed.dispose();
  }

  private cancelWhere(match: (p: Pending) => boolean): number {
    const hit = this.queue.filter(match);
    for (const p of hit) p.settle(CANCELLED);
    return hit.length;
  }
}
