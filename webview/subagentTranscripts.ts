/**
 * Subagent transcripts expanded in place, in their delegation cards: which ones are expanded (view state of
 * this webview, kept in its saved state, never in the chat's store), and each expanded child's own
 * transcript, drawn by the same Transcript and entry views as the chat's, from a feed of its own (`subagent`
 * messages: the child's snapshot, then patches of its entries only, with handles of its own).
 *
 * The host feeds only the children listed in the last `expandSubagents` (always the whole set, and again
 * after every snapshot of the chat, which restarts the feeds), so a collapsed child costs this webview
 * nothing. A child's pending permission requests and questions are drawn on its cards here while it is
 * expanded (the chat's panel lists them all; those drawn here are not orphans).
 */
import type { ElicitationPrompt, FeedMessage, PermissionView, TerminalView, WebviewToHost } from '../src/common/webview/contract';
import { WireDecoder } from '../src/common/webview/wireDecoder';
import { MAX_EXPANDED_SUBAGENTS } from '../src/common/webview/limits';
import type { EntryView, SubagentExpansion, ViewDeps } from './entries/entryView';
import { SubagentView } from './entries/subagentView';
import { Transcript } from './transcript';

/** The expanded set a webview saved (WebviewPersistedState.expandedSubagents), read by its type: any other value is none. */
export function restoredExpansion(saved: unknown): string[] {
  const ids = typeof saved === 'object' && saved !== null ? (saved as { expandedSubagents?: unknown }).expandedSubagents : undefined;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string').slice(0, MAX_EXPANDED_SUBAGENTS) : [];
}

interface Nested {
  readonly transcript: Transcript;
  readonly wire: WireDecoder;
  readonly terminals: Map<string, TerminalView>;
  busy: boolean;
  /** Patches wait for the snapshot of a feed the host (re)started: until it comes, they belong to an older feed. */
  awaiting: boolean;
}

export interface SubagentTranscriptsDeps {
  /** The chat transcript's view dependencies, shared by the nested ones (post, clock, activity, titles). */
  readonly base: Omit<ViewDeps, 'sessionId' | 'terminal' | 'isStreaming' | 'subagentTranscripts'>;
  post(m: WebviewToHost): void;
  /** The expanded set changed: the webview saves its state. */
  saved(): void;
  /** A feed could not be applied: the panel asks for a fresh snapshot (which restarts every feed). */
  resync(why: string): void;
  /** Requests drawn here changed: the panel redraws its orphans. */
  placed(): void;
}

export class SubagentTranscripts implements SubagentExpansion {
  private readonly expanded: Set<string>;
  private readonly nested = new Map<string, Nested>();
  private permissions: readonly PermissionView[] = [];
  private answered: ReadonlySet<string> = new Set();
  private questions: readonly ElicitationPrompt[] = [];

  constructor(
    private readonly d: SubagentTranscriptsDeps,
    restored: readonly string[],
  ) {
    this.expanded = new Set(restored);
  }

  /** The expanded children, for the webview's saved state. */
  get ids(): readonly string[] {
    return [...this.expanded];
  }

  isExpanded(childSessionId: string): boolean {
    return this.expanded.has(childSessionId);
  }

  toggle(childSessionId: string): void {
    if (this.expanded.delete(childSessionId)) this.drop(childSessionId);
    else {
      // At the limit the host would refuse the set: the one expanded longest ago folds.
      const oldest = this.expanded.size >= MAX_EXPANDED_SUBAGENTS ? this.ids[0] : undefined;
      if (oldest !== undefined && this.expanded.delete(oldest)) this.drop(oldest);
      this.expanded.add(childSessionId);
    }
    this.announce();
    this.d.saved();
  }

  element(childSessionId: string, title: string): HTMLElement {
    const el = this.nestedFor(childSessionId).transcript.scroller;
    el.setAttribute('aria-label', `Transcript of subagent ${title}`);
    return el;
  }

  /** The chat's snapshot was applied: the host restarted the feeds, so it is told the expanded set again. */
  afterSnapshot(): void {
    for (const n of this.nested.values()) n.awaiting = true;
    if (this.expanded.size) this.announce();
  }

  receive(childSessionId: string, msg: FeedMessage): void {
    if (!this.expanded.has(childSessionId)) return; // collapsed since the host sent it
    const n = this.nestedFor(childSessionId);
    if (msg.type === 'snapshot') {
      n.awaiting = false;
      n.busy = msg.panel.turn === 'busy';
      n.terminals.clear();
      for (const [id, t] of Object.entries(msg.panel.terminals ?? {})) n.terminals.set(id, t);
      n.transcript.reset(n.wire.snapshot(msg.entries, msg.olderCount ?? 0), null, msg.olderCount ?? 0);
      this.placeIn(n);
      return;
    }
    if (n.awaiting) return;
    if (msg.type === 'older') {
      n.transcript.prependOlder(n.wire.older(msg.entries, msg.olderCount), msg.olderCount);
      this.placeIn(n);
      return;
    }
    for (const op of msg.ops) {
      switch (op.op) {
        case 'insert':
        case 'replace':
        case 'appendText':
        case 'fields': {
          const e = n.wire.entryOp(op);
          if (e.op === 'insert') n.transcript.insert(e.index, e.entry);
          else if (e.op === 'replace') n.transcript.replace(e.entry);
          else if (e.op === 'appendText') n.transcript.appendText(e.key, e.text);
          else n.transcript.patchFields(e.key, e.patch);
          if (e.op === 'insert' && e.entry.kind === 'tool_call') this.d.placed();
          break;
        }
        case 'terminal': {
          const prev = n.terminals.get(op.terminalId) ?? { output: '', exited: false, exitCode: null, signal: null };
          const output = op.replace ? op.append : prev.output + op.append;
          n.terminals.set(op.terminalId, op.exit ? { output, exited: true, exitCode: op.exit.exitCode, signal: op.exit.signal } : { ...prev, output });
          n.transcript.refreshTerminal(op.terminalId);
          break;
        }
        case 'panel':
          if (op.panel.turn !== undefined && (op.panel.turn === 'busy') !== n.busy) {
            n.busy = op.panel.turn === 'busy';
            n.transcript.refreshStreaming();
          }
          break;
        case 'changeSet':
          break; // a turn's Changes are the chat's (its own panel shows them)
      }
    }
  }

  /** The chat's pending requests: those of an expanded child are drawn on its cards here. */
  setRequests(permissions: readonly PermissionView[], answered: ReadonlySet<string>, questions: readonly ElicitationPrompt[]): void {
    this.permissions = permissions;
    this.answered = answered;
    this.questions = questions;
    for (const n of this.nested.values()) {
      n.transcript.permissions.set(permissions, answered);
      n.transcript.questions.setPrompts(questions);
    }
  }

  /** Whether a request is drawn in an expanded child's transcript (so it is not an orphan of the chat's). */
  draws(p: PermissionView | ElicitationPrompt): boolean {
    for (const n of this.nested.values()) {
      if ('options' in p ? !n.transcript.permissions.orphans().includes(p) : !n.transcript.questions.orphans().includes(p)) return true;
    }
    return false;
  }

  /** The views of every expanded transcript (a subagent's subagents' cards show what the panel says of them too). */
  views(): EntryView[] {
    return [...this.nested.values()].flatMap((n) => n.transcript.views);
  }

  /** The expanded children's transcripts (a card's review moved: it is redrawn where it is drawn). */
  get transcripts(): Transcript[] {
    return [...this.nested.values()].map((n) => n.transcript);
  }

  /** A card of a subagent drawn in an expanded transcript, by child session id (what the panel calls it). */
  card(childSessionId: string): SubagentView | undefined {
    for (const n of this.nested.values()) {
      const v = n.transcript.views.find((x) => x instanceof SubagentView && x.entry.childSessionId === childSessionId);
      if (v instanceof SubagentView) return v;
    }
    return undefined;
  }

  flush(): void {
    for (const n of this.nested.values()) n.transcript.flush();
  }

  private announce(): void {
    this.d.post({ type: 'expandSubagents', childSessionIds: [...this.expanded] });
  }

  private placeIn(n: Nested): void {
    n.transcript.permissions.set(this.permissions, this.answered);
    n.transcript.questions.setPrompts(this.questions);
    this.d.placed();
  }

  private drop(childSessionId: string): void {
    const n = this.nested.get(childSessionId);
    if (!n) return;
    this.nested.delete(childSessionId);
    n.transcript.reset([]); // disposes its views (a running card's clock)
    n.transcript.scroller.remove();
    this.d.placed();
  }

  private nestedFor(childSessionId: string): Nested {
    const have = this.nested.get(childSessionId);
    if (have) return have;
    const terminals = new Map<string, TerminalView>();
    let transcript: Transcript | null = null;
    const n: Nested = {
      transcript: (transcript = new Transcript(
        {
          ...this.d.base,
          sessionId: () => childSessionId,
          terminal: (id) => terminals.get(id),
          // The child's newest entry streams while the child runs.
          isStreaming: (key) => n.busy && transcript?.views[transcript.views.length - 1]?.key === key,
          subagentTranscripts: this,
        },
        'Transcript of a subagent',
      )),
      wire: new WireDecoder(),
      terminals,
      busy: false,
      awaiting: true,
    };
    transcript.onOutOfSync = (why) => this.d.resync(`subagent ${childSessionId}: ${why}`);
    this.nested.set(childSessionId, n);
    return n;
  }
}
