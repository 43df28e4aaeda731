/** The agent conformance check (issue 15): rules, the checker over capture lines, and reports. */
export { ConformanceChecker, SKIPPED_LINE_NOTE } from './checker';
export { RULE_IDS } from './rules';
export type { Finding, RuleId } from './rules';
export { checkCaptureText, findingsMarkdown, hasErrors, liveReportMarkdown, summarize, toJson, toText } from './report';
export type { ProbeRow } from './report';
export { escapeControl } from './util';
export { toJUnit, toSarif } from './ciReports';
export type { ReportTarget } from './ciReports';
