/**
 * Which tool cards made which change, and what review made of it. A turn's change set names, per file,
 * the tool calls of the turn that reported an edit of it (a diff in their content, or an edit tool's
 * location); the card's state is derived from those files' review states (the review is the one owner),
 * never kept beside them: Kept, Undone, or Partly kept / Partly undone while some of it is still to review
 * or the two were mixed.
 */
import type { Entry } from '../store/model';
import { isDiffV2 } from '../protocol/contentHelpers';
import { parentToolUseOf } from '../webview/viewEntry';
import type { ChangeSetView, FileChangeView } from './view';

/** The paths a tool call says it edited: its diffs, and an edit tool's locations. */
function editedPaths(e: Extract<Entry, { kind: 'tool_call' }>): string[] {
  const out = e.content.flatMap((c) => (c.type !== 'diff' ? [] : isDiffV2(c) ? c.changes.map((ch) => ch.path) : [c.path]));
  if (e.toolKind === 'edit' || e.toolKind === 'delete' || e.toolKind === 'move') out.push(...e.locations.map((l) => l.path));
  return out;
}

/** A subagent's own entries (its child session's transcript), by child session id; [] when unknown. */
export type ChildEntries = (childSessionId: string) => readonly Entry[];

/**
 * Visits the turn's entries and those of the subagents it started (any depth, each child once, right after its
 * delegation card), each with the session's entries it is one of and the delegation cards above it.
 */
function eachWithSubagents(entries: readonly Entry[], children: ChildEntries, visit: (e: Entry, list: readonly Entry[], above: readonly string[]) => void): void {
  const seen = new Set<string>();
  const walk = (list: readonly Entry[], above: readonly string[]): void => {
    for (const e of list) {
      visit(e, list, above);
      if (e.kind !== 'subagent' || seen.has(e.childSessionId)) continue;
      seen.add(e.childSessionId);
      walk(children(e.childSessionId), [...above, e.key]);
    }
  };
  walk(entries, []);
}

/** The turn's entries with those of the subagents it started: their tool calls edit files of this turn too (a child's write is the turn's, see chatFactory's onWrite). */
export function withSubagents(entries: readonly Entry[], children: ChildEntries): Entry[] {
  const out: Entry[] = [];
  eachWithSubagents(entries, children, (e) => out.push(e));
  return out;
}

/** The calls `e` ran under (legacy steps: `parentToolUseId`), outermost first; a loop of links stops at the first repeat. */
function callsAbove(e: Extract<Entry, { kind: 'tool_call' }>, list: readonly Entry[]): string[] {
  const byCallId = (id: string | undefined) => (id === undefined ? undefined : list.find((x) => x.kind === 'tool_call' && x.toolCallId === id));
  const out: string[] = [];
  for (let p = byCallId(parentToolUseOf(e.meta)); p?.kind === 'tool_call' && p !== e && !out.includes(p.key); p = byCallId(parentToolUseOf(p.meta))) out.unshift(p.key);
  return out;
}

/**
 * For each path (as `canonical` spells it), the keys of the turn's tool calls that edited it, oldest first.
 * A subagent's delegation card edited what its child's tool calls edited (any depth): it is named with them;
 * so is the `Agent` tool call of an agent without the subagents capability, whose child's calls come flat
 * on the parent session, linked only by `parentToolUseId` (their card draws them as its steps).
 */
export function toolKeysByPath(
  entries: readonly Entry[],
  canonical: (path: string) => string,
  children: ChildEntries = () => [],
): { readonly path: string; readonly keys: readonly string[] }[] {
  const byPath = new Map<string, string[]>();
  eachWithSubagents(entries, children, (e, list, above) => {
    if (e.kind !== 'tool_call') return;
    const paths = new Set(editedPaths(e).map(canonical));
    if (paths.size === 0) return;
    for (const key of [...above, ...callsAbove(e, list), e.key])
      for (const p of paths) {
        const keys = byPath.get(p) ?? [];
        byPath.set(p, keys);
        if (!keys.includes(key)) keys.push(key);
      }
  });
  return [...byPath].map(([path, keys]) => ({ path, keys }));
}

type CardReviewState = 'kept' | 'undone' | 'partly';

export interface CardReview {
  readonly state: CardReviewState;
  /** What the card says: Kept, Undone, Partly kept, Partly undone. */
  readonly label: string;
}

/** What review made of one file so far (some of it kept, some undone, some still open). */
function fileReview(f: FileChangeView): { kept: boolean; undone: boolean; open: boolean } {
  return {
    kept: f.state === 'kept' || (f.hunks?.kept ?? 0) > 0,
    undone: f.state === 'undone' || (f.hunks?.undone ?? 0) > 0,
    open: f.state === 'pending' || f.state === 'conflict',
  };
}

/** The review state of each tool card named by the sets' files (cards none of whose files was reviewed are absent). */
export function cardReviews(sets: readonly ChangeSetView[]): Map<string, CardReview> {
  const parts = new Map<string, { kept: boolean; undone: boolean; open: boolean }>();
  for (const set of sets)
    for (const f of set.files) {
      const r = fileReview(f);
      for (const key of f.tools ?? []) {
        const p = parts.get(key) ?? { kept: false, undone: false, open: false };
        parts.set(key, { kept: p.kept || r.kept, undone: p.undone || r.undone, open: p.open || r.open });
      }
    }
  const out = new Map<string, CardReview>();
  for (const [key, p] of parts) {
    if (!p.kept && !p.undone) continue;
    if (p.open || (p.kept && p.undone)) out.set(key, { state: 'partly', label: p.undone ? 'Partly undone' : 'Partly kept' });
    else out.set(key, p.kept ? { state: 'kept', label: 'Kept' } : { state: 'undone', label: 'Undone' });
  }
  return out;
}
