/** What one ingested message changed, so views can patch instead of re-rendering. */
import type { Diagnostic, Entry, SessionState } from './model';

export type { Direction } from '../protocol/direction';

export type StoreChange =
  | { readonly type: 'sessionAdded'; readonly sessionId: string }
  | { readonly type: 'entryInserted'; readonly sessionId: string; readonly index: number; readonly entry: Entry }
  /** `appendedText` is set when the ONLY change was text appended to the entry's content — to its last block when that is a
   *  text block, otherwise as a new text block at the end — so the UI can send a tiny patch instead of the whole entry. */
  | { readonly type: 'entryUpdated'; readonly sessionId: string; readonly index: number; readonly entry: Entry; readonly appendedText?: string; /** The entry before this change (what a view showing the last change holds), for field-level patches. */ readonly previous?: Entry }
  | { readonly type: 'sessionChanged'; readonly sessionId: string; readonly fields: readonly (keyof SessionState)[] }
  | { readonly type: 'diagnostic'; readonly diagnostic: Diagnostic };
