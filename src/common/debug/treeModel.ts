/**
 * The "ACP Messages" debug tree as plain data: sessions, then their entries in order with identity
 * (messageId / toolCallId / local key), provenance and counters, plus plan, mode and diagnostics.
 * The VS Code TreeDataProvider only maps these nodes to TreeItems, so what the tree shows is tested here.
 */
import type { Diagnostic, Entry, EntryStats, SessionState, SubagentEntry, ToolCallEntry } from '../store/model';
import { childSessions, subagentLabel } from '../store/sessionTree';
import type { Finding } from '../conformance/rules';
import { escapeControl } from '../conformance/util';
import { plainLine } from '../untrusted';

export type TreeNode =
  | { readonly type: 'session'; readonly id: string; readonly sessionId: string; readonly label: string; readonly description: string; readonly parentSessionId?: string }
  | {
      readonly type: 'entry';
      readonly id: string;
      readonly sessionId: string;
      readonly key: string;
      readonly entryKind: Entry['kind'];
      readonly label: string;
      readonly description: string;
      readonly tooltip: string;
      readonly icon: string;
      readonly hasChildren: boolean;
    }
  | { readonly type: 'detail'; readonly id: string; readonly label: string; readonly description: string; readonly copyValue?: string }
  | { readonly type: 'group'; readonly id: string; readonly sessionId: string; readonly group: TreeGroup; readonly label: string; readonly description: string };

export type TreeGroup = 'plan' | 'diagnostics' | 'state' | 'conformance';

const KIND_LABEL: Record<Entry['kind'], string> = {
  user_message: 'User',
  agent_message: 'Agent',
  agent_thought: 'Thought',
  session_message: 'Session message',
  tool_call: 'Tool call',
  elicitation: 'Question',
  subagent: 'Subagent',
  compaction: 'Compaction',
};

const KIND_ICON: Record<Entry['kind'], string> = {
  user_message: 'account',
  agent_message: 'hubot',
  agent_thought: 'lightbulb',
  session_message: 'mail',
  tool_call: 'tools',
  elicitation: 'question',
  subagent: 'type-hierarchy-sub',
  compaction: 'fold',
};

const PROVENANCE_LABEL = { local: 'local prompt', live: 'live', replay: 'replay', fork: 'forked' } as const;

export function entryIdentity(e: Entry): string | null {
  return e.kind === 'tool_call'
    ? e.toolCallId
    : e.kind === 'elicitation'
      ? (e.elicitationId ?? String(e.requestId))
      : e.kind === 'subagent'
        ? e.childSessionId
        : e.kind === 'compaction'
          ? e.compactionId
          : e.messageId;
}

export function sessionNode(s: SessionState, diagnostics: number): TreeNode {
  return {
    type: 'session',
    id: `s/${s.sessionId}`,
    sessionId: s.sessionId,
    // The id is for machines: it stays in the tooltip and details.
    label: s.title ?? 'Untitled session',
    description: `${s.entries.length} entries · v${s.protocolVersion}${diagnostics ? ` · ${diagnostics} diagnostics` : ''}`,
  };
}

/** The sessions shown at the top of the tree: all but the subagents, which are shown under their parent. */
export function rootSessions(sessions: readonly SessionState[]): SessionState[] {
  const ids = new Set(sessions.map((s) => s.sessionId));
  return sessions.filter((s) => s.parentSessionId === null || !ids.has(s.parentSessionId));
}

/** A subagent's session, under its parent: named by the subagent's title, with its state first. */
function subagentSessionNode(s: SessionState, parentSessionId: string, announced: SubagentEntry, diagnostics: number): TreeNode {
  const state = announced.state === null ? 'state not reported' : announced.stopReason ? `${announced.state} (${announced.stopReason})` : announced.state;
  return {
    type: 'session',
    id: `s/${s.sessionId}`,
    sessionId: s.sessionId,
    parentSessionId,
    label: `Subagent: ${escapeControl(subagentLabel(announced))}`,
    description: `${escapeControl(state)} · ${s.entries.length} entries · v${s.protocolVersion}${diagnostics ? ` · ${diagnostics} diagnostics` : ''}`,
  };
}

/** The subagents `parent` announced, as session nodes to nest under it (each its own subtree, any depth). */
export function subagentNodes(sessions: readonly SessionState[], parent: SessionState, diagnostics: (sessionId: string) => number): TreeNode[] {
  const lookup = { session: (id: string) => sessions.find((s) => s.sessionId === id) };
  return childSessions(lookup, parent).map((c) => subagentSessionNode(c.session, parent.sessionId, c.entry, diagnostics(c.session.sessionId)));
}

/** Conformance findings about the capture lines that built an entry. */
function findingsOf(e: Entry, findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => e.stats.lines.some(([a, b]) => f.line >= a && f.line <= b));
}

function findingLabel(f: Finding): string {
  return `${f.severity === 'error' ? '✖' : '⚠'} ${f.rule}`;
}

export function entryNode(sessionId: string, e: Entry, index: number, findings: readonly Finding[] = []): TreeNode {
  const id = entryIdentity(e);
  const own = findingsOf(e, findings);
  const flag = own.length ? `${own.some((f) => f.severity === 'error') ? '✖' : '⚠'} ${own.length} finding${own.length === 1 ? '' : 's'} · ` : '';
  const counts = `${e.stats.chunks} chunks · ${e.stats.upserts} upserts · ${e.stats.bytes} B`;
  const label = e.kind === 'tool_call' ? `${index + 1}. ${KIND_LABEL[e.kind]}: ${e.title}` : `${index + 1}. ${KIND_LABEL[e.kind]} ${id ?? '(no id)'}`;
  const status = e.kind === 'tool_call' || e.kind === 'compaction' ? `${e.status} · ` : '';
  return {
    type: 'entry',
    id: `e/${sessionId}/${e.key}`,
    sessionId,
    key: e.key,
    entryKind: e.kind,
    label,
    description: `${flag}${status}${PROVENANCE_LABEL[e.provenance]} · ${counts}`,
    tooltip: [
      `${KIND_LABEL[e.kind]} ${e.kind === 'tool_call' ? `toolCallId ${e.toolCallId}` : e.kind === 'elicitation' ? `request ${String(e.requestId)}` : e.kind === 'subagent' ? `child session ${e.childSessionId}` : e.kind === 'compaction' ? `compactionId ${e.compactionId}` : `messageId ${e.messageId ?? '(none)'}`}`,
      `key ${e.key}`,
      `provenance ${PROVENANCE_LABEL[e.provenance]}`,
      counts,
      `first seen ${iso(e.stats.firstSeen)}, last seen ${iso(e.stats.lastSeen)}`,
      `capture lines ${formatLines(e.stats.lines)}`,
      ...own.map((f) => `line ${f.line} ${f.severity} ${f.rule}: ${escapeControl(f.message)}`),
    ].join('\n'),
    icon: KIND_ICON[e.kind],
    hasChildren: true,
  };
}

/** The children of an entry: every identity and counter, each copyable. */
export function entryDetails(sessionId: string, e: Entry, findings: readonly Finding[] = []): TreeNode[] {
  const base = `d/${sessionId}/${e.key}`;
  const d = (name: string, value: string, copy?: string): TreeNode => ({
    type: 'detail',
    id: `${base}/${name}`,
    label: name,
    description: value,
    ...(copy !== undefined ? { copyValue: copy } : {}),
  });
  const out: TreeNode[] = [];
  if (e.kind === 'tool_call') {
    out.push(d('toolCallId', e.toolCallId, e.toolCallId), d('kind', e.toolKind), d('status', e.status));
    if (e.name) out.push(d('name', e.name));
    out.push(d('status history', statusHistory(e)));
    if (e.parentKey) out.push(d('belongs to', e.parentKey, e.parentKey));
  } else if (e.kind === 'elicitation') {
    out.push(d('mode', e.mode), d('status', e.status), d('request id', String(e.requestId)));
    if (e.toolCallId) out.push(d('toolCallId', e.toolCallId, e.toolCallId));
    if (e.elicitationId) out.push(d('elicitationId', e.elicitationId, e.elicitationId));
  } else if (e.kind === 'subagent') {
    out.push(d('child session', e.childSessionId, e.childSessionId), d('state', e.state === null ? '(not reported)' : e.stopReason ? `${e.state} (${e.stopReason})` : e.state));
    if (e.description) out.push(d('description', e.description));
    if (e.cwd) out.push(d('cwd', e.cwd, e.cwd));
  } else if (e.kind === 'compaction') {
    out.push(d('compactionId', e.compactionId, e.compactionId), d('status', e.status));
    if (e.error) out.push(d('error', e.error));
  } else {
    out.push(d('messageId', e.messageId ?? '(no id)', e.messageId ?? undefined));
    if (e.route) {
      const r = e.route;
      if (r.senderSessionId) out.push(d('from session', r.senderSessionId, r.senderSessionId));
      if (r.recipientSessionId) out.push(d('to session', r.recipientSessionId, r.recipientSessionId));
      if (r.senderMessageId) out.push(d("sender's messageId", r.senderMessageId, r.senderMessageId));
      if (r.recipientMessageId) out.push(d("recipient's messageId", r.recipientMessageId, r.recipientMessageId));
    }
  }
  out.push(
    d('key', e.key, e.key),
    d('provenance', PROVENANCE_LABEL[e.provenance]),
    d('chunks', String(e.stats.chunks)),
    d('upserts', String(e.stats.upserts)),
    d('bytes', String(e.stats.bytes)),
    d('first seen', iso(e.stats.firstSeen)),
    d('last seen', iso(e.stats.lastSeen)),
    d('capture lines', formatLines(e.stats.lines)),
  );
  findingsOf(e, findings).forEach((f, i) =>
    out.push({
      type: 'detail',
      id: `${base}/finding/${i}`,
      label: findingLabel(f),
      description: `line ${f.line} · ${escapeControl(f.message)}`,
      copyValue: `${f.rule} (line ${f.line}): ${f.message}`,
    }),
  );
  return out;
}

/** Where a branch chat's session came from, as the tree shows it (first under the session). */
export interface BranchOrigin {
  readonly sessionId: string;
  /** The source chat's title. */
  readonly chat: string;
  readonly messageKey: string;
}

/** `subagents`: the subagent sessions to nest under this one (subagentNodes), after its entries. */
export function sessionChildren(
  s: SessionState,
  diagnostics: readonly Diagnostic[],
  findings?: readonly Finding[],
  origin?: BranchOrigin | null,
  subagents: readonly TreeNode[] = [],
): TreeNode[] {
  const out: TreeNode[] = [...s.entries.map((e, i) => entryNode(s.sessionId, e, i, findings)), ...subagents];
  // Restore in place's folds: a row before each folded range says what it holds and where it came from (foldRules.ts).
  for (const f of [...(s.folds ?? [])].reverse()) {
    const start = s.entries.findIndex((e) => e.key === f.first);
    const end = s.entries.findIndex((e) => e.key === f.last);
    if (start < 0 || end < start) continue;
    const description = `entries ${start + 1}–${end + 1} (${end - start + 1}) · restored to message ${f.from.key} of session ${escapeControl(f.from.sessionId)}`;
    out.splice(start, 0, { type: 'detail', id: `g/${s.sessionId}/fold/${f.first}`, label: 'folded (restore in place)', description, copyValue: f.from.key });
  }
  if (origin)
    out.unshift({
      type: 'detail',
      id: `g/${s.sessionId}/origin`,
      label: 'forked from',
      description: `${escapeControl(origin.chat)} · message ${origin.messageKey} · session ${escapeControl(origin.sessionId)}`,
      copyValue: origin.messageKey,
    });
  const mode = s.currentModeId ?? '(none)';
  out.push({ type: 'group', id: `g/${s.sessionId}/state`, sessionId: s.sessionId, group: 'state', label: 'Session state', description: `mode ${mode}` });
  if (s.plan) {
    const done = s.plan.filter((p) => p.status === 'completed').length;
    out.push({ type: 'group', id: `g/${s.sessionId}/plan`, sessionId: s.sessionId, group: 'plan', label: 'Plan', description: `${done}/${s.plan.length} completed` });
  }
  out.push({
    type: 'group',
    id: `g/${s.sessionId}/diagnostics`,
    sessionId: s.sessionId,
    group: 'diagnostics',
    label: 'Diagnostics',
    description: `${diagnostics.filter((x) => x.severity === 'error').length} errors, ${diagnostics.filter((x) => x.severity === 'warning').length} warnings`,
  });
  if (findings !== undefined) {
    const errors = findings.filter((f) => f.severity === 'error').length;
    out.push({
      type: 'group',
      id: `g/${s.sessionId}/conformance`,
      sessionId: s.sessionId,
      group: 'conformance',
      label: 'Conformance',
      description: findings.length ? `${errors} errors, ${findings.length - errors} warnings` : 'no findings',
    });
  }
  return out;
}

export function groupChildren(s: SessionState, group: TreeGroup, diagnostics: readonly Diagnostic[], findings: readonly Finding[] = []): TreeNode[] {
  const d = (i: number, label: string, description: string, copy?: string): TreeNode => ({
    type: 'detail',
    id: `g/${s.sessionId}/${group}/${i}`,
    label,
    description,
    ...(copy !== undefined ? { copyValue: copy } : {}),
  });
  switch (group) {
    case 'plan':
      return (s.plan ?? []).map((p, i) => d(i, `${planIcon(p.status)} ${p.content}`, `${p.status} · ${p.priority}`));
    case 'conformance':
      return findings.map((f, i) => d(i, findingLabel(f), `line ${f.line} · ${escapeControl(f.message)}`, `${f.rule} (line ${f.line}): ${f.message}`));
    case 'diagnostics':
      return diagnostics.map((x, i) => d(i, `${x.severity}: ${x.message}`, x.line !== undefined ? `line ${x.line}` : '', x.message));
    case 'state':
      return [
        d(0, 'sessionId', s.sessionId, s.sessionId),
        d(1, 'protocol version', String(s.protocolVersion)),
        d(2, 'mode', s.currentModeId ?? '(none)'),
        d(3, 'modes', s.availableModes.map((m) => m.id).join(', ') || '(none)'),
        d(4, 'commands', s.availableCommands.map((c) => `/${c.name}`).join(' ') || '(none)'),
        d(5, 'config options', s.configOptions.map((c) => `${c.id}=${String(c['currentValue'])}`).join(', ') || '(none)'),
        d(6, 'usage', s.usage ? `${s.usage.used}/${s.usage.size} tokens${s.usage.cost ? ` · ${s.usage.cost.amount} ${s.usage.cost.currency}` : ''}` : '(none)'),
        ...setupRows(s.setup, (i, label, value) => d(7 + i, label, escapeControl(value), value)),
      ];
  }
}

/** What the client opened the session with: working folder, other folders, system prompt, MCP servers. */
function setupRows(setup: SessionState['setup'], row: (i: number, label: string, value: string) => TreeNode): TreeNode[] {
  if (!setup) return [];
  const list = (items: readonly string[]) => items.join(', ') || '(none)';
  return [
    row(0, 'working folder', setup.cwd),
    row(1, 'additional directories', list(setup.additionalDirectories)),
    row(2, 'system prompt', setup.systemPrompt ?? '(none)'),
    row(3, 'MCP servers', list(setup.mcpServers)),
  ];
}

function planIcon(status: string): string {
  return status === 'completed' ? '✓' : status === 'in_progress' ? '▸' : '○';
}

function statusHistory(e: ToolCallEntry): string {
  return e.statusHistory.map((h) => h.status).join(' → ') || e.status;
}

function iso(ms: number): string {
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : '-';
}

export function formatLines(lines: EntryStats['lines']): string {
  if (lines.length === 0) return '(none)';
  return lines.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(', ');
}

/**
 * A node as the tree shows it: label and description are one line of plain text whatever the agent put in
 * them (a title, a tool title, an id): breaks become spaces, control and bidi characters go (issue 39).
 */
export function shownNode<N extends TreeNode>(node: N): N {
  return { ...node, label: plainLine(node.label), description: plainLine(node.description) };
}
