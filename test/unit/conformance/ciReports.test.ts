// The CI report formats of `check`: JUnit XML (one test case per rule, failing on errors) and SARIF 2.1.0
// (one result per finding, rules in the tool driver), with agent text escaped for each format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULE_IDS, toJUnit, toSarif, type Finding } from '../../../src/common/conformance';

const hostile = 'method "x<y&z>\u001b[2J\n' + "'quoted'";
const findings: Finding[] = [
  { rule: 'unknown-method', severity: 'error', line: 3, message: `${hostile} is not an ACP method` },
  { rule: 'unknown-method', severity: 'error', line: 7, message: 'second' },
  { rule: 'tool-call-after-end', severity: 'warning', line: 9, message: 'update after completed' },
];
const target = { subject: 'node agent.js', captureUri: 'ci/capture.jsonl', lines: 12 };
const tool = { name: 'acp-chat check', version: '1.2.3', informationUri: 'https://example.org/acp-chat#readme' };

/** Well-formed enough for CI parsers: every `<` opens a tag, every `&` starts an entity, quotes only delimit attributes. */
function assertXmlText(xml: string): void {
  const text = xml.replace(/<\?xml[^>]*\?>/, '').replace(/<\/?[a-z-]+(\s+[a-z]+="[^"<&]*(&#\d+;[^"<&]*)*")*\s*\/?>/g, '');
  assert.doesNotMatch(text, /[<>]/, `stray markup in ${text}`);
  assert.doesNotMatch(text.replace(/&#\d+;/g, ''), /&/);
  assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, 'XML 1.0 forbids these characters');
}

test('JUnit: a test case per rule, failing exactly for rules with an error finding; warnings as output', () => {
  const xml = toJUnit(findings, target);
  assertXmlText(xml);
  const cases = [...xml.matchAll(/<testcase [^>]*name="([a-z-]+):/g)].map((m) => m[1]);
  assert.deepEqual(cases, RULE_IDS);
  assert.match(xml, /<testsuites name="acp-chat check" tests="\d+" failures="1">/);
  assert.equal(xml.match(/<failure /g)?.length, 1);
  assert.match(
    xml,
    /<failure type="unknown-method" message="2 error\(s\); first at line 3: [^"]*">ci\/capture\.jsonl line 3: error unknown-method: [^\n]*\nci\/capture\.jsonl line 7: error unknown-method: second<\/failure>/,
  );
  assert.match(xml, /<system-out>ci\/capture\.jsonl line 9: warning tool-call-after-end: update after completed<\/system-out>/);
  assert.match(xml, /x&#60;y&#38;z&#62;/);
});

test('JUnit: a clean agent passes every rule', () => {
  const xml = toJUnit([], { subject: 'node agent.js', lines: 40 });
  assertXmlText(xml);
  assert.match(xml, /failures="0"/);
  assert.doesNotMatch(xml, /<failure|<system-out/);
});

test('SARIF 2.1.0: every rule in the driver, one located result per finding with its rule id and level', () => {
  const log = JSON.parse(toSarif(findings, target, tool));
  assert.equal(log.version, '2.1.0');
  assert.match(log.$schema, /sarif-2\.1\.0/);
  assert.equal(log.runs.length, 1);
  const [run] = log.runs;
  assert.equal(run.tool.driver.name, 'acp-chat check');
  assert.equal(run.tool.driver.semanticVersion, '1.2.3');
  const rules = run.tool.driver.rules as { id: string; shortDescription: { text: string }; defaultConfiguration: { level: string }; helpUri: string }[];
  assert.deepEqual(
    rules.map((r) => r.id),
    RULE_IDS,
  );
  assert.ok(rules.every((r) => r.shortDescription.text.length > 0 && r.helpUri === 'https://example.org/acp-chat#conformance-check'));
  assert.equal(run.results.length, findings.length);
  for (const [i, r] of (
    run.results as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
    }[]
  ).entries()) {
    const f = findings[i] as Finding;
    assert.equal(r.ruleId, f.rule);
    assert.equal(rules[r.ruleIndex]?.id, f.rule);
    assert.equal(r.level, f.severity);
    assert.deepEqual(r.locations[0]?.physicalLocation, { artifactLocation: { uri: 'ci/capture.jsonl' }, region: { startLine: f.line } });
    assert.doesNotMatch(r.message.text, /[\u0000-\u001f]/);
  }
});

test('SARIF without a capture file: results keep their capture line as a property, with no location', () => {
  const log = JSON.parse(toSarif(findings.slice(0, 1), { subject: 'node agent.js', lines: 4 }, tool));
  const [result] = log.runs[0].results;
  assert.equal(result.locations, undefined);
  assert.deepEqual(result.properties, { captureLine: 3 });
  assert.equal(log.runs[0].artifacts, undefined);
});
