/**
 * The sessions of one ACP connection: the boundary of what the agent may ask of us and tell us. A session is
 * of this connection when the agent created it for us (session/new, fork), when we named it (load, resume,
 * prompt…), or when a `subagent_update` on one of them announced it as a child (any depth): a subagent's
 * permission requests, questions, files and terminals are served under the same boundary and rules as its
 * parent's, because the user asked the parent. Anything else is refused: an agent cannot slip requests or
 * text into a chat under a session nobody opened.
 *
 * The store keeps the same rule for what it shows (src/common/store/sessionScope.ts); this is the live
 * connection's copy, kept here because the CLI and the conformance check run a client without a store.
 */
import type { SessionNotification } from '../../common/protocol/requests';
import { misplacedChild, OPENS_SESSION } from '../../common/store/sessionScope';
import { ErrorCodes } from '../../common/protocol/methods';
import { rpcError, type LogFn } from '../transport/connection';

export class ConnectionSessions {
  /** Every session of the connection, with the session that announced it (null: one of ours). */
  private readonly byId = new Map<string, { readonly parentSessionId: string | null }>();
  /** session/new, fork, load or resume requests still unanswered. */
  private opening = 0;

  constructor(private readonly log: LogFn) {}

  has(sessionId: string): boolean {
    return this.byId.has(sessionId);
  }

  /**
   * The one check of every request the agent sends (agentRequests.ts, elicitations.ts): params that name a
   * session must name one of this connection; anything else is refused (-32602, `unknown_session`).
   */
  check<P>(method: string, params: P): P {
    const sid: unknown = typeof params === 'object' && params !== null ? (params as { sessionId?: unknown }).sessionId : undefined;
    if (sid !== undefined && (typeof sid !== 'string' || !this.byId.has(sid))) {
      throw rpcError(ErrorCodes.invalidParams, `${method}: unknown session ${JSON.stringify(sid)}; this client did not open it`, { reason: 'unknown_session', sessionId: sid });
    }
    return params;
  }

  /** A session the agent created for us or that we named: a root of this connection. */
  ours(sessionId: string): void {
    if (!this.byId.has(sessionId)) this.byId.set(sessionId, { parentSessionId: null });
  }

  /**
   * Runs one of our requests. While a session-opening one is in flight, updates for a session not known yet
   * are let through: agents send the new session's first updates before the response names it. The count
   * drops only after `run` settled (its caller noted the new session in the same continuation).
   */
  async request<T>(method: string, run: () => Promise<T>): Promise<T> {
    if (!OPENS_SESSION.has(method)) return run();
    this.opening++;
    try {
      return await run();
    } finally {
      this.opening--;
    }
  }

  /**
   * Whether an update may reach the connection's listeners (a refusal is logged). An admitted
   * `subagent_update` announces its child, which is a session of the connection from then on.
   */
  admitUpdate(n: SessionNotification): boolean {
    if (!this.byId.has(n.sessionId) && this.opening === 0) {
      this.log(
        'warn',
        `session/update (${n.update.sessionUpdate}) for session ${JSON.stringify(n.sessionId)}, which this connection never opened and no subagent_update announced; not delivered`,
      );
      return false;
    }
    if (n.update.sessionUpdate === 'subagent_update') this.announce(n.sessionId, n.update['sessionId']);
    return true;
  }

  /** The session and every subagent announced under it, any depth (each once, parents first). */
  withDescendants(sessionId: string): string[] {
    const out = [sessionId];
    for (let i = 0; i < out.length; i++) for (const [id, s] of this.byId) if (s.parentSessionId === out[i] && !out.includes(id)) out.push(id);
    return out;
  }

  /**
   * A child named by `parentId`'s subagent_update. One it may not name (itself, an ancestor, another
   * parent's child or one of our own sessions) is not adopted; the update still goes out (the store shows
   * its diagnostic), so only the log says so here.
   */
  private announce(parentId: string, child: unknown): void {
    if (typeof child !== 'string' || child === '') return; // malformed: the store says so, nothing to adopt
    const refused = misplacedChild(this.byId, parentId, child);
    if (refused !== null) this.log('warn', refused);
    else if (!this.byId.has(child)) this.byId.set(child, { parentSessionId: parentId });
  }
}
