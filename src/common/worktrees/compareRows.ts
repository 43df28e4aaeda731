/**
 * One task given to several agents, each in its own worktree: what each run is (state, time, tokens and
 * cost where reported, files changed, final answer) and how a row or a table of them reads. Shared by the
 * extension's compare view and `acp-chat run --worktrees`, so both say the same thing.
 */
import type { FileStat } from './gitText';

export type RunState = 'starting' | 'working' | 'done' | 'failed' | 'cancelled';

export interface AgentRun {
  readonly label: string;
  readonly state: RunState;
  readonly startedAt: number;
  /** When the turn ended (null: still running). */
  readonly endedAt: number | null;
  readonly files: readonly FileStat[];
  /** The agent's last message of the turn (plain text; may be empty). */
  readonly answer: string;
  readonly usage?: { readonly used: number; readonly size: number; readonly cost?: { readonly amount: number; readonly currency: string } | null } | null;
}

/** `4.2s`, `1m 05s`, `1h 02m`. */
function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function lineTotals(files: readonly FileStat[]): { added: number; removed: number } {
  return files.reduce((t, f) => ({ added: t.added + (f.added ?? 0), removed: t.removed + (f.removed ?? 0) }), { added: 0, removed: 0 });
}

function usageText(u: AgentRun['usage']): string {
  if (!u) return '';
  const cost = u.cost ? ` · ${u.cost.amount.toFixed(2)} ${u.cost.currency}` : '';
  return `${u.used.toLocaleString('en-US')} tokens${cost}`;
}

/** The answer's first line, bounded, for a row. */
function answerLine(answer: string, max = 80): string {
  const line = answer.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `done · 12.5s · 3 files +10 −2 · 1,200 tokens`: one run as a tree row's description. */
export function runSummary(r: AgentRun, now: number): string {
  const t = lineTotals(r.files);
  const files = `${r.files.length} file${r.files.length === 1 ? '' : 's'} +${t.added} −${t.removed}`;
  return [r.state, elapsedText((r.endedAt ?? now) - r.startedAt), files, usageText(r.usage)].filter((p) => p !== '').join(' · ');
}

/** A plain-text table of runs (the CLI prints it), columns padded; agent text is the caller's to make terminal-safe. */
export function compareTable(runs: readonly AgentRun[], now: number): string {
  const head = ['#', 'agent', 'state', 'time', 'files', '+', '−', 'tokens', 'answer'];
  const rows = runs.map((r, i) => {
    const t = lineTotals(r.files);
    return [
      String(i + 1),
      r.label,
      r.state,
      elapsedText((r.endedAt ?? now) - r.startedAt),
      String(r.files.length),
      String(t.added),
      String(t.removed),
      usageText(r.usage),
      answerLine(r.answer, 60),
    ];
  });
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}
