/**
 * The client's side of `elicitation/create` and `elicitation/complete`: checks the request (a mode the
 * client advertised, a form inside the restricted schema subset), hands it to the host's ElicitationHost,
 * and checks the host's answer before it goes out: accepted form content is validated against the
 * requested schema, and an answer that fails is never sent (the agent gets `decline`, the log says why).
 *
 * Like permission requests, a pending elicitation of a session is answered `cancel` when the turn is
 * cancelled (`session/cancel`) or the session closed, and every pending one when the connection ends
 * or the agent withdraws it (`$/cancel_request`): a question can never hang silently.
 */
import { ErrorCodes, ClientMethods } from '../../common/protocol/methods';
import {
  zCompleteElicitationParams,
  zCreateElicitationParams,
  zCreateElicitationResult,
  type CreateElicitationResult,
  type ElicitationCapabilities,
} from '../../common/protocol/elicitation';
import { parseForm, validateAnswers } from '../../common/elicitation/form';
import { onAcpNotification, onAcpRequest, rpcError, type AcpConnection, type LogFn } from '../transport/connection';
import type { ElicitationHost } from './handlers';
import type { ConnectionSessions } from './connectionSessions';

const CANCEL: CreateElicitationResult = { action: 'cancel' };
const DECLINE: CreateElicitationResult = { action: 'decline' };

interface Pending {
  readonly sessionId: string | null;
  readonly resolve: (r: CreateElicitationResult) => void;
  readonly controller: AbortController;
}

/** `clientCapabilities.elicitation` for a host: `{}` per mode it serves; undefined when it serves none. */
export function elicitationCapabilities(host: ElicitationHost | undefined): ElicitationCapabilities | undefined {
  if (!host || (!host.modes.form && !host.modes.url)) return undefined;
  return { ...(host.modes.form ? { form: {} } : {}), ...(host.modes.url ? { url: {} } : {}) };
}

export class Elicitations {
  private readonly pending = new Set<Pending>();
  /** The ids of the URL questions the agent asked: only these may be completed (elicitation/complete). */
  private readonly urlIds = new Set<string>();

  /** `sessions`: the connection's one session check (a session-scoped question must name one of its sessions). */
  constructor(acp: AcpConnection, host: ElicitationHost, log: LogFn, sessions: Pick<ConnectionSessions, 'check'>) {
    onAcpRequest(acp, ClientMethods.elicitationCreate, zCreateElicitationParams, (raw, ctx) => {
      const p = sessions.check(ClientMethods.elicitationCreate, raw);
      const mode = p.mode === 'form' || p.mode === 'url' ? p.mode : null;
      if (mode === null || !host.modes[mode]) {
        throw rpcError(
          ErrorCodes.invalidParams,
          `elicitation mode ${JSON.stringify(p.mode)} was not advertised by this client (it serves ${Object.keys(elicitationCapabilities(host) ?? {}).join(', ') || 'none'})`,
        );
      }
      if (mode === 'url' && p.elicitationId !== undefined) this.urlIds.add(p.elicitationId);
      let form = null;
      if (mode === 'form') {
        const parsed = parseForm(p.requestedSchema);
        if (!parsed.ok) throw rpcError(ErrorCodes.invalidParams, `requestedSchema is outside the restricted JSON Schema subset: ${parsed.problems.join('; ')}`);
        form = parsed.form;
      }
      return new Promise<CreateElicitationResult>((resolve, reject) => {
        const controller = new AbortController();
        const entry: Pending = {
          sessionId: p.sessionId ?? null,
          controller,
          resolve: (r) => {
            if (!this.pending.delete(entry)) return;
            resolve(r);
          },
        };
        this.pending.add(entry);
        ctx.signal.addEventListener('abort', () => entry.resolve(CANCEL), { once: true });
        host.create({ params: p, form, rpcId: ctx.requestId ?? null }, controller.signal).then(
          (r) => {
            const checked = zCreateElicitationResult.safeParse(r);
            if (!checked.success) {
              log('error', `elicitation handler returned an invalid answer; answering cancel: ${checked.error.message}`);
              entry.resolve(CANCEL);
              return;
            }
            if (checked.data.action === 'accept' && form) {
              const v = validateAnswers(form, checked.data.content ?? {});
              if (!v.ok) {
                log(
                  'error',
                  `elicitation answer does not match the requested schema; answering decline: ${v.problems.map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; ')}`,
                );
                entry.resolve(DECLINE);
                return;
              }
              entry.resolve({ ...checked.data, content: v.content });
              return;
            }
            // URL mode has no content: an accept means only "the user agreed to open it".
            entry.resolve(checked.data.action === 'accept' ? { action: 'accept' } : checked.data);
          },
          (err: unknown) => {
            if (!this.pending.has(entry)) return;
            this.pending.delete(entry);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
    });
    onAcpNotification(
      acp,
      ClientMethods.elicitationComplete,
      zCompleteElicitationParams,
      (n) => {
        if (this.urlIds.has(n.elicitationId)) host.complete?.(n.elicitationId);
        else log('warn', `${ClientMethods.elicitationComplete} for ${JSON.stringify(n.elicitationId)}, which no URL question of this connection announced; ignored`);
      },
      log,
    );
  }

  /** Answers every pending elicitation of a session `cancel` (its turn was cancelled or it closed). */
  cancelSession(sessionId: string): void {
    for (const p of [...this.pending]) {
      if (p.sessionId !== sessionId) continue;
      p.resolve(CANCEL);
      p.controller.abort();
    }
  }

  /** The connection ended: the host's prompts are withdrawn (nothing can be sent any more). */
  closeAll(): void {
    for (const p of [...this.pending]) p.controller.abort();
  }

  count(sessionId?: string): number {
    let n = 0;
    for (const p of this.pending) if (sessionId === undefined || p.sessionId === sessionId) n++;
    return n;
  }
}
