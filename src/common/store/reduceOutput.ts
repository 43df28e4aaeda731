/** The JSON `cli reduce` prints (format: shared/conformance/README.md). */
import type { Diagnostic, Entry, TerminalState } from './model';
import type { Notice } from '../notices';
import type { MessageStore } from './store';

export interface ReduceOutput {
  readonly sessions: readonly {
    readonly sessionId: string;
    /** A subagent's session: the session that started it. */
    readonly parentSessionId?: string;
    readonly entries: readonly Record<string, unknown>[];
    readonly plan: unknown;
    readonly currentModeId: string | null;
    readonly availableCommands: readonly unknown[];
    /** What the panel shows beside the entries: terminal output and exits, the client's notices. */
    readonly terminals: Readonly<Record<string, TerminalState>>;
    readonly notices: readonly Notice[];
  }[];
  readonly diagnostics: readonly Diagnostic[];
}

function entryOutput(e: Entry): Record<string, unknown> {
  if (e.kind === 'tool_call') {
    return {
      kind: e.kind,
      key: e.key,
      toolCallId: e.toolCallId,
      title: e.title,
      toolKind: e.toolKind,
      status: e.status,
      content: e.content,
      locations: e.locations,
      rawInput: e.rawInput,
      rawOutput: e.rawOutput,
    };
  }
  if (e.kind === 'elicitation')
    return { kind: e.kind, key: e.key, mode: e.mode, message: e.message, toolCallId: e.toolCallId, status: e.status, answer: e.answer, completed: e.completed };
  if (e.kind === 'subagent') {
    // `stateSince` is the reducing clock's, like the stats: left out so a capture reduces the same every time.
    const { stats: _stats, provenance: _provenance, stateSince: _since, ...card } = e;
    return card;
  }
  if (e.kind === 'compaction') return { kind: e.kind, key: e.key, compactionId: e.compactionId, status: e.status, summary: e.summary, error: e.error };
  const m = { kind: e.kind, key: e.key, messageId: e.messageId, content: e.content, meta: e.meta, ...(e.replayDiffers ? { replayDiffers: true } : {}) };
  return e.route ? { ...m, route: e.route } : m;
}

export function toReduceOutput(store: MessageStore): ReduceOutput {
  return {
    sessions: store.sessions().map((s) => ({
      sessionId: s.sessionId,
      ...(s.parentSessionId !== null ? { parentSessionId: s.parentSessionId } : {}),
      entries: s.entries.map(entryOutput),
      plan: s.plan,
      currentModeId: s.currentModeId,
      availableCommands: s.availableCommands,
      terminals: s.terminals,
      notices: store.notices(s.sessionId),
    })),
    diagnostics: store.diagnostics(),
  };
}
