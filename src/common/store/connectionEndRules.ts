/**
 * What the store does when the connection that made the pending requests is gone (`connection_ended`: its
 * agent exited, or the window that ran it closed). Its own file because store.ts is full, and because the
 * chat thread reads the same mark back after a reload (an interrupted turn offers Retry).
 */
import { AgentMethods, ClientMethods } from '../protocol/methods';
import type { Notice } from '../notices';
import type { Entry } from './model';
import type { PendingRequest } from './persisted';

/** The mark on the prompt of a turn that was running when the window closed. */
const INTERRUPTED_TITLE = 'Interrupted: this turn was running when the window closed; it was not resumed.';

export interface ConnectionEnd {
  /** Notices drawn on entries: expired permission requests, an interrupted prompt. */
  readonly marks: { readonly sessionId: string; readonly notice: Notice }[];
  /** Sessions whose unfinished tool calls stop (their agent will never finish them: never "Pending" forever). */
  readonly stopped: ReadonlySet<string>;
}

/** `turn`: a prompt still running is marked interrupted (after an agent's exit the recovery supervisor says so instead). */
export function connectionEnd(toAgent: Iterable<PendingRequest>, toClient: Iterable<PendingRequest>, turn: boolean): ConnectionEnd {
  const marks: ConnectionEnd['marks'] = [];
  const stopped = new Set<string>();
  for (const req of toClient) {
    if (req.method !== ClientMethods.sessionRequestPermission || req.sessionId === null || req.localKey === null) continue;
    marks.push({
      sessionId: req.sessionId,
      notice: { severity: 'info', title: 'Permission request expired: the agent that asked is no longer waiting.', description: 'Nothing was allowed.', entryKey: req.localKey },
    });
    stopped.add(req.sessionId);
  }
  for (const req of toAgent) {
    if (req.method !== AgentMethods.sessionPrompt || req.sessionId === null) continue;
    stopped.add(req.sessionId);
    if (turn && req.localKey !== null)
      marks.push({ sessionId: req.sessionId, notice: { severity: 'warning', title: INTERRUPTED_TITLE, description: 'Send a message to go on.', entryKey: req.localKey } });
  }
  return { marks, stopped };
}

/** Whether the session's last prompt carries the interrupted mark (the window closed while it ran). */
export function lastPromptInterrupted(entries: readonly Entry[], notices: readonly Notice[]): boolean {
  const last = entries.findLast((e) => e.kind === 'user_message');
  return last !== undefined && notices.some((n) => n.entryKey === last.key && n.title === INTERRUPTED_TITLE);
}
