/**
 * The subagent rule: `subagent_update` on a parent session upserts the delegation entry for the child it
 * names (found by the child's session id, so a repeated or replayed announcement never adds a second card).
 * Every field is a patch: omitted = unchanged, null = cleared; a state is a whole snapshot, and the time it
 * was first reported is kept for "running for 12 s" (a repeated `running` keeps its start).
 */
import type { SubagentPatch } from '../protocol/updates';
import type { EntryTable } from './entryTable';
import type { SubagentEntry } from './model';
import { newStats, touchStats } from './stats';
import { touchOf, type StepDeps } from './stepDeps';
import type { ReplayWindow } from './replayWindow';

export class SubagentRules {
  constructor(
    private readonly table: EntryTable,
    private readonly replay: ReplayWindow,
  ) {}

  update(p: SubagentPatch, ctx: StepDeps): void {
    const index = this.table.indexOfChild(p.childSessionId);
    const e = index === undefined ? undefined : this.table.subagent(index);
    if (index === undefined || !e) {
      this.table.append(
        {
          kind: 'subagent',
          childSessionId: p.childSessionId,
          title: p.title ?? null,
          description: p.description ?? null,
          canCancel: p.canCancel ?? false,
          state: p.state?.state ?? null,
          stopReason: p.state?.stopReason ?? null,
          stateSince: ctx.now,
          cwd: p.cwd ?? null,
          provenance: this.replay.provenance(),
          stats: newStats(touchOf(ctx, 0, false)),
        },
        ctx,
      );
      return;
    }
    const next: SubagentEntry = {
      ...e,
      ...(p.title !== undefined ? { title: p.title } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      ...(p.canCancel !== undefined ? { canCancel: p.canCancel } : {}),
      ...(p.cwd !== undefined ? { cwd: p.cwd } : {}),
      ...(p.state !== undefined ? stateOf(e, p.state, ctx.now) : {}),
      stats: touchStats(e.stats, touchOf(ctx, 0, false)),
    };
    this.table.replace(index, next, ctx);
  }
}

function stateOf(e: SubagentEntry, s: SubagentPatch['state'], now: number): Pick<SubagentEntry, 'state' | 'stopReason' | 'stateSince'> {
  const state = s?.state ?? null;
  return { state, stopReason: s?.stopReason ?? null, stateSince: state === e.state ? e.stateSince : now };
}
