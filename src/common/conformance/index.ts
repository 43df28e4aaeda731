/** The agent conformance check (issue 15): rules, the checker over capture lines, and reports. */
export { ConformanceChecker, SKIPPED_LINE_NOTE } from './checker';
export { RULES, RULE_IDS } from './rules';
export type { Finding, Rule, RuleId, Severity } from './rules';
export { checkCaptureText, findingsMarkdown, hasErrors, liveReportMarkdown, mdCell, summarize, toJson, toText } from './report';
export type { CaptureCheck, LiveReport, ProbeRow, Summary } from './report';
export { escapeControl } from './util';
export { toJUnit, toSarif } from './ciReports';
export type { ReportTarget, ToolInfo } from './ciReports';
