/** How agent text becomes printed text in `cli run`'s transcript (printer.ts). */
import type { ContentBlock } from '../../common/protocol/content';

/** Line breaks of every kind a line-oriented reader may split at (a lone CR is shown as ␍ by `terminalSafe`). */
export const BREAKS = /\r\n|[\n\u2028\u2029\u0085]/g;

/** An agent field on a line of its own: one line whatever it holds. */
export const oneLine = (s: string): string => s.replace(BREAKS, '␤');

/** A content block as the transcript shows it: its text, or `[type]` for anything else. */
export function shownText(b: ContentBlock): string {
  return b.type === 'text' ? b.text : `[${b.type}]`;
}

/** How agent prose is printed: every break a `\n`; `all`: no line of it may begin with `[`; `rest`: none after the first (the client's prefix). */
export type Prose = 'all' | 'rest';

/**
 * A streamed block: its kind, what it continues (a session for text and thoughts, a message for
 * messages) and the session whose output it is.
 */
export type Stream = { readonly kind: 'text' | 'thought' | 'message'; readonly key: string; readonly session: string };
