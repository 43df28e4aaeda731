/**
 * Puts a subagent's traffic where subagentPlacement.ts says it is drawn, as QuestionPlacer does for the
 * agent's questions: a task or result message in its subagent's card, a tool call in the card of the call
 * it is a step of. A host draws its guests when it is built (guests are built with it). The transcript calls
 * `place` whenever the entries placing reads change: tool calls, cards and session messages coming or
 * going, a tool call's `parentToolCallId` or a message's route changing, the earlier-session boundary.
 */
import { subagentHosts } from '../src/common/webview/subagentPlacement';
import type { ViewEntry } from '../src/common/webview/viewEntry';
import type { EntryView } from './entries/entryView';
import { SessionMessageView } from './entries/sessionMessageView';
import { SubagentView } from './entries/subagentView';
import { ToolCallView } from './entries/toolCallView';
import type { PlacerTranscript } from './questionPlacer';

const NO_MESSAGES: readonly SessionMessageView[] = [];
const NO_STEPS: readonly ToolCallView[] = [];

export class SubagentPlacer {
  constructor(private readonly t: Pick<PlacerTranscript, 'views' | 'view' | 'earlierEnd'>) {}

  place(): void {
    const views = this.t.views;
    const hosts = subagentHosts(
      views.map((v) => v.entry),
      [this.t.earlierEnd],
    );
    const perCard = new Map<SubagentView, SessionMessageView[]>();
    const perTool = new Map<ToolCallView, ToolCallView[]>();
    for (const v of views) {
      const placed = hosts.get(v.key);
      const host = placed ? this.t.view(placed.host) : undefined;
      if (v instanceof SessionMessageView) {
        const card = host instanceof SubagentView && placed?.role !== 'step' ? host : null;
        v.setHost(card, placed?.role === 'result' ? 'result' : 'task');
        if (card) perCard.set(card, [...(perCard.get(card) ?? []), v]);
      } else if (v instanceof ToolCallView) {
        const tool = host instanceof ToolCallView ? host : null;
        v.setHost(tool);
        if (tool) perTool.set(tool, [...(perTool.get(tool) ?? []), v]);
      }
    }
    for (const v of views) {
      if (v instanceof SubagentView) v.setMessages(perCard.get(v) ?? NO_MESSAGES);
      else if (v instanceof ToolCallView) v.setSteps(perTool.get(v) ?? NO_STEPS);
    }
  }

  /** Places again when a change of an entry may move it (its link to a parent call, or its route). */
  changed(before: ViewEntry, after: ViewEntry): void {
    const moved =
      (before.kind === 'tool_call' && after.kind === 'tool_call' && before.parentToolCallId !== after.parentToolCallId) ||
      (before.kind === 'session_message' && after.kind === 'session_message' && JSON.stringify(before.route) !== JSON.stringify(after.route));
    if (moved) this.place();
  }
}

/** The view an entry is seen in: its own, or (following hosts) the outermost card that draws it. */
export function drawnBy(v: EntryView): EntryView {
  let at = v;
  // Hosts never loop (subagentHosts cuts loops); the bound only keeps a bug from hanging the panel.
  for (let depth = 0; depth < 64 && at.drawnIn; depth++) at = at.drawnIn;
  return at;
}
