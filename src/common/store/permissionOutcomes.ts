/**
 * Which permission requests the user rejected, from the wire alone: the agent's
 * `session/request_permission` names the tool call and its options (with their kinds), the client's
 * response names the chosen option. An agent that sends nothing after a rejection would otherwise leave
 * the tool call "pending" forever. Live requests only (not persisted): a request outlives neither its
 * connection nor a reload.
 */
import * as z from 'zod';
import { idKey, type RequestId } from '../jsonrpc/rpc';

const zOptions = z.looseObject({ options: z.array(z.looseObject({ optionId: z.string(), kind: z.string() })).catch([]) });
const zSelected = z.looseObject({ outcome: z.looseObject({ outcome: z.literal('selected'), optionId: z.string() }) });

interface Asked {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly rejectOptionIds: ReadonlySet<string>;
}

export class PermissionOutcomes {
  private readonly asked = new Map<string, Asked>();

  /** An agent->client permission request about `toolCallId`. */
  request(id: RequestId, sessionId: string, toolCallId: string, params: unknown): void {
    const p = zOptions.safeParse(params);
    const reject = new Set(p.success ? p.data.options.filter((o) => o.kind.startsWith('reject')).map((o) => o.optionId) : []);
    this.asked.set(idKey(id), { sessionId, toolCallId, rejectOptionIds: reject });
  }

  /** The client's response to request `id`: the tool call it rejected, if it chose a reject option. */
  response(id: RequestId, result: unknown): { sessionId: string; toolCallId: string } | null {
    const key = idKey(id);
    const a = this.asked.get(key);
    if (!a) return null;
    this.asked.delete(key);
    const r = zSelected.safeParse(result);
    return r.success && a.rejectOptionIds.has(r.data.outcome.optionId) ? { sessionId: a.sessionId, toolCallId: a.toolCallId } : null;
  }
}
