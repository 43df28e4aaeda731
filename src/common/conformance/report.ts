/**
 * Conformance results as data and as text: the `--json` shape of `cli check`, a terminal report and a
 * Markdown report for VS Code. Every string that may carry agent text goes through `escapeControl`.
 */
import type { Finding, RuleId } from './rules';
import { RULES } from './rules';
import { ConformanceChecker } from './checker';
import { escapeControl, isObj } from './util';
import { tooDeep } from '../util/depth';

export interface Summary {
  readonly errors: number;
  readonly warnings: number;
  /** Findings per rule id (only rules that fired). */
  readonly rules: Partial<Record<RuleId, number>>;
  readonly lines: number;
}

export function summarize(findings: readonly Finding[], lines: number): Summary {
  const rules: Partial<Record<RuleId, number>> = {};
  for (const f of findings) rules[f.rule] = (rules[f.rule] ?? 0) + 1;
  return {
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    rules,
    lines,
  };
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}

export interface CaptureCheck {
  readonly findings: readonly Finding[];
  /** Capture records read. */
  readonly records: number;
  /** File lines that are not capture records (torn or foreign lines): not the agent's fault, but said. */
  readonly skipped: readonly number[];
  /** Capture records too deeply nested to check: the capture cannot be called clean. */
  readonly tooDeep: readonly number[];
  readonly protocolVersion: number;
}

/** Checks a whole `{dir, msg}` capture; line numbers are the file's (1-based). */
export function checkCaptureText(text: string): CaptureCheck {
  const checker = new ConformanceChecker();
  const skipped: number[] = [];
  const tooDeepLines: number[] = [];
  let records = 0;
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch {
      skipped.push(i + 1);
      return;
    }
    if (tooDeep(raw, rec)) {
      tooDeepLines.push(i + 1);
      return;
    }
    if (!isObj(rec) || typeof rec['dir'] !== 'string') {
      skipped.push(i + 1);
      return;
    }
    records++;
    checker.observeRecord(rec, i + 1);
  });
  checker.finish();
  return { findings: checker.findings(), records, skipped, tooDeep: tooDeepLines, protocolVersion: checker.protocolVersion };
}

export function toJson(findings: readonly Finding[], lines: number, extra: Record<string, unknown> = {}): string {
  const violations = findings.map((f) => ({ rule: f.rule, severity: f.severity, line: f.line, message: f.message }));
  return JSON.stringify({ violations, summary: { ...summarize(findings, lines), ...extra } }, null, 2);
}

const SEVERITY_WIDTH = 7;

/** A terminal report: one line per finding, then a per-rule tally. */
export function toText(findings: readonly Finding[], lines: number): string {
  const out: string[] = [];
  const width = String(Math.max(1, ...findings.map((f) => f.line))).length;
  for (const f of findings) {
    out.push(`line ${String(f.line).padStart(width)}  ${f.severity.padEnd(SEVERITY_WIDTH)}  ${f.rule}: ${escapeControl(f.message)}`);
  }
  const s = summarize(findings, lines);
  if (findings.length) out.push('');
  out.push(`${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'} in ${lines} capture lines${tally(s)}`);
  return out.join('\n') + '\n';
}

function tally(s: Summary): string {
  const parts = Object.entries(s.rules).map(([rule, n]) => `${rule} ×${n}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Markdown cell text: no pipes or newlines, controls escaped. */
function mdCell(s: string): string {
  return escapeControl(s).replace(/\|/g, '\\|').replace(/`/g, "'");
}

/** The findings as a Markdown section (for the VS Code report and the capability view). */
export function findingsMarkdown(findings: readonly Finding[], heading = '## Conformance findings'): string {
  const lines = [heading, ''];
  if (findings.length === 0) {
    lines.push('No findings: every message seen so far follows the protocol.', '');
    return lines.join('\n');
  }
  const s = summarize(findings, 0);
  lines.push(`${s.errors} errors, ${s.warnings} warnings.`, '', '| line | severity | rule | what to change |', '|---|---|---|---|');
  for (const f of findings) lines.push(`| ${f.line} | ${f.severity} | \`${f.rule}\` | ${mdCell(f.message)} |`);
  lines.push('', '<details><summary>Rules</summary>', '', '| rule | severity | checks | from |', '|---|---|---|---|');
  for (const rule of Object.keys(s.rules) as RuleId[]) {
    const r = RULES[rule];
    lines.push(`| \`${rule}\` | ${r.severity} | ${mdCell(r.title)} | ${mdCell(r.source)} |`);
  }
  lines.push('', '</details>', '');
  return lines.join('\n');
}

/** One row of "advertised versus did" of a live check. */
export interface ProbeRow {
  readonly feature: string;
  /** `null` when there is nothing to advertise (baseline methods). */
  readonly advertised: boolean | null;
  readonly outcome: string;
}

export interface LiveReport {
  readonly agentName: string;
  readonly agentInfo: string;
  readonly protocolVersion: number;
  readonly probes: readonly ProbeRow[];
  readonly findings: readonly Finding[];
  readonly lines: number;
  readonly stopped: string | undefined;
}

/** The live check as a Markdown document: verdict, advertised versus did, findings. */
export function liveReportMarkdown(r: LiveReport): string {
  const s = summarize(r.findings, r.lines);
  const verdict = r.stopped ? 'did not finish' : s.errors ? 'fails' : 'passes';
  const lines = [
    `# Conformance check: ${mdCell(r.agentName)}`,
    '',
    `Agent **${mdCell(r.agentInfo)}**, protocol ${r.protocolVersion}: **${verdict}** (${s.errors} errors, ${s.warnings} warnings in ${r.lines} messages).`,
    '',
  ];
  if (r.stopped) lines.push(`> The scripted session stopped early: ${mdCell(r.stopped)}`, '');
  lines.push('## Advertised vs did', '', '| feature | advertised | what the agent did |', '|---|---|---|');
  for (const p of r.probes) lines.push(`| ${mdCell(p.feature)} | ${p.advertised === null ? '-' : p.advertised ? 'yes' : 'no'} | ${mdCell(p.outcome)} |`);
  lines.push('', findingsMarkdown(r.findings));
  return lines.join('\n');
}

export type { Finding };
