/**
 * Which window a chat belongs to, in words and rules (issue 38 item 3). A chat is written by one window
 * of a workspace at a time (its lock, src/node/persistence/chatLock.ts); every window restores the tabs
 * of its own layout. A second window on the same workspace restores the first one's tabs too: those stay
 * (so this window's layout keeps them), empty, and the window says so once, offering to open one of the
 * chats read-only or to take it over (the holder is asked to let go: src/node/persistence/chatHandoff.ts).
 */

/** What a restored tab does: show its chat, close (the chat was deleted), or stay empty (another window has it). */
export type RestoredTabFate = 'show' | 'close' | 'elsewhere';

export function restoredTabFate(exists: boolean, takenHere: boolean): RestoredTabFate {
  if (!exists) return 'close';
  return takenHere ? 'show' : 'elsewhere';
}

/** The two offers for a chat another window has. */
export const ELSEWHERE_ACTIONS = { readOnly: 'Open Read-Only…', takeOver: 'Take Over…' } as const;

/** The one notice a window gives for every chat it found open in another window (plain words, no process ids). */
export function elsewhereNotice(count: number): string {
  const which = count === 1 ? 'A chat of this workspace is' : 'Chats of this workspace are';
  return `${which} open in another VS Code window, so their tabs here stay empty. You can open one read-only here, or take it over (the other window lets go of it).`;
}

/** What opening one chat another window has says (no process ids). */
export function chatElsewhereText(title: string): string {
  return `“${title}” is open in another VS Code window of this workspace. Open it read-only here, or take it over?`;
}

/** A placeholder tab's text. */
export const ELSEWHERE_TAB_TEXT =
  'This chat is open in another VS Code window of this workspace. Use “Open Read-Only…” or “Take Over…” in the notice, or run ACP: Chats Open in Another Window….';

/** A window that hands over a chat says so. */
export function handedOverText(title: string): string {
  return `“${title}” was taken over by another VS Code window of this workspace; its tab here closed.`;
}

/** Who asks for a chat, and who answers. */
export interface WindowId {
  readonly pid: number;
  readonly token: string;
}

/**
 * Whether a window lets go of a chat another window asked for: only a chat it holds, only for another
 * window (never its own request) whose process still runs (a request left by a window that went away
 * is stale).
 */
export function honoursHandoff(request: WindowId | undefined, me: WindowId, holds: boolean, alive: (pid: number) => boolean): boolean {
  if (!request || !holds) return false;
  if (request.pid === me.pid && request.token === me.token) return false;
  return alive(request.pid);
}
