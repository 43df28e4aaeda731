/**
 * The live notices a chat shows above its transcript. An agent may send the same notice every turn; it
 * shows once, with how many times it came, and moves to the end as the latest.
 */
export interface Notice {
  readonly severity: string;
  readonly title: string;
  readonly description?: string | null;
  /** How many times this notice arrived (absent: once). */
  readonly count?: number;
  /** Set on the client's own notices that are replaced or removed by key (never on an agent's). */
  readonly key?: string;
  /** Buttons; the webview answers with `noticeAction` naming the action. */
  readonly actions?: readonly NoticeAction[];
  /** The text Edit puts into the prompt box (the webview does that itself). */
  readonly fill?: string;
  /** Shown on this transcript entry (below it) instead of above the transcript: it is about that entry. */
  readonly entryKey?: string;
}

export const NOTICE_ACTIONS = ['keepWaiting', 'cancel', 'restart', 'resend', 'edit', 'dismiss'] as const;
export type NoticeActionId = (typeof NOTICE_ACTIONS)[number];
interface NoticeAction {
  readonly id: NoticeActionId;
  readonly label: string;
}

/** The notices kept at once: older ones drop off. */
export const MAX_NOTICES = 5;

export function addNotice(list: readonly Notice[], n: Notice): Notice[] {
  const same = (o: Notice) => o.severity === n.severity && o.title === n.title && (o.description ?? null) === (n.description ?? null);
  const earlier = list.find(same);
  const rest = list.filter((o) => !same(o));
  const added: Notice = earlier ? { ...n, count: (earlier.count ?? 1) + 1 } : n;
  return [...rest.slice(-(MAX_NOTICES - 1)), added];
}

/** Shows `n` under `key` (replacing the notice with that key, as the latest), or removes it (null). */
export function setKeyedNotice(list: readonly Notice[], key: string, n: Notice | null): Notice[] {
  const rest = list.filter((o) => o.key !== key);
  return n ? [...rest.slice(-(MAX_NOTICES - 1)), { ...n, key }] : rest;
}
