/**
 * Pure operations on store entries that the webview needs: applying an `appendText` patch, the plain
 * text used by search and "copy message", and small formatting helpers. No DOM, so unit-tested in Node.
 */
import type { ContentBlock, ToolCallContent } from '../src/common/protocol/content';
import { diffChangeLines, isDiffV2, unsupportedType } from '../src/common/protocol/contentHelpers';
import type { Usage } from '../src/common/store/model';
import { applyEntryPatch, type EntryPatch } from '../src/common/webview/entryDiff';
import type { ViewEntry as Entry, ViewToolCall } from '../src/common/webview/viewEntry';
import { subagentElapsed } from '../src/common/webview/subagentText';

export { commandOf } from '../src/common/toolOutput';

/** Applies `appendText` as the contract defines it: to the last block when it is text, else as a new text block. */
export function appendTextToEntry(entry: Entry, text: string): Entry {
  if (entry.kind === 'elicitation' || entry.kind === 'subagent' || entry.kind === 'compaction') return entry; // no streamed text (a compaction's summary changes as a field)
  if (entry.kind === 'tool_call') {
    const last = entry.content[entry.content.length - 1];
    const content: ToolCallContent[] =
      last && last.type === 'content' && last.content.type === 'text'
        ? [...entry.content.slice(0, -1), { ...last, content: { ...last.content, text: last.content.text + text } }]
        : [...entry.content, { type: 'content', content: { type: 'text', text } }];
    return { ...entry, content };
  }
  const last = entry.content[entry.content.length - 1];
  const content: ContentBlock[] = last && last.type === 'text' ? [...entry.content.slice(0, -1), { ...last, text: last.text + text }] : [...entry.content, { type: 'text', text }];
  return { ...entry, content };
}

/** Applies a `fields` patch: its streamed text with `appendTextToEntry`, then the changed fields. */
export function applyFieldsToEntry(entry: Entry, patch: EntryPatch): Entry {
  return applyEntryPatch<Entry>(entry, patch, appendTextToEntry);
}

/**
 * The text a `fields` patch appends, when that is all it changes of the entry's content (a thought
 * streams as appended text plus its span's end); else undefined.
 */
export function textAppendedBy(patch: EntryPatch): string | undefined {
  const c = 'content';
  const other = (patch.set && c in patch.set) || patch.unset?.includes(c) || (patch.append && c in patch.append) || (patch.nested && c in patch.nested);
  return other ? undefined : patch.appendText;
}

function blockText(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'resource_link':
      return `@${b.name}`;
    case 'resource': {
      const text: unknown = (b.resource as Readonly<Record<string, unknown>>)['text'];
      return typeof text === 'string' ? text : b.resource.uri;
    }
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    case 'unsupported':
      return `[unsupported ${unsupportedType(b)}]`;
  }
}

/** What search matches and "copy message" copies. */
export function entryPlainText(entry: Entry): string {
  if (entry.kind === 'elicitation')
    return [entry.message, ...Object.entries(entry.answer ?? {}).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)].join('\n');
  if (entry.kind === 'subagent') return [entry.title ?? '', entry.description ?? ''].join('\n');
  if (entry.kind === 'compaction') return ['Context compacted', entry.error ?? '', ...entry.summary.map(blockText)].join('\n');
  if (entry.kind !== 'tool_call') return entry.content.map(blockText).join('\n\n');
  const parts = [entry.title];
  for (const c of entry.content) {
    if (c.type === 'content') parts.push(blockText(c.content));
    else if (c.type === 'diff') parts.push(...(isDiffV2(c) ? [...diffChangeLines(c), c.patch?.text ?? ''] : [c.path, c.newText]));
  }
  for (const l of entry.locations) parts.push(l.path);
  return parts.join('\n');
}

/** Whole seconds a thought took, from its first to its last chunk (at least 1: "Thought for 0 s" reads wrong). */
export function thoughtSeconds(entry: Entry): number {
  const span = entry.kind === 'agent_thought' ? entry.span : undefined;
  return span ? Math.max(1, Math.round((span.last - span.first) / 1000)) : 1;
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}

export function formatUsage(u: Usage): string {
  const pct = u.size > 0 ? ` (${Math.round((u.used / u.size) * 100)}%)` : '';
  const cost = u.cost ? ` · ${u.cost.amount.toFixed(2)} ${u.cost.currency}` : '';
  return `${compact(u.used)} / ${compact(u.size)}${pct}${cost}`;
}

/** A rough rendered height for an entry that has not been rendered yet, so the scrollbar is about right. */
export function estimateHeight(entry: Entry): number {
  if (entry.kind === 'tool_call') return 44 + entry.content.length * 60;
  if (entry.kind === 'elicitation') return 120;
  if (entry.kind === 'subagent') return 72;
  if (entry.kind === 'compaction') return 40;
  let chars = 0;
  for (const b of entry.content) chars += b.type === 'text' ? b.text.length : 40;
  return 36 + Math.ceil(chars / 80) * 20;
}

const TOOL_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  // The client's own status: the user refused the permission and the agent said nothing more.
  rejected: 'Rejected',
  paused: 'Paused',
};

/** A question's state as shown and read aloud. */
export const ELICITATION_STATUS: Readonly<Record<string, string>> = {
  pending: 'waiting for your answer',
  accept: 'answered',
  decline: 'declined',
  cancel: 'cancelled',
  error: 'not answered (error)',
};

export function toolStatusLabel(status: string | null | undefined): string {
  const s = status || 'pending';
  return TOOL_STATUS_LABELS[s] ?? s;
}

/** A subagent's state as shown and read aloud. */
export function subagentStateLabel(state: string | null, stopReason: string | null): string {
  if (state === null) return 'state not reported';
  if (state === 'running') return 'running';
  if (state === 'requires_action') return 'needs you';
  if (state === 'unknown') return 'state unknown';
  if (state === 'idle') return stopReason === null || stopReason === 'end_turn' ? 'done' : `stopped (${stopReason.replace(/_/g, ' ')})`;
  return state;
}

/** A compaction's state as shown and read aloud (a custom status as it came). */
export function compactionStateLabel(status: string): string {
  return COMPACTION_LABELS[status] ?? status;
}
const COMPACTION_LABELS: Readonly<Record<string, string>> = {
  in_progress: 'compacting the conversation…',
  completed: 'conversation compacted',
  failed: 'compaction failed',
  cancelled: 'compaction cancelled',
};

/** A tool call's title as shown (agents may leave it empty). */
export function toolTitle(entry: ViewToolCall): string {
  return entry.title || entry.name || entry.toolCallId;
}

/** A tool title as read aloud: Markdown code-span backticks (shown as code on screen) are not spoken. */
export function spokenToolTitle(entry: ViewToolCall): string {
  return toolTitle(entry).replace(/`/g, '');
}

/** An entry's accessible name: who speaks, or which tool and how it stands. */
export function entryLabel(entry: Entry, agentName: string): string {
  switch (entry.kind) {
    case 'user_message':
      return 'You';
    case 'agent_message':
      return agentName;
    case 'agent_thought':
      return `${agentName}, thought`;
    case 'tool_call':
      return `Tool: ${spokenToolTitle(entry)}, ${toolStatusLabel(entry.status)}`;
    case 'elicitation':
      return `${agentName} asks, ${ELICITATION_STATUS[entry.status] ?? entry.status}`;
    case 'session_message':
      return 'Message between sessions';
    case 'subagent': {
      // A running card's seconds are not in its name: a label that changed every second would be noise.
      const worked = entry.state === 'running' ? null : subagentElapsed(entry, 0);
      return `${entry.title ? `Subagent: ${entry.title}` : 'Subagent'}, ${subagentStateLabel(entry.state, entry.stopReason)}${worked ? `, worked for ${worked}` : ''}`;
    }
    case 'compaction':
      return `Context compaction, ${compactionStateLabel(entry.status)}`;
  }
}
