/**
 * A turn's part of each session of the chat's tree: what its Changes review reads when it ends (review.ts
 * `turnEnded`). A turn is marked at its start (each session's entry count then); at its end, a session's
 * part is its entries since the mark. A subagent started in an earlier turn and reused in this one, or still
 * working after the turn that started it ended (a background subagent), has its card in that earlier turn:
 * the card leads its parent's part, so its child's new tool calls are this turn's and name it (toolCards.ts).
 * So does a tool call still running at the mark that finished since (a permission answered after the turn).
 * Pure: derived from the store's entries on each call.
 */
import type { Entry } from '../store/model';
import { sessionTree, type SessionLookup } from '../store/sessionTree';
import type { ChildEntries } from './toolCards';

/** Each session's entry count at a turn's start, and its tool calls not finished then (sessions not there yet start at 0). */
export type TurnMark = ReadonlyMap<string, { readonly count: number; readonly open: ReadonlySet<string> }>;

/** A tool call that may still report its edit: a permission it waits on may be answered after the turn. */
const unfinished = (e: Entry) => e.kind === 'tool_call' && e.status !== 'completed' && e.status !== 'failed';

export function markTurn(store: SessionLookup, rootId: string): TurnMark {
  return new Map(
    sessionTree(store, rootId).map((id) => {
      const entries = store.session(id)?.entries ?? [];
      return [id, { count: entries.length, open: new Set(entries.filter(unfinished).map((e) => e.key)) }];
    }),
  );
}

/** The root's part of the turn since `mark`, and each subagent's (`children`), for `turnEnded`. */
export function sinceMark(store: SessionLookup, rootId: string, mark: TurnMark): { entries: Entry[]; children: ChildEntries } {
  const parts = new Map<string, Entry[]>();
  const part = (id: string): Entry[] => {
    const known = parts.get(id);
    if (known) return known;
    parts.set(id, []); // a loop of links ends here
    const all = store.session(id)?.entries ?? [];
    const at = mark.get(id);
    const before = all.slice(0, at?.count ?? 0);
    // A card whose subagent worked in this turn, and a tool call that was still running when it began, are this turn's too.
    const carried = before.filter((e) => (e.kind === 'subagent' && part(e.childSessionId).length > 0) || (at?.open.has(e.key) === true && !unfinished(e)));
    const out = [...carried, ...all.slice(at?.count ?? 0)];
    parts.set(id, out);
    return out;
  };
  return { entries: part(rootId), children: part };
}
