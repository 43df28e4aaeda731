/**
 * What the webview shows of a change set: paths, states and line counts, never the texts (they stay in
 * the host; Open diff shows them in VS Code's diff editor). Part of the host<->webview contract.
 */
import type { ChangeSet, ChangeSource, ChangeState, ChangesState, FileChange } from './model';
import { isOpen } from './model';

export interface FileChangeView {
  /** Workspace-relative when inside the workspace; agent-controlled, so the webview shows it as text only. */
  readonly path: string;
  readonly state: ChangeState;
  readonly source: ChangeSource;
  /** The file did not exist before the turn (Undo deletes it). */
  readonly created: boolean;
  readonly added: number | null;
  readonly removed: number | null;
  /** Why the last Undo left the file alone, or why Undo is not offered. */
  readonly note: string | null;
  readonly canUndo: boolean;
  readonly canDiff: boolean;
  /** Hunks kept and undone one by one so far (absent: none). */
  readonly hunks?: { readonly kept: number; readonly undone: number };
  /** Keys of the tool cards that made this change (they show its review, toolCards.ts). */
  readonly tools?: readonly string[];
}

export interface ChangeSetView {
  readonly id: string;
  /** The entry the summary follows; null: the end of the transcript. */
  readonly afterKey: string | null;
  readonly files: readonly FileChangeView[];
  /** Shown only on the tool cards, not as a summary: a subagent's own tab (the summary is its chat's). */
  readonly cardsOnly?: true;
}

function fileView(f: FileChange, shownPath: (path: string) => string): FileChangeView {
  return {
    path: shownPath(f.path),
    state: f.state,
    source: f.source,
    created: f.oldText === null && f.agentText !== null,
    added: f.added,
    removed: f.removed,
    note: f.note ?? f.blocked,
    canUndo: isOpen(f) && f.blocked === null,
    canDiff: f.agentText !== null,
    ...(f.hunks ? { hunks: { kept: f.hunks.kept, undone: f.hunks.undone } } : {}),
    ...(f.tools?.length ? { tools: f.tools } : {}),
  };
}

export function setView(set: ChangeSet, shownPath: (path: string) => string): ChangeSetView {
  return { id: set.id, afterKey: set.afterKey, files: set.files.map((f) => fileView(f, shownPath)) };
}

/** The summaries a session shows: its ended sets, oldest first. */
export function sessionViews(s: ChangesState, sessionId: string | null, shownPath: (path: string) => string): ChangeSetView[] {
  return s.sets.filter((c) => c.ended && c.sessionId === sessionId).map((c) => setView(c, shownPath));
}
