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
 * The turn's entries with those of the subagents it started (any depth, each child once): their tool calls
 * edit files of this turn too (a child's write is the turn's, see chatFactory's onWrite).
 */
export function withSubagents(entries: readonly Entry[], children: ChildEntries): Entry[] {
  const seen = new Set<string>();
  const walk = (list: readonly Entry[]): Entry[] =>
    list.flatMap((e) => (e.kind !== 'subagent' || seen.has(e.childSessionId) ? [e] : (seen.add(e.childSessionId), [e, ...walk(children(e.childSessionId))])));
  return walk(entries);
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
  const seen = new Set<string>();
  const add = (path: string, key: string) => {
    const keys = byPath.get(path) ?? [];
    byPath.set(path, keys);
    if (!keys.includes(key)) keys.push(key);
  };
  /** Walks a session's entries, naming each edit's path with its card and the cards of the subagents above it. */
  const walk = (list: readonly Entry[], above: readonly string[]): void => {
    const byCallId = new Map(list.flatMap((e) => (e.kind === 'tool_call' ? [[e.toolCallId, e] as const] : [])));
    /** The calls this one ran under (legacy steps), outermost first; a loop of links stops at the first repeat. */
    const callsAbove = (e: Extract<Entry, { kind: 'tool_call' }>): string[] => {
      const out: string[] = [];
      for (let p = byCallId.get(parentToolUseOf(e.meta) ?? ''); p && p !== e && !out.includes(p.key); p = byCallId.get(parentToolUseOf(p.meta) ?? '')) out.unshift(p.key);
      return out;
    };
    for (const e of list) {
      if (e.kind === 'subagent' && !seen.has(e.childSessionId)) {
        seen.add(e.childSessionId);
        walk(children(e.childSessionId), [...above, e.key]);
      }
      if (e.kind !== 'tool_call') continue;
      const paths = new Set(editedPaths(e).map(canonical));
      if (paths.size) for (const key of [...above, ...callsAbove(e), e.key]) for (const p of paths) add(p, key);
    }
  };
  walk(entries, []);
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
