/**
 * The compaction rule: `compaction_update` upserts the compaction's row by its `compactionId` (a repeated or
 * replayed update never adds a second row), `compaction_summary_chunk` appends to its summary (a first-seen
 * id starts an in-progress row). `summary`, `error` and `_meta` are patches: omitted = unchanged, so Claude's
 * second `completed` without a summary keeps the summary already shown. A session/load replay never takes a
 * finished compaction back to in progress (a match never makes a shown entry worse, replayWindow.ts).
 */
import { COMPACTION_TERMINAL, type CompactionChunk, type CompactionPatch } from '../protocol/compaction';
import { appendBlock, blockText } from './content';
import type { EntryTable } from './entryTable';
import type { CompactionEntry } from './model';
import type { ReplayWindow } from './replayWindow';
import { newStats, touchStats, utf8Length } from './stats';
import { touchOf, type StepDeps } from './stepDeps';

export class CompactionRules {
  constructor(
    private readonly table: EntryTable,
    private readonly replay: ReplayWindow,
  ) {}

  update(p: CompactionPatch, ctx: StepDeps): void {
    const bytes = p.summary ? utf8Length(p.summary.map(blockText).join('')) : 0;
    const found = this.find(p.compactionId);
    if (!found) {
      this.table.append(
        {
          kind: 'compaction',
          compactionId: p.compactionId,
          status: p.status,
          summary: p.summary ?? [],
          error: p.error ?? null,
          meta: p.meta ?? null,
          provenance: this.replay.provenance(),
          stats: newStats(touchOf(ctx, bytes, false)),
        },
        ctx,
      );
      return;
    }
    const [index, e] = found;
    const backwards = this.replay.active && COMPACTION_TERMINAL.has(e.status) && !COMPACTION_TERMINAL.has(p.status);
    const next: CompactionEntry = {
      ...e,
      status: backwards ? e.status : p.status,
      ...(p.summary !== undefined ? { summary: p.summary ?? [] } : {}),
      ...(p.error !== undefined ? { error: p.error } : {}),
      ...(p.meta !== undefined ? { meta: p.meta } : {}),
      stats: touchStats(e.stats, touchOf(ctx, bytes, false)),
    };
    this.table.replace(index, next, ctx);
  }

  chunk(c: CompactionChunk, ctx: StepDeps): void {
    const touch = touchOf(ctx, utf8Length(blockText(c.content)), true);
    const found = this.find(c.compactionId);
    if (!found) {
      const entry = { kind: 'compaction' as const, compactionId: c.compactionId, status: 'in_progress', summary: [c.content], error: null, meta: null };
      this.table.append({ ...entry, provenance: this.replay.provenance(), stats: newStats(touch) }, ctx);
      return;
    }
    const [index, e] = found;
    this.table.replace(index, { ...e, summary: appendBlock(e.summary, c.content).content, stats: touchStats(e.stats, touch) }, ctx);
  }

  private find(compactionId: string): [number, CompactionEntry] | undefined {
    const index = this.table.indexOfCompaction(compactionId);
    const e = index === undefined ? undefined : this.table.compaction(index);
    return index === undefined || !e ? undefined : [index, e];
  }
}
