/**
 * The agent -> client direction of one ACP connection: the requests and notifications the agent sends us.
 *
 * Why it is its own file: `AcpClient` is the typed surface of what *we* ask the agent; this is what the
 * agent may ask of us, decided by the handlers the client was given (a method without a handler is not
 * registered, so vscode-jsonrpc answers -32601), and it is where agent input is untrusted: every request and
 * update must name a session of this connection (connectionSessions.ts: ours and their subagents), and a permission answer must name an option the agent offered.
 * Permission requests are registered in the `PermissionBroker`, their one owner, and awaited there.
 */
import type * as z from 'zod';
import { ClientMethods } from '../../common/protocol/methods';
import {
  zCreateTerminalParams,
  zReadTextFileParams,
  zRequestPermissionParams,
  zRequestPermissionResult,
  zSessionNotification,
  zTerminalParams,
  zWriteTextFileParams,
  type RequestPermissionParams,
  type SessionNotification,
} from '../../common/protocol/requests';
import { CANCELLED, type PermissionAnswer, type PermissionBroker } from '../../common/permissionBroker';
import { onAcpNotification, onAcpRequest, type AcpConnection, type LogFn, type RequestMeta } from '../transport/connection';
import type { ClientHandlers } from './handlers';
import type { ConnectionSessions } from './connectionSessions';

export interface AgentRequestDeps {
  readonly acp: AcpConnection;
  readonly handlers: ClientHandlers;
  /** Where permission requests wait until they are settled (once). */
  readonly permissions: PermissionBroker;
  /** The connection the requests belong to: its end cancels only these (`PermissionBroker.cancelOwner`). */
  readonly owner: object;
  /** Sessions of this connection; the agent's requests and updates must name one of these. */
  readonly sessions: Pick<ConnectionSessions, 'check' | 'admitUpdate'>;
  /** Every valid `session/update` of a session of this connection. */
  readonly onUpdate: (n: SessionNotification) => void;
  /** Whether the user cancelled the turn this session works in (its own prompt, or a parent's), still in flight. */
  readonly turnCancelled: (sessionId: string) => boolean;
  readonly log: LogFn;
}

export function serveAgentRequests(d: AgentRequestDeps): void {
  const { acp, handlers: h, log } = d;
  /** Every request is registered here: its params pass the connection's one session check first. */
  const serve = <S extends z.ZodType, R>(method: string, schema: S, handler: (p: z.infer<S>, ctx: RequestMeta) => Promise<R> | R): void =>
    onAcpRequest(acp, method, schema, (p, ctx) => handler(d.sessions.check(method, p), ctx));
  // A text chunk the transport checked is a valid SessionNotification already: not validated again.
  onAcpNotification(
    acp,
    ClientMethods.sessionUpdate,
    zSessionNotification,
    (n) => {
      if (d.sessions.admitUpdate(n)) d.onUpdate(n);
    },
    log,
    (c) => c.chunk !== undefined,
  );

  serve(ClientMethods.sessionRequestPermission, zRequestPermissionParams, (p, ctx) => {
    // A request that crossed our session/cancel on the wire belongs to the cancelled turn: answered as the
    // ones pending then were (§8.1), never shown (an agent waiting on it would never end the turn).
    if (d.turnCancelled(p.sessionId)) return CANCELLED;
    // The broker settles it once, with the first of: the handler's checked answer, the user's, or a
    // cancellation (session/cancel, $/cancel_request, the session closing, the connection ending).
    return d.permissions.request(p.sessionId, async (signal, askUser) => checkedAnswer(p, await h.requestPermission(p, signal, askUser), log), {
      signal: ctx.signal,
      owner: d.owner,
    });
  });

  if (h.readTextFile) {
    const read = h.readTextFile.bind(h);
    serve(ClientMethods.fsReadTextFile, zReadTextFileParams, (p, ctx) => read(p, ctx.signal));
  }
  if (h.writeTextFile) {
    const write = h.writeTextFile.bind(h);
    serve(ClientMethods.fsWriteTextFile, zWriteTextFileParams, async (p, ctx) => {
      await write(p, ctx.signal);
      return {};
    });
  }
  const t = h.terminals;
  if (t) {
    serve(ClientMethods.terminalCreate, zCreateTerminalParams, (p) => t.create(p));
    serve(ClientMethods.terminalOutput, zTerminalParams, (p) => t.output(p));
    serve(ClientMethods.terminalWaitForExit, zTerminalParams, (p, ctx) => t.waitForExit(p, ctx.signal));
    serve(ClientMethods.terminalKill, zTerminalParams, async (p) => {
      await t.kill(p);
      return {};
    });
    serve(ClientMethods.terminalRelease, zTerminalParams, async (p) => {
      await t.release(p);
      return {};
    });
  }
  // Everything else (including methods whose handler is absent) gets -32601 from vscode-jsonrpc.
}

/** A handler's answer the agent may get: a valid result naming an option the agent offered, else `cancelled`. */
function checkedAnswer(p: RequestPermissionParams, r: unknown, log: LogFn): PermissionAnswer {
  const checked = zRequestPermissionResult.safeParse(r);
  if (!checked.success) {
    log('error', `permission handler returned an invalid result; answering cancelled: ${checked.error.message}`);
    return CANCELLED;
  }
  const outcome = checked.data.outcome;
  if (outcome.outcome === 'selected' && !p.options.some((o) => o.optionId === outcome.optionId)) {
    log('error', 'permission handler chose an option the agent did not offer; answering cancelled');
    return CANCELLED;
  }
  return checked.data;
}
