/**
 * What the chat header's context meter says, from the session's last `usage_update` (`used` / `size`,
 * `cost` where sent): how full the agent's context is, a warning level as it fills, the words a screen
 * reader hears, and which of the agent's commands compacts the conversation (the Compact action). Pure,
 * so the thresholds and the command choice are unit-tested without a DOM.
 */
import type { AvailableCommand, Usage } from '../store/model';

/** From here the meter warns: the agent will soon compact or refuse. */
const WARN_AT = 0.8;
/** From here it says the context is nearly full. */
const FULL_AT = 0.95;

export type MeterLevel = 'ok' | 'warn' | 'full';

/** The share of the context in use, 0..1 (0 when the agent gives no size). */
export function fillOf(u: Usage): number {
  return u.size > 0 ? Math.min(1, Math.max(0, u.used / u.size)) : 0;
}

export function meterLevel(u: Usage): MeterLevel {
  const f = fillOf(u);
  return f >= FULL_AT ? 'full' : f >= WARN_AT ? 'warn' : 'ok';
}

/** The meter's spoken value and tooltip: the share, the tokens, the cost, and the warning. */
export function meterText(u: Usage): string {
  const pct = Math.round(fillOf(u) * 100);
  const parts = [
    u.size > 0
      ? `${pct}% of the context used (${u.used.toLocaleString('en-US')} of ${u.size.toLocaleString('en-US')} tokens)`
      : `${u.used.toLocaleString('en-US')} tokens in context`,
  ];
  if (u.cost) parts.push(`cost so far ${u.cost.amount.toFixed(2)} ${u.cost.currency}`);
  const level = meterLevel(u);
  if (level === 'full') parts.push('the context is nearly full: compact the conversation or start a new chat');
  else if (level === 'warn') parts.push('the context is filling up');
  return parts.join('; ');
}

/** Command names that compact a conversation, best first (Claude Code and Codex: `compact`; Gemini CLI: `compress`). */
const COMPACT_NAMES = ['compact', 'compress', 'summarize'];

/** The agent's command that compacts the conversation, if it offers one (sent as `/name`). */
export function compactCommand(commands: readonly AvailableCommand[]): string | null {
  for (const name of COMPACT_NAMES) if (commands.some((c) => c.name === name)) return name;
  return null;
}
