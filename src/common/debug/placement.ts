/**
 * Where a debug view (protocol messages, protocol log, capabilities, Check Agent) opens. They share one
 * place and replace each other there, so opening several never adds columns that squeeze the chats:
 * the group the last one went to while it still exists, else a group that shows no chat, else a new
 * group beside a lone chat (half the window is still readable), else the active group as a tab.
 */
export interface GroupInfo {
  /** The group's ViewColumn (1-based). */
  readonly column: number;
  /** True when the group has a chat tab (a chat's width must be kept). */
  readonly hasChat: boolean;
  readonly active: boolean;
}

/** A column number, or 'beside' for a new group beside the active one. */
export type Placement = number | 'beside';

export function debugViewPlacement(groups: readonly GroupInfo[], last: number | undefined): Placement {
  if (last !== undefined && groups.some((g) => g.column === last)) return last;
  const free = groups.find((g) => !g.hasChat && g.active) ?? groups.find((g) => !g.hasChat);
  if (free) return free.column;
  if (groups.length <= 1) return 'beside';
  return groups.find((g) => g.active)?.column ?? groups[0]?.column ?? 'beside';
}
