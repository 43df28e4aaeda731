/**
 * The terminal views of a session: the bounded output tail and exit of each terminal its tool calls
 * show, from terminals the client runs for the agent (v1, client events) and from terminals the agent
 * owns and reports with ACP v2 `terminal_update` / `terminal_output_chunk`. The capture keeps every
 * byte; the store keeps what the panel shows, within the same budgets the panel always had.
 */
import type { TerminalState } from './model';

/** Characters of output kept per terminal (the newest). */
export const MAX_TERMINAL_CHARS = 64 * 1024;
/** Characters of output kept per session: the oldest terminals are dropped beyond it, so a long chat stays small. */
export const MAX_SESSION_TERMINAL_CHARS = 2 * 1024 * 1024;

export interface TerminalOutput {
  readonly terminalId: string;
  readonly owner: TerminalState['owner'];
  /** Text to append; with `replace`, the whole output. */
  readonly append: string;
  readonly replace: boolean;
  readonly exit: { readonly exitCode: number | null; readonly signal: string | null } | null;
}

/** The views after `o` (a new object: views handed out before stay as they were). */
export function withTerminalOutput(views: Readonly<Record<string, TerminalState>>, o: TerminalOutput): Record<string, TerminalState> {
  const prev = Object.hasOwn(views, o.terminalId) ? views[o.terminalId] : undefined;
  let output = o.replace ? o.append : (prev?.output ?? '') + o.append;
  if (output.length > MAX_TERMINAL_CHARS) output = output.slice(output.length - MAX_TERMINAL_CHARS);
  const next: TerminalState = o.exit
    ? { output, exited: true, exitCode: o.exit.exitCode, signal: o.exit.signal, owner: prev?.owner ?? o.owner }
    : { output, exited: prev?.exited ?? false, exitCode: prev?.exitCode ?? null, signal: prev?.signal ?? null, owner: prev?.owner ?? o.owner };
  const out: Record<string, TerminalState> = { ...views, [o.terminalId]: next };
  let total = 0;
  for (const v of Object.values(out)) total += v.output.length;
  // Oldest first (insertion order); the terminal just written is never the one dropped.
  for (const id of Object.keys(out)) {
    if (total <= MAX_SESSION_TERMINAL_CHARS) break;
    if (id === o.terminalId) continue;
    total -= out[id]?.output.length ?? 0;
    delete out[id];
  }
  return out;
}
