/**
 * What a subagent's card says besides its entries' own text: how long the child has been running or ran,
 * and its result without the bookkeeping line Claude Code puts in front of it. Pure, for the webview and
 * its tests.
 */
import type { ContentBlock } from '../protocol/content';

/** A duration as the card shows it: "< 1 s", "12 s", "3 min 5 s", "2 h 7 min". */
export function formatElapsed(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 1) return '< 1 s';
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const hours = Math.floor(m / 60);
  return m % 60 ? `${hours} h ${m % 60} min` : `${hours} h`;
}

/** What timing needs of a card (`ViewSubagent` fits). */
export interface SubagentTiming {
  readonly state: string | null;
  readonly stateSince: number;
  readonly announcedAt: number;
  readonly provenance: string;
}

/**
 * The time shown next to a card's state: while running, how long it has been (from `now`); once idle,
 * how long it worked, from its announcement to the end, when that was seen as it happened (a replayed or
 * late announcement has no start worth the name); otherwise nothing.
 */
export function subagentElapsed(e: SubagentTiming, now: number): string | null {
  if (e.state === 'running') return formatElapsed(now - e.stateSince);
  if (e.state === 'idle' && e.provenance !== 'replay' && e.stateSince > e.announcedAt) return formatElapsed(e.stateSince - e.announcedAt);
  return null;
}

const TOOLS_USED = /^<tools-used-before-summary>([^<\n]*)<\/tools-used-before-summary>[ \t]*(?:\r?\n|$)/;

/**
 * A child's reply without Claude Code's leading `<tools-used-before-summary>Read, Grep</tools-used-before-summary>`
 * line (a note for the parent model), and the tools it names. Only that exact line at the very start of the
 * first block is taken; anything else is left as the agent sent it.
 */
export function withoutToolsUsed(content: readonly ContentBlock[]): { readonly content: readonly ContentBlock[]; readonly toolsUsed: readonly string[] } {
  const first = content[0];
  const m = first?.type === 'text' ? TOOLS_USED.exec(first.text) : null;
  if (!first || first.type !== 'text' || !m) return { content, toolsUsed: [] };
  const rest = first.text.slice(m[0].length);
  const toolsUsed = (m[1] ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return { content: rest.trim() === '' ? content.slice(1) : [{ ...first, text: rest }, ...content.slice(1)], toolsUsed };
}
