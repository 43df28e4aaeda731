/**
 * Issue 39 class 8: `check --junit` and `check --sarif` reports validated against their published schemas,
 * not against our own idea of them: SARIF 2.1.0's JSON Schema with ajv, JUnit against the Jenkins xUnit
 * plugin's junit-10.xsd with libxml2's xmllint (a real XSD validator; scripts/setup.sh installs it). The
 * schemas are data in test/fixtures/schemas (README.md there says where each comes from). Each validator is
 * first shown to reject what CI parsers reject (a forbidden XML character, a missing required attribute, a
 * SARIF log missing a required member), so a pass means something.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { toJUnit, toSarif, type Finding } from '../../../src/common/conformance';

const schemas = path.resolve(__dirname, '../../fixtures/schemas');
const JUNIT_XSD = path.join(schemas, 'junit-10.xsd');

/** xmllint's verdict on `xml` against junit-10.xsd: well-formed XML 1.0 and valid, or its complaint. */
function junitProblems(xml: string): string | null {
  const r = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, '-'], { input: xml, encoding: 'utf8' });
  if (r.error) throw new Error(`xmllint is needed to validate JUnit reports (run scripts/setup.sh, which installs libxml2-utils): ${r.error.message}`);
  return r.status === 0 ? null : r.stderr;
}

// The formats the SARIF schema names, by their RFCs (ajv checks formats only when told how).
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const URI_CHARS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const formats = {
  /** RFC 3986 URI-reference: only its characters (others percent-encoded); a colon before any slash means a scheme. */
  'uri-reference': (s: string) => URI_CHARS.test(s) && (!/^[^/?#]*:/.test(s) || SCHEME.test(s)),
  uri: (s: string) => URI_CHARS.test(s) && SCHEME.test(s),
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};
const validateSarif = new Ajv2020({ allErrors: true, strict: false, formats }).compile(JSON.parse(readFileSync(path.join(schemas, 'sarif-schema-2.1.0.json'), 'utf8')) as object);
function sarifProblems(text: string): string | null {
  return validateSarif(JSON.parse(text)) ? null : JSON.stringify(validateSarif.errors, null, 1);
}

/** Agent text at its worst: C0 and C1 controls, lone surrogates, non-characters, markup, quotes, a line break. */
const hostile = 'x\u0000\u0001\u0008\u000b\u001b[2J\u0085\u009b\ud800 lone \udfff\ufffe\uffff\u{1F600} <a href="&">\'</a>\n]]>';
const findings: Finding[] = [
  { rule: 'unknown-method', severity: 'error', line: 3, message: `${hostile} is not an ACP method` },
  { rule: 'unknown-method', severity: 'error', line: 7, message: 'second' },
  { rule: 'tool-call-after-end', severity: 'warning', line: 9, message: `update after completed ${hostile}` },
];
const tool = { name: 'acp-chat check', version: '1.2.3', informationUri: 'https://example.org/acp-chat#readme' };
const located = { subject: `node agent.js ${hostile}`, captureUri: 'ci/capture.jsonl', lines: 12 };
const unlocated = { subject: 'node agent.js', lines: 4 };

test('the JUnit validator rejects a forbidden XML character and a missing required attribute', () => {
  const good = toJUnit([], unlocated);
  assert.equal(junitProblems(good), null);
  assert.match(junitProblems(good.replace('name="ACP conformance', 'name="\u0001ACP conformance')) ?? '', /invalid|Char/i);
  assert.match(junitProblems(good.replace(/(<testsuite [^>]*) errors="0"/, '$1')) ?? '', /errors.*required|required.*errors/i);
  assert.match(junitProblems(good.replace(/<testcase classname="acp.conformance" name="[^"]*"/, '<testcase classname="acp.conformance"')) ?? '', /name.*required|required.*name/i);
  assert.match(junitProblems(good.replace('<testsuites ', '<testsuites bogus="1" ')) ?? '', /bogus.*not allowed/);
});

test('JUnit reports are valid against junit-10.xsd whatever the agent wrote, failing and clean alike', () => {
  assert.equal(junitProblems(toJUnit(findings, located)), null);
  assert.equal(junitProblems(toJUnit(findings, unlocated)), null);
  assert.equal(junitProblems(toJUnit([], located)), null);
});

test('the SARIF validator rejects a log missing a required member or with a bad level or URI', () => {
  const good = JSON.parse(toSarif(findings, located, tool)) as {
    runs: { tool: { driver: { name?: string } }; results: { level: string; message: { text?: string } }[]; artifacts: { location: { uri: string } }[] }[];
  };
  assert.equal(sarifProblems(JSON.stringify(good)), null);
  const broken = (edit: (log: typeof good) => void) => {
    const log = structuredClone(good);
    edit(log);
    return sarifProblems(JSON.stringify(log));
  };
  assert.match(broken((l) => delete l.runs[0]?.tool.driver.name) ?? '', /required.*name|name.*required/);
  assert.match(broken((l) => void ((l.runs[0]?.results[0] as { level: string }).level = 'fatal')) ?? '', /enum|allowed/);
  assert.match(broken((l) => delete (l.runs[0]?.results[0] as { message: { text?: string } }).message.text) ?? '', /text|id|anyOf|oneOf/);
  assert.match(broken((l) => void ((l.runs[0]?.artifacts[0] as { location: { uri: string } }).location.uri = 'my dir/c.jsonl')) ?? '', /format/);
});

test('SARIF logs are valid against the SARIF 2.1.0 schema, with and without a capture file', () => {
  assert.equal(sarifProblems(toSarif(findings, located, tool)), null);
  assert.equal(sarifProblems(toSarif(findings, unlocated, tool)), null);
  assert.equal(sarifProblems(toSarif([], located, tool)), null);
});

test('check --junit / --sarif through the CLI: both files valid, for a capture in a folder whose name needs escaping in a URI', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ci-report-schemas-'));
  const dir = path.join(root, 'my captures #1');
  mkdirSync(dir);
  const line = (d: string, msg: object) => JSON.stringify({ dir: d, msg: { jsonrpc: '2.0', ...msg } });
  const capture = path.join(dir, 'run 1.jsonl');
  writeFileSync(
    capture,
    [
      line('client->agent', { id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
      line('agent->client', { id: 0, result: { protocolVersion: 1 } }),
      line('agent->client', { id: 'q', method: `evil/${hostile}`, params: {} }),
    ].join('\n') + '\n',
  );
  const cli = path.resolve(__dirname, '../../../src/node/cli.ts');
  // Run from the capture's parent (as CI runs from the repository), so the report names it by a relative URI.
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const r = spawnSync(process.execPath, ['--import', tsx, cli, 'check', '--junit', 'out.xml', '--sarif', 'out.sarif', capture], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const xml = readFileSync(path.join(root, 'out.xml'), 'utf8');
  const sarif = readFileSync(path.join(root, 'out.sarif'), 'utf8');
  assert.match(xml, /<failure /, 'the hostile method is a finding');
  assert.equal(junitProblems(xml), null);
  assert.equal(sarifProblems(sarif), null);
  const log = JSON.parse(sarif) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
  assert.equal(log.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation.uri, 'my%20captures%20%231/run%201.jsonl');
});
