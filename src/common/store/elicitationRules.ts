/**
 * The elicitation rules: an agent's `elicitation/create` for a session appends an entry where it
 * arrives in the transcript; the client's response records the answer on it; `elicitation/complete`
 * marks a URL-mode one done. The entry is never removed, so the transcript keeps what was asked and
 * what was answered.
 */
import type { Action } from './actions';
import type { StepDeps } from './stepDeps';
import { touchOf } from './stepDeps';
import type { EntryTable } from './entryTable';
import { newStats, touchStats } from './stats';
import { zCompleteElicitationParams, zCreateElicitationParams } from '../protocol/elicitation';
import type { Entry } from './model';

type Of<K extends Action['kind']> = Extract<Action, { kind: K }>;

/** A session-scoped `elicitation/create` as the action that adds its entry; null when it is request-scoped or malformed. */
export function elicitationAskedAction(id: string | number, params: unknown): { readonly sessionId: string; readonly action: Of<'elicitation_asked'> } | null {
  const p = zCreateElicitationParams.safeParse(params);
  if (!p.success || p.data.sessionId === undefined) return null;
  const d = p.data;
  const ask = {
    requestId: id,
    mode: d.mode,
    message: d.message,
    toolCallId: d.toolCallId ?? null,
    requestedSchema: d.requestedSchema ?? null,
    elicitationId: d.elicitationId ?? null,
    url: d.url ?? null,
  };
  return { sessionId: d.sessionId as string, action: { kind: 'elicitation_asked', ask } };
}

/**
 * `elicitation/complete`: marks the URL question that bears the id, in the session that asked it. An id no
 * question announced (forged, or of another client) changes nothing and is a diagnostic.
 */
export function elicitationCompleted(
  sessions: Iterable<{ readonly sessionId: string; state(): { readonly entries: readonly Entry[] } }>,
  params: unknown,
  ctx: Pick<StepDeps, 'diagnostic'>,
  apply: (sessionId: string, action: Of<'elicitation_completed'>) => void,
): void {
  const p = zCompleteElicitationParams.safeParse(params);
  if (!p.success) return;
  const id = p.data.elicitationId;
  let found = false;
  for (const s of sessions)
    if (s.state().entries.some((e) => e.kind === 'elicitation' && e.elicitationId === id)) {
      found = true;
      apply(s.sessionId, { kind: 'elicitation_completed', elicitationId: id });
    }
  if (!found) ctx.diagnostic('warning', `elicitation/complete for '${id}', which no question of this client announced; ignored`);
}

export class ElicitationRules {
  constructor(private readonly table: EntryTable) {}

  asked(a: Of<'elicitation_asked'>, ctx: StepDeps): void {
    this.table.append({ kind: 'elicitation', ...a.ask, status: 'pending', answer: null, completed: false, provenance: 'live', stats: newStats(touchOf(ctx, 0, false)) }, ctx);
  }

  answered(a: Of<'elicitation_answered'>, ctx: StepDeps): void {
    const i = this.table.indexOfKey(a.key);
    const e = i === undefined ? undefined : this.table.elicitation(i);
    if (i === undefined || !e || e.status !== 'pending') return;
    this.table.replace(i, { ...e, status: a.status, answer: a.answer, stats: touchStats(e.stats, touchOf(ctx, 0, false)) }, ctx);
  }

  completed(elicitationId: string, ctx: StepDeps): void {
    for (let i = this.table.length - 1; i >= 0; i--) {
      const e = this.table.elicitation(i);
      if (!e || e.elicitationId !== elicitationId || e.completed) continue;
      this.table.replace(i, { ...e, completed: true, stats: touchStats(e.stats, touchOf(ctx, 0, false)) }, ctx);
      return;
    }
  }
}
