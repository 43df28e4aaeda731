/**
 * What the webview holds of an entry: the store's entry minus what the panel never shows, with a tool
 * call's raw JSON replaced by what the card shows of it. Raw input/output and `_meta` are agents' free-form
 * payloads (whole file contents, tool responses) that made tool calls most of the bytes posted to the
 * webview; the card shows the command line, the printed output and the `_meta` terminal output derived
 * from them, and the raw JSON itself only behind the "Raw input / output" toggle, which asks the host for
 * it (`getRaw` / `raw` in the contract) when the user opens it.
 *
 * Pure and deterministic: the host projects every entry it posts (snapshot, insert, replace) and diffs
 * projections for `fields` patches, so the webview's copy always equals `toViewEntry(storeEntry)`.
 */
import type { CompactionEntry, ElicitationEntry, MessageEntry, SubagentEntry, ToolCallEntry, Entry } from '../store/model';
import { commandOf, metaTerminalOf, toolOutputOf, type ToolOutput } from '../toolOutput';
import type { Mutable } from '../util/types';

export interface ViewMessage extends Omit<MessageEntry, 'meta' | 'stats'> {
  /** A thought's first and last chunk times (ms), for "Thought for N s"; absent on other messages. */
  readonly span?: { readonly first: number; readonly last: number };
}

/** The raw JSON behind a tool call's toggle: which parts exist and their size (JSON characters). */
interface RawSummary {
  readonly input?: number;
  readonly output?: number;
}

export interface ViewToolCall extends Omit<ToolCallEntry, 'rawInput' | 'rawOutput' | 'meta' | 'stats' | 'statusHistory' | 'parentKey'> {
  /** An `execute` tool's command line, from its raw input (a permission is never approved blind). */
  readonly command?: string;
  /** Output the agent put only in `rawOutput`, when the card shows it (no output of its own). */
  readonly output?: ToolOutput;
  /** The `_meta` terminal output (`terminal_output` / `terminal_output_delta`, `terminal_exit`), for terminal blocks the client does not run. */
  readonly metaTerminal?: { readonly data: string; readonly exitCode?: number };
  /** Present when there is raw input or output to show behind the toggle. */
  readonly raw?: RawSummary;
  /**
   * The tool call this one ran under (a subagent's `Agent` call), from `_meta.claudeCode.parentToolUseId`:
   * agents without the subagents capability report a child's tool calls flat on the parent session.
   */
  readonly parentToolCallId?: string;
}

/** A subagent's delegation card: what the parent said of the child (its transcript is the child session). */
export interface ViewSubagent extends Omit<SubagentEntry, 'stats'> {
  /**
   * When the parent first announced the child (the entry's `stats.firstSeen`, epoch ms): with the
   * `stateSince` of a finished state, how long the child worked ("done · 12 s").
   */
  readonly announcedAt: number;
}

/** An agent's question: everything the card shows (the schema is read in the webview, by elicitation/form.ts). */
export type ViewElicitation = Omit<ElicitationEntry, 'stats'>;

/** A context compaction's row: its state, error and summary (the agent's `_meta` stays on the host). */
export type ViewCompaction = Omit<CompactionEntry, 'stats' | 'meta'>;

export type ViewEntry = ViewMessage | ViewToolCall | ViewElicitation | ViewSubagent | ViewCompaction;

/** JSON sizes of raw values, by identity: store entries are immutable, so a value is measured once. */
const sizes = new WeakMap<object, number>();

function jsonSize(v: unknown): number {
  if (typeof v === 'object' && v !== null) {
    const known = sizes.get(v);
    if (known !== undefined) return known;
    const n = safeStringify(v).length;
    sizes.set(v, n);
    return n;
  }
  return safeStringify(v).length;
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

const present = (v: unknown): boolean => v !== undefined && v !== null;

/** Whether the card shows `rawOutput` as printed output: it has no output of its own, and a diff is not an edit's result. */
function showsRawOutput(e: ToolCallEntry): boolean {
  if (e.content.some((c) => c.type === 'content' || c.type === 'terminal')) return false;
  return e.toolKind === 'execute' || !e.content.some((c) => c.type === 'diff');
}

function metaTerminal(e: ToolCallEntry): ViewToolCall['metaTerminal'] {
  if (!e.content.some((c) => c.type === 'terminal')) return undefined;
  return metaTerminalOf(e.meta);
}

/**
 * What the card shows as printed output when it has none of its own: a known `rawOutput` shape, else the
 * `_meta` terminal output (Codex streams a read's output there and reports only `{exit_code}` as rawOutput).
 */
function printedOutput(e: ToolCallEntry): ToolOutput | null {
  if (!showsRawOutput(e)) return null;
  const printed = toolOutputOf(e.rawOutput);
  if (printed && printed.text !== '') return printed;
  const term = metaTerminalOf(e.meta);
  if (term?.data) return { text: term.data, exitCode: term.exitCode ?? printed?.exitCode ?? null };
  return printed && printed.exitCode !== null ? printed : null;
}

function viewToolCall(e: ToolCallEntry): ViewToolCall {
  // Field by field, not a rest spread: a snapshot projects up to 100,000 entries and this shape stays monomorphic.
  const out: Mutable<ViewToolCall> = {
    kind: e.kind,
    key: e.key,
    toolCallId: e.toolCallId,
    title: e.title,
    name: e.name,
    toolKind: e.toolKind,
    status: e.status,
    content: e.content,
    locations: e.locations,
    provenance: e.provenance,
  };
  const { rawInput, rawOutput } = e;
  const command = e.toolKind === 'execute' ? commandOf(rawInput) : null;
  if (command !== null) out.command = command;
  const printed = printedOutput(e);
  if (printed) out.output = printed;
  const term = metaTerminal(e);
  if (term) out.metaTerminal = term;
  if (present(rawInput) || present(rawOutput)) {
    out.raw = { ...(present(rawInput) ? { input: jsonSize(rawInput) } : {}), ...(present(rawOutput) ? { output: jsonSize(rawOutput) } : {}) };
  }
  const parent = parentToolUseOf(e.meta);
  if (parent !== undefined && parent !== e.toolCallId) out.parentToolCallId = parent;
  return out;
}

/** `_meta.claudeCode.parentToolUseId` (Claude Code's link from a subagent's tool call to its `Agent` call), if a string. */
export function parentToolUseOf(meta: ToolCallEntry['meta']): string | undefined {
  const cc = meta?.['claudeCode'];
  const id = typeof cc === 'object' && cc !== null && 'parentToolUseId' in cc ? cc.parentToolUseId : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export function toViewEntry(e: Entry): ViewEntry {
  if (e.kind === 'tool_call') return viewToolCall(e);
  if (e.kind === 'elicitation') {
    const { stats: _stats, ...view } = e;
    return view;
  }
  if (e.kind === 'subagent') {
    const { stats, ...view } = e;
    return { ...view, announcedAt: stats.firstSeen };
  }
  if (e.kind === 'compaction') return { kind: e.kind, key: e.key, compactionId: e.compactionId, status: e.status, summary: e.summary, error: e.error, provenance: e.provenance };
  const m: ViewMessage = e.route
    ? { kind: e.kind, key: e.key, messageId: e.messageId, content: e.content, route: e.route, provenance: e.provenance }
    : { kind: e.kind, key: e.key, messageId: e.messageId, content: e.content, provenance: e.provenance };
  const marked: ViewMessage = e.replayDiffers ? { ...m, replayDiffers: true } : m;
  return e.kind === 'agent_thought' ? { ...marked, span: { first: e.stats.firstSeen, last: e.stats.lastSeen } } : marked;
}

/** The raw JSON behind a tool call's toggle, as the host answers `getRaw` (null parts are absent). */
export function rawOf(e: Entry | undefined): { readonly input: unknown; readonly output: unknown } | null {
  if (!e || e.kind !== 'tool_call') return null;
  return { input: e.rawInput ?? null, output: e.rawOutput ?? null };
}
