/** One file's change in a turn's change set (model.ts); its own file so the hunk rules can name it without a cycle. */
export type ChangeSource = 'write' | 'diff';
/** `conflict`: the last Undo found the file changed since the agent's edit and left it alone (`note` says why). */
export type ChangeState = 'pending' | 'kept' | 'undone' | 'conflict';

export interface FileChange {
  /** The path as the agent named it (normalized by the host): agent-controlled, shown as text only. */
  readonly path: string;
  /** The text before the turn's first edit; null when the file did not exist (Undo deletes it). */
  readonly oldText: string | null;
  /** The agent's latest version, which the file must still hold for Undo; null when unknown. */
  readonly agentText: string | null;
  readonly source: ChangeSource;
  readonly state: ChangeState;
  /** Why the last Undo did not happen (state `conflict`). */
  readonly note: string | null;
  /** Why Undo is not offered at all (an unknown previous text, a reported path outside the workspace); null: it is. */
  readonly blocked: string | null;
  /** Lines added and removed between `oldText` and `agentText` (null when `agentText` is unknown). */
  readonly added: number | null;
  readonly removed: number | null;
  /** Hunks kept and undone one by one in the editor (hunkRules.ts); absent: none yet. */
  readonly hunks?: { readonly kept: number; readonly undone: number };
  /**
   * The agent's version before the first hunk was undone one by one (absent: none was). `agentText` then
   * lacks the undone hunks; this is what an editor undo of one of them, or of an Undo All over a file the
   * user edited, is read against, so the counts stay exact (follow.ts).
   */
  readonly agentFull?: string;
  /** Keys of the turn's tool-call entries that edited this file (toolCards.ts); absent: none known. */
  readonly tools?: readonly string[];
}
