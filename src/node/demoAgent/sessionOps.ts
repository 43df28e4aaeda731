/**
 * The demo agent's session operations beyond the stable set, shared by its v1 and v2 sides: `session/fork`,
 * `session/set_title`, `session/archive` / `session/unarchive` (unstable schema) and `session/delete`.
 * With `sessionOps: false` none is registered or advertised, so a client's "agent lacks it" path can be
 * tested (the methods then answer -32601 like any unknown method).
 */
import { randomBytes } from 'node:crypto';
import { ErrorCodes, AgentMethods } from '../../common/protocol/methods';
import { zSessionIdParams } from '../../common/protocol/requests';
import { zForkSessionParams, zSetSessionTitleParams } from '../../common/protocol/sessionOps';
import { onAcpRequest, rpcError } from '../transport/connection';
import { FORK_AT_MESSAGE, forkAtMessageOf } from '../../common/rewind/forkAtMessage';
import type { AcpConnection } from '../transport/connection';

/** What the operations need of a demo session (both protocol sides' sessions have it). */
export interface DemoSessionLike {
  readonly id: string;
  readonly cwd: string;
  title: string | null;
  turn: AbortController | undefined;
  archived?: boolean;
}

export interface DemoSessionHost<S extends DemoSessionLike> {
  readonly sessions: Map<string, S>;
  /** The session, or a -32002 error. */
  session(id: string): S;
  /**
   * A new session in `cwd` with a copy of `source`'s history (before the message `atMessageId` when the
   * client forks at one; an id the source does not hold is an invalid-params error); returns it registered.
   */
  fork(source: S, cwd: string, atMessageId: string | undefined): S;
  /** What session/new answers beside the id (modes, config options). */
  state(s: S): object;
}

/** The session with `id`, or the error (resource not found) a request about an unknown session gets. */
export function knownSession<S>(sessions: ReadonlyMap<string, S>, id: string): S {
  const s = sessions.get(id);
  if (!s) throw rpcError(ErrorCodes.resourceNotFound, `unknown session ${id}`);
  return s;
}

/** A fresh id tag for a session adopted by session/resume (see the sessions' `tag`). */
export function adoptedTag(): string {
  return `r${randomBytes(3).toString('hex')}.`;
}

/** Longest title the demo stores (it truncates, as the schema allows agents to). */
const MAX_TITLE = 120;

/**
 * The capability markers the operations are advertised with (v1 `sessionCapabilities`, v2 `session`);
 * `forkAtMessage`: the fork also branches at a message (the draft's marker inside `fork`).
 */
export function sessionOpsCapabilities(forkAtMessage: boolean): object {
  return { delete: {}, fork: forkAtMessage ? { [FORK_AT_MESSAGE.capability]: {} } : {}, archive: {}, title: {} };
}

/** The error a fork at a message the session does not hold gets. */
export function unknownMessage(id: string): Error {
  return rpcError(ErrorCodes.invalidParams, `the session holds no message ${id} to fork at`);
}

/** Whether `session/list` shows `s` for the request's `archived` filter (default: exclude archived). */
export function listedForArchiveFilter(s: DemoSessionLike, archived: unknown): boolean {
  if (archived === 'include') return true;
  if (archived === 'only') return s.archived === true;
  return s.archived !== true;
}

export function registerSessionOps<S extends DemoSessionLike>(acp: AcpConnection, host: DemoSessionHost<S>): void {
  onAcpRequest(acp, AgentMethods.sessionFork, zForkSessionParams, (p) => {
    const fork = host.fork(host.session(p.sessionId), p.cwd, forkAtMessageOf(p));
    return { sessionId: fork.id, ...host.state(fork) };
  });
  onAcpRequest(acp, AgentMethods.sessionSetTitle, zSetSessionTitleParams, (p) => {
    const s = host.session(p.sessionId);
    const title = p.title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
    if (title === '') throw rpcError(ErrorCodes.invalidParams, 'the title is empty');
    s.title = title;
    return { title };
  });
  onAcpRequest(acp, AgentMethods.sessionArchive, zSessionIdParams, (p) => {
    const s = host.session(p.sessionId);
    // Archiving an active session closes it first (cancels its turn), as session/close would.
    s.turn?.abort();
    s.archived = true;
    return {};
  });
  onAcpRequest(acp, AgentMethods.sessionUnarchive, zSessionIdParams, (p) => {
    host.session(p.sessionId).archived = false;
    return {};
  });
  onAcpRequest(acp, AgentMethods.sessionDelete, zSessionIdParams, (p) => {
    const s = host.sessions.get(p.sessionId);
    // Deleting an unknown session is not an error: the result (it is gone) is the same.
    s?.turn?.abort();
    host.sessions.delete(p.sessionId);
    return {};
  });
}
