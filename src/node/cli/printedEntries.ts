/**
 * How a change to one of the store's entries reads in `cli run`'s transcript. Whether a change was a chunk
 * or a whole update is the entry's own count (`stats.chunks` / `stats.upserts` against `previous`), what a
 * chunk added is the store's `appendedText` (or the tail of the content), and a tool call's or a
 * subagent's line is printed when its status or state changed. Kept here is only what was printed.
 */
import type { ContentBlock } from '../../common/protocol/content';
import type { Entry } from '../../common/store/model';
import { isRecord } from '../../common/util/guards';
import { PrintedMessages } from './printedMessages';
import { oneLine, shownText, type Prose, type Stream } from './lineText';
import type { PrintedTree } from './printedTree';

/** Where the printed lines go (the printer). */
export interface Printout {
  stream(block: Stream, prefix: string, text: string, depth: number): void;
  indented(s: string, depth: number, session?: string, prose?: Prose): void;
}

/** A summary printed whole would bury the transcript: its first characters, on one line. */
const SUMMARY_CHARS = 300;

export class PrintedEntries {
  /**
   * By entry key: the depth a tool call is printed at, fixed when first seen (a legacy
   * subagent's steps go under its `Agent` call), and the status last printed (a permission request may
   * change it unprinted: the run prints its own `[permission]` line).
   */
  private readonly tools = new Map<string, { readonly depth: number; status: string | null }>();
  /** A subagent's last reported state (a cleared state says nothing new, so it does not reset this). */
  private readonly states = new Map<string, { state: string; stopReason: string | null }>();
  /** By session and compaction id: the last state printed (a repeated `completed` without news prints nothing). */
  private readonly compactions = new Map<string, string>();
  private readonly messages: PrintedMessages;

  constructor(
    private readonly tree: PrintedTree,
    private readonly out: Printout,
  ) {
    this.messages = new PrintedMessages(tree);
  }

  /** `e` of session `sid` (printed at `depth`) was inserted (no `previous`) or changed. */
  changed(sid: string, depth: number, e: Entry, previous: Entry | undefined, appended: string | undefined): void {
    const chunk = e.stats.chunks > (previous?.stats.chunks ?? 0);
    switch (e.kind) {
      case 'agent_message':
      case 'agent_thought': {
        const kind = e.kind === 'agent_message' ? 'text' : 'thought';
        const before = previous?.kind === e.kind ? previous.content : undefined;
        if (chunk) {
          const t = added(before ?? [], e.content, appended);
          if (t !== '') this.out.stream({ kind, key: sid, session: sid }, kind === 'thought' ? '[thought] ' : '', t, depth);
        } else if (sent(e.content, before))
          this.out.indented(`${kind === 'thought' ? '[thought] ' : ''}${e.content.map(shownText).join('')}`, depth, sid, kind === 'thought' ? 'rest' : 'all');
        return;
      }
      case 'session_message': {
        const before = previous?.kind === e.kind ? previous.content : undefined;
        const m = chunk ? this.messages.chunk(sid, e, added(before ?? [], e.content, appended)) : sent(e.content, before) ? this.messages.upsert(sid, e) : null;
        if (m && chunk) this.out.stream({ kind: 'message', key: m.key, session: m.at }, `${oneLine(m.prefix)} `, m.text, this.tree.depth(m.at) ?? depth);
        else if (m) this.out.indented(`${oneLine(m.prefix)} ${m.text}`, this.tree.depth(m.at) ?? depth, m.at, 'rest');
        return;
      }
      case 'tool_call': {
        let tool = this.tools.get(e.key);
        if (tool === undefined) {
          const parent = this.parentTool(sid, e.meta);
          tool = { depth: parent === undefined ? depth : parent.depth + 1, status: null };
          this.tools.set(e.key, tool);
        }
        // Printed when this change moved the status, unless to the one printed last.
        if ((previous?.kind === 'tool_call' && previous.status === e.status) || tool.status === e.status) return;
        tool.status = e.status;
        this.out.indented(`[tool] ${e.title !== '' ? e.title : e.toolCallId} (${e.status})`, tool.depth, sid);
        return;
      }
      case 'subagent':
        for (const l of this.subagentLines(e, previous === undefined)) this.out.indented(l, depth, sid);
        return;
      case 'compaction': {
        const before = previous?.kind === e.kind ? previous : undefined;
        if (chunk) {
          const t = added(before?.summary ?? [], e.summary);
          if (t !== '') this.out.stream({ kind: 'message', key: `compaction ${e.compactionId}`, session: sid }, '[compaction summary] ', t, depth);
          return;
        }
        // Summary and error are patches: what this update sent is what changed.
        const summary = before === undefined || e.summary !== before.summary ? e.summary.map(shownText).join('') : '';
        const error = before === undefined || e.error !== before.error ? e.error : null;
        const key = JSON.stringify([sid, e.compactionId]);
        if (this.compactions.get(key) === e.status && summary === '' && !error) return;
        this.compactions.set(key, e.status);
        const short = summary.replace(/\s+/g, ' ').trim();
        const tail = short === '' ? '' : `: ${short.length > SUMMARY_CHARS ? `${short.slice(0, SUMMARY_CHARS)}…` : short}`;
        this.out.indented(`[compaction] ${e.status.replace(/_/g, ' ')}${error ? ` (${error})` : ''}${tail}`, depth, sid);
        return;
      }
      case 'user_message':
      case 'elicitation':
        // The run prints its own `[user]` line and its answers to questions.
        return;
    }
  }

  /** Claude's link from a subagent's tool call to the `Agent` call that started it (when it has no session of its own). */
  private parentTool(sid: string, meta: unknown): { readonly depth: number } | undefined {
    const cc = isRecord(meta) ? meta['claudeCode'] : undefined;
    const id = isRecord(cc) ? cc['parentToolUseId'] : undefined;
    if (typeof id !== 'string') return undefined;
    const parent = this.tree.session(sid)?.entries.find((p) => p.kind === 'tool_call' && p.toolCallId === id);
    return parent === undefined ? undefined : this.tools.get(parent.key);
  }

  /** A subagent's header lines: started (when first announced) and its state when it changed. */
  private subagentLines(e: Extract<Entry, { kind: 'subagent' }>, first: boolean): string[] {
    const label = e.title ?? e.childSessionId;
    const lines = first ? [`[subagent] ${label}${e.description ? ` (${e.description})` : ''} started`] : [];
    if (e.state === null) return lines;
    const last = this.states.get(e.childSessionId);
    this.states.set(e.childSessionId, { state: e.state, stopReason: e.stopReason });
    if (last?.state === e.state && last.stopReason === e.stopReason) return lines;
    if (last !== undefined || e.state !== 'running') lines.push(`[subagent] ${label}: ${stateText(e.state, e.stopReason)}`);
    return lines;
  }
}

/** Whether a whole-message update sent content (omitted content leaves the entry's own array; a cleared one prints nothing). */
function sent(content: readonly ContentBlock[], before: readonly ContentBlock[] | undefined): boolean {
  return content.length > 0 && content !== before;
}

/** What a chunk added: the store's `appendedText`, else the growth of the last text block and the blocks after it. */
function added(before: readonly ContentBlock[], after: readonly ContentBlock[], appended?: string): string {
  if (appended !== undefined) return appended;
  const n = before.length;
  const a = before[n - 1];
  const b = after[n - 1];
  let s = a?.type === 'text' && b?.type === 'text' && b.text.length > a.text.length ? b.text.slice(a.text.length) : '';
  for (let i = n; i < after.length; i++) s += shownText(after[i]!);
  return s;
}

function stateText(state: string, stopReason: string | null): string {
  switch (state) {
    case 'running':
      return 'running';
    case 'idle':
      return stopReason === null || stopReason === 'end_turn' ? 'done' : `stopped (${stopReason})`;
    case 'requires_action':
      return 'needs you';
    case 'unknown':
      return 'state unknown';
    default:
      return state;
  }
}
