/**
 * The per-turn change sets behind the "Changes" summary: every file the agent edited in a turn, with the
 * text it held before the turn's first edit and the agent's latest version, so the user can keep or undo
 * each edit after the turn. A pure reducer over plain JSON (persisted with the chat, posted as views).
 *
 * Sources: `write` is an `fs/write_text_file` the client itself applied, so both texts are exact; `diff`
 * is a diff the agent reported in tool-call content (it edited the file itself), whose texts are derived
 * from the file at the turn's end (see derive.ts). A file both written and reported keeps the write.
 */
import { lineStats } from './lineStats';
import type { FileChange } from './fileChange';
import type { Hunk } from './hunks';
import { fileAfterHunk, type HunkAction } from './hunkRules';
import { followFile, withUndone } from './follow';

export type { ChangeSource, ChangeState, FileChange } from './fileChange';

export interface ChangeSet {
  /** Minted here, once (`c1`, `c2`, ...): unique within the chat, stable across reloads. */
  readonly id: string;
  readonly sessionId: string;
  /** The entry the summary is shown after (the turn's last entry); null: at the end of the transcript. */
  readonly afterKey: string | null;
  /** False while the turn runs: the summary is shown when the turn ends. */
  readonly ended: boolean;
  /** In the order the files were first edited. */
  readonly files: readonly FileChange[];
}

export interface ChangesState {
  /** Oldest first. */
  readonly sets: readonly ChangeSet[];
  readonly seq: number;
}

export const EMPTY_CHANGES: ChangesState = { sets: [], seq: 0 };

/** A change the agent reported as a diff, resolved against the file at the turn's end (derive.ts). */
export interface ReportedChange {
  readonly path: string;
  readonly oldText: string | null;
  readonly agentText: string | null;
  readonly blocked: string | null;
}

export type ChangesAction =
  | { readonly type: 'turnStarted'; readonly sessionId: string }
  /** `afterKey`: where a write outside any turn is shown (it gets a set of its own). */
  | { readonly type: 'wrote'; readonly sessionId: string; readonly path: string; readonly oldText: string | null; readonly newText: string; readonly afterKey: string | null }
  /** `tools`: per path, the turn's tool calls that edited it (the cards that show its review). */
  | {
      readonly type: 'turnEnded';
      readonly sessionId: string;
      readonly afterKey: string | null;
      readonly reported: readonly ReportedChange[];
      readonly tools?: readonly { readonly path: string; readonly keys: readonly string[] }[];
    }
  /** `path` null: every file of the set still pending or in conflict (Keep All). */
  | { readonly type: 'kept'; readonly setId: string; readonly path: string | null }
  | { readonly type: 'undone'; readonly setId: string; readonly path: string }
  | { readonly type: 'conflict'; readonly setId: string; readonly path: string; readonly note: string }
  /** One hunk kept or undone in the editor (the file already holds the Undo). */
  | { readonly type: 'hunk'; readonly setId: string; readonly path: string; readonly hunk: Hunk; readonly action: HunkAction }
  /**
   * The file's text changed after its turn (`text` null: it is gone): the newest ended set that holds it
   * follows what the text says (follow.ts); older sets' edits of it are under the newer one's, so stay.
   * `note`: what an undone file edited since says.
   */
  | { readonly type: 'followed'; readonly path: string; readonly text: string | null; readonly note: string };

/** Change sets kept per chat; older ones (and their summaries) are dropped, so memory and the saved state stay bounded. */
export const MAX_SETS = 30;

/** Whether Keep/Undo still apply to a file. */
export function isOpen(f: FileChange): boolean {
  return f.state === 'pending' || f.state === 'conflict';
}

/** The session's set of the running turn, if any. */
export function openSet(s: ChangesState, sessionId: string): ChangeSet | undefined {
  return s.sets.find((c) => c.sessionId === sessionId && !c.ended);
}

/** Returns `s` itself when nothing changed, so callers can skip saving and posting. */
export function reduceChanges(s: ChangesState, a: ChangesAction): ChangesState {
  switch (a.type) {
    case 'turnStarted': {
      // A turn that never ended (the agent died) is closed first: its edits still deserve a summary.
      const closed = closeOpen(s, a.sessionId, null);
      const id = `c${closed.seq + 1}`;
      return bounded({ sets: [...closed.sets, { id, sessionId: a.sessionId, afterKey: null, ended: false, files: [] }], seq: closed.seq + 1 });
    }
    case 'wrote': {
      let state = s;
      let set = openSet(state, a.sessionId);
      if (!set) {
        // A write outside a turn: a summary of its own, shown where the transcript is now.
        set = { id: `c${s.seq + 1}`, sessionId: a.sessionId, afterKey: a.afterKey, ended: true, files: [] };
        state = { sets: [...s.sets, set], seq: s.seq + 1 };
      }
      const prev = set.files.find((f) => f.path === a.path);
      const file: FileChange = prev
        ? withTexts({ ...prev, source: 'write', state: 'pending', note: null, blocked: null }, prev.oldText, a.newText)
        : withTexts(
            { path: a.path, oldText: null, agentText: null, source: 'write', state: 'pending', note: null, blocked: null, added: null, removed: null },
            a.oldText,
            a.newText,
          );
      return bounded(replaceSet(state, { ...set, files: prev ? set.files.map((f) => (f === prev ? file : f)) : [...set.files, file] }));
    }
    case 'turnEnded': {
      const base = openSet(s, a.sessionId) ? s : reduceChanges(s, { type: 'turnStarted', sessionId: a.sessionId });
      const set = openSet(base, a.sessionId);
      if (!set) return s;
      const files = [...set.files];
      for (const r of a.reported) {
        // A write is exact; a reported diff of the same file adds nothing to it.
        if (files.some((f) => f.path === r.path)) continue;
        files.push(
          withTexts(
            { path: r.path, oldText: null, agentText: null, source: 'diff', state: 'pending', note: null, blocked: r.blocked, added: null, removed: null },
            r.oldText,
            r.agentText,
          ),
        );
      }
      const tools = new Map((a.tools ?? []).map((t) => [t.path, t.keys]));
      const named = files.map((f) => (tools.has(f.path) ? { ...f, tools: tools.get(f.path) } : f));
      return closeOpen(replaceSet(base, { ...set, files: named }), a.sessionId, a.afterKey);
    }
    case 'kept':
      return updateFiles(
        s,
        a.setId,
        (f) => (a.path === null || f.path === a.path) && isOpen(f),
        (f) => ({ ...f, state: 'kept', note: null }),
      );
    case 'undone':
      return updateFiles(
        s,
        a.setId,
        (f) => f.path === a.path && isOpen(f),
        (f) => ({ ...f, state: 'undone', note: null, ...(f.hunks ? { hunks: withUndone(f, 'undone') } : {}) }),
      );
    case 'conflict':
      return updateFiles(
        s,
        a.setId,
        (f) => f.path === a.path && isOpen(f),
        (f) => ({ ...f, state: 'conflict', note: a.note }),
      );
    case 'hunk': {
      const file = s.sets.find((c) => c.id === a.setId)?.files.find((f) => f.path === a.path);
      const next = file && fileAfterHunk(file, a.hunk, a.action, withTexts);
      return next
        ? updateFiles(
            s,
            a.setId,
            (f) => f === file,
            () => next,
          )
        : s;
    }
    case 'followed': {
      // While a turn runs its files are the agent's to change: followed again when it ends.
      if (s.sets.some((c) => !c.ended)) return s;
      const set = s.sets.findLast((c) => c.files.some((f) => f.path === a.path));
      const file = set?.files.find((f) => f.path === a.path);
      if (!set || !file) return s;
      const next = followFile(file, a.text, a.note);
      return next === file ? s : replaceSet(s, { ...set, files: set.files.map((f) => (f === file ? next : f)) });
    }
    default:
      return assertNoAction(a);
  }
}

function assertNoAction(a: never): never {
  throw new Error(`unknown change action ${JSON.stringify(a)}`);
}

function withTexts(f: FileChange, oldText: string | null, agentText: string | null): FileChange {
  const stats = agentText === null ? null : lineStats(oldText ?? '', agentText);
  return { ...f, oldText, agentText, added: stats?.added ?? null, removed: stats?.removed ?? null };
}

/** Ends the session's open set: kept when it has files, dropped when the turn edited nothing. */
function closeOpen(s: ChangesState, sessionId: string, afterKey: string | null): ChangesState {
  const set = openSet(s, sessionId);
  if (!set) return s;
  if (set.files.length === 0) return { ...s, sets: s.sets.filter((c) => c !== set) };
  return replaceSet(s, { ...set, ended: true, afterKey: afterKey ?? set.afterKey });
}

function replaceSet(s: ChangesState, set: ChangeSet): ChangesState {
  return { ...s, sets: s.sets.map((c) => (c.id === set.id ? set : c)) };
}

function updateFiles(s: ChangesState, setId: string, match: (f: FileChange) => boolean, update: (f: FileChange) => FileChange): ChangesState {
  const set = s.sets.find((c) => c.id === setId);
  if (!set?.files.some(match)) return s;
  return replaceSet(s, { ...set, files: set.files.map((f) => (match(f) ? update(f) : f)) });
}

/** Drops the oldest ended sets beyond MAX_SETS (a running turn's set is never dropped). */
function bounded(s: ChangesState): ChangesState {
  const extra = s.sets.length - MAX_SETS;
  if (extra <= 0) return s;
  const drop = new Set(s.sets.filter((c) => c.ended).slice(0, extra));
  return { ...s, sets: s.sets.filter((c) => !drop.has(c)) };
}
