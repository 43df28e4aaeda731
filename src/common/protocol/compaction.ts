/**
 * ACP v1 context compaction (`session.compaction` client capability): `compaction_update`, an upsert of one
 * compaction by its agent-owned `compactionId` whose `summary`, `error` and `_meta` are patches (omitted =
 * unchanged, null = clear, `summary: []` clears too), and `compaction_summary_chunk`, one content block
 * appended to a compaction's summary (a first-seen id starts an in-progress compaction).
 */
import * as z from 'zod';
import { zContentBlock, zMeta, type ContentBlock, type Meta } from './content';
import { skipInvalid, tolerant } from './updateWarnings';

/** `in_progress`, then one of the terminal states (a custom or future status is kept as it came). */
export const COMPACTION_TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export const zCompactionUpdate = z.looseObject({
  compactionId: z.string(),
  status: z.string(),
  summary: tolerant('summary', z.union([skipInvalid('summary', zContentBlock), z.null()])),
  error: tolerant('error', z.string().nullable()),
  _meta: tolerant('_meta', zMeta.nullable()),
});

export const zCompactionSummaryChunk = z.looseObject({
  compactionId: z.string(),
  content: zContentBlock,
  _meta: tolerant('_meta', zMeta.nullable()),
});

/** What one `compaction_update` changes; an absent patch field leaves the stored value as it is. */
export interface CompactionPatch {
  readonly compactionId: string;
  readonly status: string;
  /** null: cleared (also for `[]`). */
  readonly summary?: readonly ContentBlock[] | null;
  readonly error?: string | null;
  readonly meta?: Meta | null;
}

export interface CompactionChunk {
  readonly compactionId: string;
  readonly content: ContentBlock;
}

export function compactionPatch(d: z.infer<typeof zCompactionUpdate>): CompactionPatch {
  return {
    compactionId: d.compactionId,
    status: d.status,
    ...(d.summary !== undefined ? { summary: d.summary === null || d.summary.length === 0 ? null : d.summary } : {}),
    ...(d.error !== undefined ? { error: d.error } : {}),
    ...(d._meta !== undefined ? { meta: d._meta } : {}),
  };
}
