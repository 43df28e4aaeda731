/**
 * Puts the pending permission requests on the tool-call cards they are about, as `QuestionPlacer` does for
 * the agent's questions: a request names its tool call by key (or, failing that, by the agent's id, never
 * an earlier session's card: a new session may reuse its tool call ids); a card with a pending request is
 * built at once, since it must be seen. A request with no card here is an orphan, shown above the prompt box.
 */
import type { PermissionView } from '../src/common/webview/contract';
import type { EntryView } from './entries/entryView';
import type { PlacerTranscript } from './questionPlacer';

export class PermissionPlacer {
  private permissions: readonly PermissionView[] = [];
  private answered: ReadonlySet<string> = new Set();

  constructor(private readonly t: PlacerTranscript) {}

  /** The host's pending requests, and the ones the user answered here (their cards show the answer). */
  set(perms: readonly PermissionView[], answered: ReadonlySet<string>): void {
    this.permissions = perms;
    this.answered = answered;
    this.place();
  }

  /** Requests whose tool call is not in the transcript. */
  orphans(): PermissionView[] {
    return this.permissions.filter((p) => !this.cardFor(p));
  }

  /** Draws each request on its card; called whenever the tool calls shown change. */
  place(): void {
    const per = new Map<EntryView, PermissionView[]>();
    for (const p of this.permissions) {
      const v = this.cardFor(p);
      if (!v) continue;
      const list = per.get(v) ?? [];
      list.push(p);
      per.set(v, list);
    }
    for (const v of this.t.views) {
      if (v.entry.kind !== 'tool_call') continue;
      const list = per.get(v) ?? [];
      if (list.length) this.t.build(v);
      v.setPermissions(list, this.answered);
    }
  }

  private cardFor(p: PermissionView): EntryView | undefined {
    if (p.toolCallKey) {
      const v = this.t.view(p.toolCallKey);
      if (v && !v.earlier) return v;
    }
    // A subagent's tool call ids are its own: never matched to a card of this transcript by id.
    if (p.fromSubagent !== undefined) return undefined;
    const views = this.t.views;
    for (let i = views.length - 1; i >= this.t.earlierEnd; i--) {
      const v = views[i]!;
      if (v.entry.kind === 'tool_call' && v.entry.toolCallId === p.toolCallId) return v;
    }
    return undefined;
  }
}
