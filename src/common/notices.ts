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
