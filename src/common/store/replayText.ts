/**
 * Rule 2 of the replay window (replayWindow.ts), its measures: whether a replayed message's text may be a
 * shown message's, and how far they agree. Replays re-join chunks and messages with other blank space, so
 * every comparison ignores whitespace. Pure functions of strings, apart from the window's state and cursor.
 */

/** Text without whitespace: replays re-join chunks and messages with other blank space. */
export function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * Whether a replayed message that starts with `want` may be the prior message with text `prior`: one starts
 * with the other (a prefix of it streamed so far, or more than was shown, or messages merged), or they
 * share a beginning long enough to be the same message told differently.
 */
export function fitsStart(prior: string, want: string): boolean {
  if (prior.startsWith(want) || (prior !== '' && want.startsWith(prior))) return true;
  const shared = commonLength(want, prior, 0);
  return shared >= Math.max(8, Math.min(prior.length, want.length) / 2);
}

export function commonLength(want: string, prior: string, from: number): number {
  let n = 0;
  while (n < want.length && from + n < prior.length && want.charCodeAt(n) === prior.charCodeAt(from + n)) n++;
  return n;
}

/** `raw` after its first `n` non-whitespace characters. */
export function dropSquashed(raw: string, n: number): string {
  let i = 0;
  for (let seen = 0; i < raw.length && seen < n; i++) if (!/\s/.test(raw.charAt(i))) seen++;
  return raw.slice(i);
}

/** Whitespace other than single spaces: what `quote` must fold. */
const FOLDABLE = /[^\S ]| {2}/;

/**
 * A replayed text quoted in a diagnostic: on one line, at most 120 characters. Folding is skipped where
 * there is nothing to fold: a replay told in other words quotes every message, and the fold alone cost
 * 0.8 µs each against 0.14 for the check (replay.bench.ts).
 */
export function quote(text: string): string {
  const head = text.length > 240 ? text.slice(0, 240) : text;
  const line = (FOLDABLE.test(head) ? head.replace(/\s+/g, ' ') : head).trim();
  return line.length > 120 || head !== text ? `${line.slice(0, 120)}…` : line;
}
