/**
 * Conformance results in the formats CI systems show natively: JUnit XML (test reporters: one test case
 * per rule, failing when the rule has an error finding, so the report agrees with `check`'s exit status)
 * and SARIF 2.1.0 (code scanning: one result per finding, errors and warnings, at its capture line).
 * Finding messages can carry agent text: `escapeControl` first, then the format's own escaping.
 */
import type { Finding, RuleId, Severity } from './rules';
import { RULE_IDS, RULES } from './rules';
import { escapeControl } from './util';

/** Who wrote the report, for SARIF's tool driver. */
export interface ToolInfo {
  readonly name: string;
  readonly version: string;
  /** Where the rules are documented (each rule's help link is this page's `#conformance-check` section). */
  readonly informationUri: string;
}

/** The checked capture: a file (path or URI, as CI should show it) with its line numbers, or none. */
export interface ReportTarget {
  /** What was checked, for the suite's name: the agent's command line or the capture file. */
  readonly subject: string;
  /** The capture file the finding lines refer to, when one was written or read. */
  readonly captureUri?: string;
  readonly lines: number;
}

/**
 * XML 1.0 text on one line: controls made visible (escapeControl), markup characters as entities, and what
 * XML 1.0's `Char` excludes whatever its form (a lone surrogate, U+FFFE, U+FFFF) written as `\uXXXX` text.
 */
function xml(s: string): string {
  return escapeControl(s)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Several findings as XML text, one per line. */
function xmlLines(findings: readonly Finding[], target: ReportTarget): string {
  return findings.map((f) => xml(findingLine(f, target))).join('\n');
}

function findingLine(f: Finding, target: ReportTarget): string {
  return `${target.captureUri ?? 'capture'} line ${f.line}: ${f.severity} ${f.rule}: ${f.message}`;
}

/** JUnit XML: one suite, one test case per rule (every rule, so a clean agent shows all of them passed). */
export function toJUnit(findings: readonly Finding[], target: ReportTarget): string {
  const byRule = new Map<RuleId, Finding[]>();
  for (const f of findings) byRule.set(f.rule, [...(byRule.get(f.rule) ?? []), f]);
  const cases: string[] = [];
  let failures = 0;
  for (const id of RULE_IDS) {
    const ruleFindings = byRule.get(id) ?? [];
    const errors = ruleFindings.filter((f) => f.severity === 'error');
    const warnings = ruleFindings.filter((f) => f.severity === 'warning');
    const name = `${id}: ${RULES[id].title}`;
    const body: string[] = [];
    if (errors.length) {
      failures++;
      const first = errors[0] as Finding;
      body.push(`      <failure type="${id}" message="${xml(`${errors.length} error(s); first at line ${first.line}: ${first.message}`)}">${xmlLines(errors, target)}</failure>`);
    }
    if (warnings.length) body.push(`      <system-out>${xmlLines(warnings, target)}</system-out>`);
    cases.push(
      body.length
        ? `    <testcase classname="acp.conformance" name="${xml(name)}">\n${body.join('\n')}\n    </testcase>`
        : `    <testcase classname="acp.conformance" name="${xml(name)}"/>`,
    );
  }
  const suite = `ACP conformance: ${target.subject}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="acp-chat check" tests="${RULE_IDS.length}" failures="${failures}">`,
    `  <testsuite name="${xml(suite)}" tests="${RULE_IDS.length}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning'> = { error: 'error', warning: 'warning' };

/** SARIF 2.1.0: every rule in the tool driver, one result per finding (located when there is a capture file). */
export function toSarif(findings: readonly Finding[], target: ReportTarget, tool: ToolInfo): string {
  const rules = RULE_IDS.map((id) => ({
    id,
    name: id.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase()),
    shortDescription: { text: RULES[id].title },
    fullDescription: { text: `${RULES[id].title}. Source: ${RULES[id].source}` },
    defaultConfiguration: { level: SARIF_LEVEL[RULES[id].severity] },
    helpUri: `${tool.informationUri.replace(/#.*$/, '')}#conformance-check`,
  }));
  const results = findings.map((f) => ({
    ruleId: f.rule,
    ruleIndex: RULE_IDS.indexOf(f.rule),
    level: SARIF_LEVEL[f.severity],
    message: { text: escapeControl(f.message) },
    ...(target.captureUri !== undefined
      ? { locations: [{ physicalLocation: { artifactLocation: { uri: target.captureUri }, region: { startLine: f.line } } }] }
      : { properties: { captureLine: f.line } }),
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: tool.name, semanticVersion: tool.version, informationUri: tool.informationUri, rules } },
        ...(target.captureUri !== undefined ? { artifacts: [{ location: { uri: target.captureUri } }] } : {}),
        properties: { subject: escapeControl(target.subject), captureLines: target.lines },
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
