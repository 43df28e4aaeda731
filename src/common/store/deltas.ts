/**
 * What one ingested message changed (a delta), so views can patch instead of re-rendering. Called deltas,
 * not changes: "Changes" is the per-turn file edits feature (src/common/changes).
 */
import type { Diagnostic, Entry, SessionState } from './model';
import type { Notice } from '../notices';

export type { Direction } from '../protocol/direction';

export type StoreDelta =
  | { readonly type: 'sessionAdded'; readonly sessionId: string }
  | { readonly type: 'entryInserted'; readonly sessionId: string; readonly index: number; readonly entry: Entry }
  /** `appendedText` is set when the ONLY change was text appended to the entry's content — to its last block when that is a
   *  text block, otherwise as a new text block at the end — so the UI can send a tiny patch instead of the whole entry. */
  | {
      readonly type: 'entryUpdated';
      readonly sessionId: string;
      readonly index: number;
      readonly entry: Entry;
      readonly appendedText?: string;
      /** The entry before this change (what a view showing the last change holds), for field-level patches. */ readonly previous?: Entry;
    }
  | { readonly type: 'sessionChanged'; readonly sessionId: string; readonly fields: readonly (keyof SessionState)[] }
  | { readonly type: 'diagnostic'; readonly diagnostic: Diagnostic }
  /** Output appended to a terminal view (with `replace`, its whole output) and, once it ended, its exit: a small patch. */
  | {
      readonly type: 'terminal';
      readonly sessionId: string;
      readonly terminalId: string;
      readonly append: string;
      readonly replace?: true;
      readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
    }
  /** The notices shown for `sessionId` (null: before any session) changed; `notices` is the whole list. */
  | { readonly type: 'notices'; readonly sessionId: string | null; readonly notices: readonly Notice[] }
  /** The chat's Changes summaries were recorded (`MessageStore.changes()`). */
  | { readonly type: 'changesRecorded' };
