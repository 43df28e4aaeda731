/**
 * The terminal views of a chat: the bounded output tail and exit of each terminal the panel shows,
 * from terminals we run for the agent (v1) and from terminals the agent owns and reports with ACP v2
 * `terminal_update` / `terminal_output_chunk`. Kept beside the store rather than in it: like v1 terminals,
 * v2 ones are the live view of a process (a bounded tail, not transcript content), the agent owns them
 * (`session/resume` re-sends a snapshot: that is what snapshots are for), and the capture keeps every
 * byte. The transcript's tool call keeps the `{type:"terminal"}` reference. The views are saved with the
 * chat (src/common/savedTerminals.ts) and restored here, so a window reload shows them again.
 */
import type { TerminalView } from '../common/webview/contract';
import type { PanelChange } from '../common/webview/panelChanges';
import { ClientMethods } from '../common/protocol/methods';
import { TerminalUpdateDecoder } from '../common/protocol/terminalUpdates';
import type { Direction } from '../node/acp/client';
import type { SavedTerminal } from '../common/savedTerminals';

/** Characters of terminal output kept per terminal for the panel. */
const MAX_TERMINAL_CHARS = 64 * 1024;

export type TerminalExit = { exitCode: number | null; signal: string | null };

export class SessionTerminals {
  private readonly views = new Map<string, TerminalView>();
  private readonly v2 = new TerminalUpdateDecoder();
  /** Ids of terminals the agent owns (v2); the others are ones we run (v1). */
  private readonly agentOwned = new Set<string>();

  constructor(restored: readonly SavedTerminal[] = []) {
    for (const { id, owner, output, exited, exitCode, signal } of restored) {
      this.views.set(id, { output, exited, exitCode, signal });
      if (owner === 'agent') this.agentOwned.add(id);
    }
  }

  /** Records output (or, with `replace`, the whole output) and exit; returns the panel change to send. */
  event(terminalId: string, append: string, exit?: TerminalExit, replace?: true): PanelChange {
    const prev = this.views.get(terminalId) ?? { output: '', exited: false, exitCode: null, signal: null };
    let output = replace ? append : prev.output + append;
    // The panel shows a bounded tail; the agent's own output limit is applied separately by the host.
    if (output.length > MAX_TERMINAL_CHARS) output = output.slice(output.length - MAX_TERMINAL_CHARS);
    this.views.set(terminalId, exit ? { output, exited: true, exitCode: exit.exitCode, signal: exit.signal } : { ...prev, output });
    return { type: 'terminal', terminalId, append, ...(replace ? { replace } : {}), ...(exit ? { exit } : {}) };
  }

  /** A v2 terminal update of the shown session in a wire message, as `event` arguments. */
  fromWire(dir: Direction, msg: unknown, shownSessionId: string | null): Parameters<SessionTerminals['event']> | undefined {
    if (dir !== 'agent->client' || typeof msg !== 'object' || msg === null || !('method' in msg) || msg.method !== ClientMethods.sessionUpdate) return undefined;
    const e = this.v2.decode('params' in msg ? msg.params : undefined);
    // Terminal ids are per session: only the shown session's terminals feed the panel's map.
    if (!e || e.sessionId !== shownSessionId) return undefined;
    this.agentOwned.add(e.terminalId);
    return [e.terminalId, e.text, e.exit, e.replace ? true : undefined];
  }

  forPanel(): Record<string, TerminalView> {
    return Object.fromEntries(this.views);
  }

  /** Every view with its owner, oldest first: what is saved with the chat. */
  saved(): SavedTerminal[] {
    return [...this.views].map(([id, v]) => ({ id, owner: this.agentOwned.has(id) ? 'agent' : 'client', ...v }));
  }
}
