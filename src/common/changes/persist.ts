/**
 * Saving and restoring a chat's change sets with the chat (the summaries survive a window reload like
 * the transcript does). Bounded: beyond MAX_SAVED_CHARS of text the oldest sets are not saved, so a
 * huge file rewritten often cannot bloat the workspace state. Restored state is untrusted input: a bad
 * one is dropped with a reason, never half-used.
 */
import * as z from 'zod';
import { EMPTY_CHANGES, MAX_SETS, type ChangeSet, type ChangesState } from './model';

const MAX_SAVED_CHARS = 4_000_000;

const zFile = z.object({
  path: z.string(),
  oldText: z.string().nullable(),
  agentText: z.string().nullable(),
  source: z.enum(['write', 'diff']),
  state: z.enum(['pending', 'kept', 'undone', 'conflict']),
  note: z.string().nullable(),
  blocked: z.string().nullable(),
  added: z.number().int().nonnegative().nullable(),
  removed: z.number().int().nonnegative().nullable(),
  hunks: z.object({ kept: z.number().int().nonnegative(), undone: z.number().int().nonnegative() }).optional(),
  tools: z.array(z.string()).max(1000).optional(),
  agentFull: z.string().optional(),
});
const zSet = z.object({
  id: z.string().min(1),
  sessionId: z.string(),
  afterKey: z.string().nullable(),
  ended: z.boolean(),
  files: z.array(zFile),
});
const zSaved = z.object({ v: z.literal(1), seq: z.number().int().nonnegative(), sets: z.array(zSet).max(MAX_SETS) });
/** What is saved (its shape is `zSaved`'s). */
export interface SavedChanges {
  readonly v: 1;
  readonly seq: number;
  readonly sets: readonly ChangeSet[];
}

function size(set: ChangeSet): number {
  return set.files.reduce((n, f) => n + f.path.length + (f.oldText?.length ?? 0) + (f.agentText?.length ?? 0) + (f.agentFull?.length ?? 0), 0);
}

/** What is saved: the newest sets that fit in MAX_SAVED_CHARS. */
export function savedChanges(s: ChangesState, maxChars = MAX_SAVED_CHARS): SavedChanges {
  const kept: ChangeSet[] = [];
  let total = 0;
  for (let i = s.sets.length - 1; i >= 0; i--) {
    const set = s.sets[i]!;
    total += size(set);
    if (total > maxChars) break;
    kept.unshift(set);
  }
  return { v: 1, seq: s.seq, sets: kept };
}

/**
 * The state saved by `savedChanges`, or the empty state with a reason. A set whose turn was still
 * running when the window closed is ended now: its turn is over.
 */
export function restoreChanges(raw: unknown): { state: ChangesState; problem: string | null } {
  if (raw === undefined || raw === null) return { state: EMPTY_CHANGES, problem: null };
  const r = zSaved.safeParse(raw);
  if (!r.success) return { state: EMPTY_CHANGES, problem: `the saved change summaries were unreadable and are dropped: ${r.error.message.slice(0, 300)}` };
  const sets = r.data.sets.filter((c) => c.files.length > 0).map((c) => (c.ended ? c : { ...c, ended: true }));
  return { state: { seq: r.data.seq, sets }, problem: null };
}

/** The entries saved summaries name (keys of the store that saved them): where each is shown, and its files' tool cards; read tolerantly. */
export function savedEntryKeys(raw: unknown): string[] {
  const r = zSaved.safeParse(raw);
  return r.success ? r.data.sets.flatMap((s) => [...(s.afterKey === null ? [] : [s.afterKey]), ...s.files.flatMap((f) => f.tools ?? [])]) : [];
}

/** Saved summaries with each entry key that `relink` knows replaced (another store's key for the same entry). */
export function relinkSaved(raw: unknown, relink: (key: string) => string | undefined): unknown {
  const r = zSaved.safeParse(raw);
  if (!r.success) return raw;
  const key = (k: string) => relink(k) ?? k;
  return {
    ...r.data,
    sets: r.data.sets.map((s) => ({
      ...s,
      afterKey: s.afterKey === null ? null : key(s.afterKey),
      files: s.files.map((f) => (f.tools ? { ...f, tools: f.tools.map(key) } : f)),
    })),
  };
}
