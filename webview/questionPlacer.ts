/**
 * Puts the agent's questions where they are drawn: a question tied to a tool call the transcript shows
 * goes on that tool call's card (see questionPlacement.ts), any other on its own entry; one the agent
 * waits for is built at once, on whichever card shows it, since it must be seen. The transcript calls
 * `place` whenever the entries that placing reads (tool calls, questions, the earlier-session boundary)
 * change, and `setPrompts` with the host's list of questions waiting for an answer.
 */
import type { ElicitationPrompt } from '../src/common/webview/contract';
import { questionHosts } from '../src/common/webview/questionPlacement';
import { ElicitationView } from './entries/elicitationView';
import type { EntryView } from './entries/entryView';
import { ToolCallView } from './entries/toolCallView';

export interface PlacerTranscript {
  readonly views: readonly EntryView[];
  view(key: string): EntryView | undefined;
  /** Where the new session starts, when an earlier one is shown above it (0: none). */
  readonly earlierEnd: number;
  /** Puts a view in the document and builds it now. */
  build(v: EntryView): void;
}

const NONE: readonly ElicitationView[] = [];

export class QuestionPlacer {
  private prompts: readonly ElicitationPrompt[] = [];

  constructor(private readonly t: PlacerTranscript) {}

  setPrompts(prompts: readonly ElicitationPrompt[]): void {
    this.prompts = prompts;
    this.place();
  }

  promptFor(key: string): ElicitationPrompt | undefined {
    return this.prompts.find((p) => p.entryKey === key);
  }

  /** Questions with no entry here (asked before any session, or for an entry not held): shown above the prompt box. */
  orphans(): ElicitationPrompt[] {
    return this.prompts.filter((p) => p.entryKey === null || !(this.t.view(p.entryKey) instanceof ElicitationView));
  }

  place(): void {
    const views = this.t.views;
    const hosts = questionHosts(
      views.map((v) => v.entry),
      [this.t.earlierEnd],
    );
    const perTool = new Map<ToolCallView, ElicitationView[]>();
    for (const v of views) {
      if (!(v instanceof ElicitationView)) continue;
      const hostKey = hosts.get(v.key);
      const hostView = hostKey !== undefined ? this.t.view(hostKey) : undefined;
      const tool = hostView instanceof ToolCallView ? hostView : null;
      const p = this.promptFor(v.key);
      v.setHost(tool);
      v.setPrompt(p);
      if (tool) {
        perTool.set(tool, [...(perTool.get(tool) ?? []), v]);
        // Built so that a change of its entry redraws it (its own element stays hidden).
        this.t.build(v);
      }
      if (p) this.t.build(tool ?? v);
    }
    for (const v of views) if (v instanceof ToolCallView) v.setQuestions(perTool.get(v) ?? NONE);
  }
}
